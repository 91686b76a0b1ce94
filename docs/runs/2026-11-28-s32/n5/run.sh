#!/usr/bin/env bash
# Session 32, call n5 (bundle n5 = the op and nn tests, gemm_plans and gemm_sweep of the working
# tree: the 64x128 tile runs eight stages, one block per multiprocessor, wherever its plan has
# at most one block per multiprocessor; old = m9's gemm_plans, session 31's kernels): the
# 64x128 op tests; the 64x128 and 128x192 plans (alone, pairs, 2x2) and Auto on the BF16
# mid-size and few-row products below 0.80 of cuBLAS in session 31's sweep and a few more,
# beside PyTorch; Auto, the 64x128 tile and its pairs from the old build.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/n5.txz -C /tmp/b && tar xJf .gpu/m9.txz -C /tmp/b; B=/tmp/b/n5
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 150 $B/ops Wgmma64x128 > $L/ops-64x128.log 2>&1; echo "rc=$?" >> $L/ops-64x128.log); el "ops $(grep -E '^test result|rc=' $L/ops-64x128.log | tr '\n' ' ')"
grep -E "FAILED|panicked|mismatch" $L/ops-64x128.log | head
(timeout 60 $B/nn precision > $L/nn-precision.log 2>&1; echo "rc=$?" >> $L/nn-precision.log); el "nn $(grep -E '^test result|rc=' $L/nn-precision.log | tr '\n' ' ')"
(cd $L && tar czf $OUT/logs.tgz .)
BF="nn:1024x784x4096 tn:1024x784x4096 tn:1024x1024x4096 nn:256x4096x4096 nt:4096x64x4096 tn:1024x784x2048 nn:512x1024x1024 nt:512x1024x1024 nn:512x784x4096 nn:1024x784x1024 tn:1024x1024x2048 nn:1000x1000x1000 nt:1024x784x4096 nn:64x4096x4096 nt:64x4096x4096 nn:32x1024x16384 nn:2048x1024x1024 tn:1536x1536x1536 nn:256x1024x1024 tn:1024x1024x1024"
(echo "precision,layout,m,n,k,group"
 for x in $BF; do IFS=x read m n k <<< "${x#*:}"; echo "bf16,${x%%:*},$m,$n,$k,n5"; done) > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
P=Auto,Wgmma64x128,Wgmma64x128+mc,Wgmma64x128+mc2x2,Wgmma128x192,Wgmma128x192+mc,Wgmma128x192+mc2x2,Wgmma64x64
for x in $BF; do timeout 60 $B/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans $P >> $L/plans.csv 2>> $L/plans-err.log
  timeout 30 /tmp/b/m9/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans Auto,Wgmma64x128,Wgmma64x128+mc >> $L/plans-old.csv 2>> $L/plans-old-err.log
  el "$x rc=$?"; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

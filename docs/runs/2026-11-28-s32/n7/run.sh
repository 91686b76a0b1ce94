#!/usr/bin/env bash
# Session 32, call n7 (bundle n7 = the op and nn tests, gemm_plans and gemm_sweep of the working
# tree: the 64x64 tile, too, runs twice its stages (twelve) where its blocks fit one per
# multiprocessor and k per split >= 2048; old = m9's gemm_plans, session 31's kernels): the
# 64-row wgmma op tests (the deep kernels now in them); the 64x64 and 64x128 plans and Auto on
# BF16 products with a side of 32-128 and a long k, beside PyTorch; Auto and the 64x64 tile from
# the old build.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/n7.txz -C /tmp/b && tar xJf .gpu/m9.txz -C /tmp/b; B=/tmp/b/n7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops Wgmma64x > $L/ops-64.log 2>&1; echo "rc=$?" >> $L/ops-64.log); el "ops $(grep -E '^test result|rc=' $L/ops-64.log | tr '\n' ' ')"
grep -E "FAILED|panicked|mismatch" $L/ops-64.log | head
(timeout 60 $B/nn precision > $L/nn-precision.log 2>&1; echo "rc=$?" >> $L/nn-precision.log); el "nn $(grep -E '^test result|rc=' $L/nn-precision.log | tr '\n' ' ')"
(cd $L && tar czf $OUT/logs.tgz .)
BF="nt:4096x64x4096 nn:4096x64x4096 tn:4096x64x4096 tt:4096x64x4096 nn:64x4096x4096 nt:64x4096x4096 tn:64x4096x4096 nn:32x1024x16384 nt:1024x32x16384 nn:128x4096x4096 nt:128x4096x4096 nn:4096x128x4096 nt:2048x64x8192 nn:96x3000x6000 nn:1024x784x4096 nn:256x4096x4096"
(echo "precision,layout,m,n,k,group"
 for x in $BF; do IFS=x read m n k <<< "${x#*:}"; echo "bf16,${x%%:*},$m,$n,$k,n7"; done) > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for x in $BF; do timeout 60 $B/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans Auto,Wgmma64x64,Wgmma64x128,Wgmma64x128+mc >> $L/plans.csv 2>> $L/plans-err.log
  timeout 30 /tmp/b/m9/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans Auto,Wgmma64x64 >> $L/plans-old.csv 2>> $L/plans-old-err.log
  el "$x rc=$?"; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

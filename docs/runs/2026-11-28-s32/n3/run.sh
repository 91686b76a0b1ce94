#!/usr/bin/env bash
# Session 32, call n3 (bundle n3 = the op and nn tests, gemm_plans and gemm_sweep of the working
# tree: the cluster shape is a constant of each BF16 cluster kernel, pairs (2x1) and, new, 2x2
# clusters that share both operands, on the 64x128 and 128x192 tiles; old = m9's gemm_plans,
# session 31's kernels): the multicast op tests; every 64x128 and 128x192 plan alone, in pairs
# and in 2x2 clusters, and Auto, on the BF16 mid-size products below 0.80 of cuBLAS in session
# 31's sweep and a few more, beside PyTorch; Auto and the old pairs from the old build.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/n3.txz -C /tmp/b && tar xJf .gpu/m9.txz -C /tmp/b; B=/tmp/b/n3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 150 $B/ops multicast > $L/ops-multicast.log 2>&1; echo "rc=$?" >> $L/ops-multicast.log); el "ops $(grep -E '^test result|rc=' $L/ops-multicast.log | tr '\n' ' ')"
grep -E "FAILED|panicked|mismatch" $L/ops-multicast.log | head
(timeout 60 $B/nn precision > $L/nn-precision.log 2>&1; echo "rc=$?" >> $L/nn-precision.log); el "nn $(grep -E '^test result|rc=' $L/nn-precision.log | tr '\n' ' ')"
(cd $L && tar czf $OUT/logs.tgz .)
BF="nn:1024x784x4096 tn:1024x784x4096 tn:1024x1024x4096 nn:256x4096x4096 tn:1024x784x2048 tn:1536x1536x1536 nn:512x1024x1024 nt:512x1024x1024 nn:512x784x4096 nn:1024x784x1024 tn:1024x1024x2048 nn:2048x2048x2048 tt:3000x3000x3000 nn:4096x4096x4096 nn:1000x1000x1000 nn:2048x1024x1024 nn:4096x784x1024 nt:1024x784x4096 tt:1536x1536x1536 nn:2048x784x4096"
(echo "precision,layout,m,n,k,group"
 for x in $BF; do IFS=x read m n k <<< "${x#*:}"; echo "bf16,${x%%:*},$m,$n,$k,n3"; done) > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
P=Auto
for t in Wgmma64x128 Wgmma128x192; do for s in "" +mc +mc2x2; do P="$P,$t$s"; done; done
for x in $BF; do timeout 60 $B/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans $P >> $L/plans.csv 2>> $L/plans-err.log
  timeout 30 /tmp/b/m9/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans Auto,Wgmma64x128+mc,Wgmma128x192+mc >> $L/plans-old.csv 2>> $L/plans-old-err.log
  el "$x rc=$?"; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

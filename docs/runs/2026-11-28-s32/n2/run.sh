#!/usr/bin/env bash
# Session 32, call n2 (bundle n2 = the op and nn tests, gemm_plans and gemm_sweep of the working
# tree: the BF16 cluster kernels take any cluster of 1, 2 or 4 tiles along m by 1, 2 or 4 along
# n, sharing op(B) down a column and op(A) along a row): the multicast op tests; every 64x128
# and 128x192 plan, alone and in each cluster shape, and Auto, on the BF16 mid-size products
# below 0.80 of cuBLAS in session 31's sweep, beside PyTorch. n1 timed every cluster plan 1.3-3x
# slower than the pairs of session 31 (their release looped over the cluster's rows and columns
# between k-slices); here the consumers walk a mask of peer ranks instead. old = m9's gemm_plans
# (session 31's kernels and rules): Auto and the pairs again, for the A/B.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/n2.txz -C /tmp/b && tar xJf .gpu/m9.txz -C /tmp/b; B=/tmp/b/n2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 150 $B/ops multicast > $L/ops-multicast.log 2>&1; echo "rc=$?" >> $L/ops-multicast.log); el "ops $(grep -E '^test result|rc=' $L/ops-multicast.log | tr '\n' ' ')"
grep -E "FAILED|panicked|mismatch" $L/ops-multicast.log | head
(timeout 60 $B/nn precision > $L/nn-precision.log 2>&1; echo "rc=$?" >> $L/nn-precision.log); el "nn $(grep -E '^test result|rc=' $L/nn-precision.log | tr '\n' ' ')"
(cd $L && tar czf $OUT/logs.tgz .)
BF="nn:1024x784x4096 tn:1024x784x4096 tn:1024x1024x4096 nn:256x4096x4096 tn:1024x784x2048 tn:1536x1536x1536 nn:512x1024x1024 nt:512x1024x1024 nn:512x784x4096 nn:1024x784x1024 tn:1024x1024x2048 nn:2048x2048x2048 tt:3000x3000x3000 nn:4096x4096x4096 nn:1000x1000x1000"
(echo "precision,layout,m,n,k,group"
 for x in $BF; do IFS=x read m n k <<< "${x#*:}"; echo "bf16,${x%%:*},$m,$n,$k,n2"; done) > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
P=Auto
for t in Wgmma64x128 Wgmma128x192; do for s in "" +mc +mc1x2 +mc2x2 +mc4x1 +mc1x4 +mc2x4 +mc4x2; do P="$P,$t$s"; done; done
for x in $BF; do timeout 60 $B/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans $P >> $L/plans.csv 2>> $L/plans-err.log
  timeout 30 /tmp/b/m9/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans Auto,Wgmma64x128+mc,Wgmma128x192+mc >> $L/plans-old.csv 2>> $L/plans-old-err.log
  el "$x rc=$?"; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

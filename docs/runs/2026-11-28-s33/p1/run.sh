#!/usr/bin/env bash
# Session 33, call p1 (bundle p1 = the op and nn tests, gemm_plans of the working tree: the
# eight-stage 64x128 tile for lone blocks with two consumer warpgroups taking its k-slices in
# turn, `WG_NARROW_TWIN`; old = 0680516's gemm_plans, one consumer): the 64-row wgmma op tests;
# the 64x128 plans (alone, pairs) and Auto, new and old, on the BF16 products where the lone
# tile runs, beside PyTorch; every BF16 plan (new build) on short-k products below 0.70.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/p1.txz -C /tmp/b && tar xJf .gpu/old.txz -C /tmp/b; B=/tmp/b/p1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops Wgmma64x > $L/ops-64.log 2>&1; echo "rc=$?" >> $L/ops-64.log); el "ops $(grep -E '^test result|rc=' $L/ops-64.log | tr '\n' ' ')"
grep -E "FAILED|panicked|mismatch" $L/ops-64.log | head
(timeout 60 $B/nn precision > $L/nn-precision.log 2>&1; echo "rc=$?" >> $L/nn-precision.log); el "nn $(grep -E '^test result|rc=' $L/nn-precision.log | tr '\n' ' ')"
(cd $L && tar czf $OUT/logs.tgz .)
BF="nn:1024x784x4096 tn:1024x784x4096 nt:1024x784x4096 tt:1024x784x4096 tn:1024x1024x4096 nn:256x4096x4096 nt:256x4096x4096 nt:128x4096x4096 nn:96x3000x6000 nt:2048x64x8192 nn:512x784x4096 tn:1024x784x2048 tn:1024x1024x2048 nn:64x4096x4096 nt:4096x64x4096 nn:2048x784x4096 nn:512x1024x8192 tn:1000x1000x3000"
SK="tt:6308x37x20 tn:388x236x84 nn:1484x340x20 nt:1484x340x20 tn:3000x300x25 nn:1652x264x31 tt:4000x40x16 nn:6000x50x30 nt:800x700x48"
(echo "precision,layout,m,n,k,group"
 for x in $BF $SK; do IFS=x read m n k <<< "${x#*:}"; echo "bf16,${x%%:*},$m,$n,$k,p1"; done) > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for x in $BF; do timeout 60 $B/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans Auto,Wgmma64x128,Wgmma64x128+mc >> $L/plans.csv 2>> $L/plans-err.log
  timeout 30 /tmp/b/old/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans Auto,Wgmma64x128,Wgmma64x128+mc >> $L/plans-old.csv 2>> $L/plans-old-err.log
  el "$x rc=$?"; done
(cd $L && tar czf $OUT/logs.tgz .)
for x in $SK; do timeout 60 $B/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} >> $L/plans-shortk.csv 2>> $L/plans-err.log; el "$x rc=$?"; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

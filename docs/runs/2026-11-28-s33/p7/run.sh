#!/usr/bin/env bash
# Session 33, call p7 (bundle p7 = the op and nn tests and gemm_plans of the working tree: a
# 128x64 tile with two consumer warpgroups on different rows sharing one op(B) tile, eight
# stages, one block per multiprocessor, run instead of the 64x128 tile wherever its blocks fit
# one wave, alone or in pairs; old = 0680516's gemm_plans, the eight-stage 64x128 tile): the
# 64x128 op tests (which now run the 128x64 tile where it fits); the 64x128 plans and Auto, new
# and old, on BF16 products of lone blocks, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/p7.txz -C /tmp/b && tar xJf .gpu/old.txz -C /tmp/b; B=/tmp/b/p7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops Wgmma64x128 > $L/ops-64x128.log 2>&1; echo "rc=$?" >> $L/ops-64x128.log); el "ops $(grep -E '^test result|rc=' $L/ops-64x128.log | tr '\n' ' ')"
grep -E "FAILED|panicked|mismatch" $L/ops-64x128.log | head
(timeout 60 $B/nn precision > $L/nn-precision.log 2>&1; echo "rc=$?" >> $L/nn-precision.log); el "nn $(grep -E '^test result|rc=' $L/nn-precision.log | tr '\n' ' ')"
(cd $L && tar czf $OUT/logs.tgz .)
BF="nn:1024x784x4096 tn:1024x784x4096 nt:1024x784x4096 tt:1024x784x4096 tn:1024x1024x4096 nn:1024x1024x4096 nn:256x4096x4096 nt:256x4096x4096 nn:512x784x4096 tn:1024x784x2048 tn:1024x1024x2048 nn:512x1024x8192 tn:1000x1000x3000 nn:768x768x6000"
(echo "precision,layout,m,n,k,group"
 for x in $BF; do IFS=x read m n k <<< "${x#*:}"; echo "bf16,${x%%:*},$m,$n,$k,p7"; done) > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for x in $BF; do timeout 60 $B/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans Auto,Wgmma64x128,Wgmma64x128+mc >> $L/plans.csv 2>> $L/plans-err.log
  timeout 60 /tmp/b/old/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans Auto,Wgmma64x128,Wgmma64x128+mc >> $L/plans-old.csv 2>> $L/plans-old-err.log; el "$x rc=$?"; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

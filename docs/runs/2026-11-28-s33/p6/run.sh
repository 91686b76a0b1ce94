#!/usr/bin/env bash
# Session 33, call p6 (bundle p6 = the op and nn tests and gemm_plans of the working tree: the
# 64x128 tile in 2x2 multicast clusters with eight stages where its blocks fit one per
# multiprocessor, as the pairs run): the 64x128 op tests; on BF16 products of lone 64x128
# blocks, the pairs (+mc) and the 2x2 clusters (+mc2x2), both eight stages deep, and Auto,
# beside PyTorch: does a cluster that draws 12 KiB of L2 per k-slice beat one that draws 16?
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/p6.txz -C /tmp/b; B=/tmp/b/p6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops Wgmma64x128 > $L/ops-64x128.log 2>&1; echo "rc=$?" >> $L/ops-64x128.log); el "ops $(grep -E '^test result|rc=' $L/ops-64x128.log | tr '\n' ' ')"
grep -E "FAILED|panicked|mismatch" $L/ops-64x128.log | head
(timeout 60 $B/nn precision > $L/nn-precision.log 2>&1; echo "rc=$?" >> $L/nn-precision.log); el "nn $(grep -E '^test result|rc=' $L/nn-precision.log | tr '\n' ' ')"
(cd $L && tar czf $OUT/logs.tgz .)
BF="nn:1024x784x4096 tn:1024x784x4096 nt:1024x784x4096 tt:1024x784x4096 tn:1024x1024x4096 nn:1024x1024x4096 nn:256x4096x4096 nt:256x4096x4096 nn:512x784x4096 tn:1024x784x2048 tn:1024x1024x2048 nn:512x1024x8192 tn:1000x1000x3000 nn:768x768x6000"
(echo "precision,layout,m,n,k,group"
 for x in $BF; do IFS=x read m n k <<< "${x#*:}"; echo "bf16,${x%%:*},$m,$n,$k,p6"; done) > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for x in $BF; do timeout 60 $B/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans Auto,Wgmma64x128+mc,Wgmma64x128+mc2x2 >> $L/plans.csv 2>> $L/plans-err.log; el "$x rc=$?"; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

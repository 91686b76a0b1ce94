#!/usr/bin/env bash
# Session 35, call r2 (bundle r2: the working tree with the BF16 128x128 tile, Bf16Kernel::
# Wgmma128x128, two consumer warpgroups sharing op(B), six stages; not chosen by Auto): its op
# tests (every layout: split-K, multicast refusals, ...); Auto, the 64x128, 128x128 and 128x192
# plans at 1-4 splits on the lone-block family and mid-sized products beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r2.txz -C /tmp/b; B=/tmp/b/r2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
(timeout 240 $B/ops Wgmma128x128 > $L/ops-128x128.log 2>&1; echo "rc=$?" >> $L/ops-128x128.log); el "ops $(grep -E '^test result|rc=' $L/ops-128x128.log | tr '\n' ' ')"
grep -E "FAILED|panicked|mismatch" $L/ops-128x128.log | head
CASES="bf16:tn:1024x1024x4096 bf16:nn:1024x784x4096 bf16:tn:1024x784x4096 bf16:nt:1024x784x4096 bf16:tn:1024x784x2048 bf16:tn:1024x1024x2048 bf16:nn:1024x1024x1024 bf16:tn:1024x784x1024 bf16:nn:256x4096x4096 bf16:nt:256x4096x4096 bf16:nn:512x1024x4096 bf16:nn:512x784x4096 bf16:nt:1536x1536x1536 bf16:tn:1536x1536x1536 bf16:nt:2048x2048x2048 bf16:nn:768x768x6000 bf16:nt:1000x1000x1000 bf16:nt:1280x1024x3000 bf16:tn:2048x1024x4096 bf16:nn:896x1152x2500 bf16:tt:1100x900x3333 bf16:nt:512x2048x8192 bf16:nn:2048x512x2048 bf16:nt:4096x1024x1024 bf16:tn:4096x784x4096 bf16:nn:3000x3000x3000 bf16:nt:600x1400x5000"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,r2"; done) > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "tag,precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 60 $B/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto,Wgmma128x128,Wgmma64x128,Wgmma64x128+mc,Wgmma128x192,Wgmma128x192+mc,Wgmma 2>> $L/plans-err.log | tail -n +2 | sed "s/^/r2,/" >> $L/plans.csv
done; el "plans done"
(cd $L && tar czf $OUT/logs.tgz .)
el done

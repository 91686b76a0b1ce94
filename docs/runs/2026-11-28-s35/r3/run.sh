#!/usr/bin/env bash
# Session 35, call r3 (bundle r3: the working tree with the eight-stage 64x128 tile in TMA
# multicast clusters of 4 and 8 tiles along m, Multicast::COLUMN4 / COLUMN8; not chosen by
# Auto): the multicast op tests (every BF16 wgmma kernel, every layout, the new cluster shapes
# run or refused); Auto and the 64x128 plans alone, in pairs and in column clusters of 4 and 8
# at 1-4 splits, twice, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r3.txz -C /tmp/b; B=/tmp/b/r3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/ops multicast > $L/ops-multicast.log 2>&1; echo "rc=$?" >> $L/ops-multicast.log); el "ops $(grep -E '^test result|rc=' $L/ops-multicast.log | tr '\n' ' ')"
grep -E "FAILED|panicked|mismatch" $L/ops-multicast.log | head
CASES="bf16:tn:1024x1024x4096 bf16:nn:1024x784x4096 bf16:tn:1024x784x4096 bf16:nt:1024x784x4096 bf16:tn:1024x784x2048 bf16:tn:1024x1024x2048 bf16:tn:1024x784x1024 bf16:nn:1024x1024x1024 bf16:nn:512x784x4096 bf16:nn:512x1024x4096 bf16:nn:256x4096x4096 bf16:nt:256x4096x4096 bf16:nn:768x768x6000 bf16:nt:1000x1000x1000 bf16:nn:2048x512x2048 bf16:tn:1536x1536x1536 bf16:nt:512x2048x8192 bf16:nt:600x1400x5000 bf16:tt:1100x900x3333 bf16:nn:896x1152x2500 bf16:nt:2048x784x1024"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,r3"; done) > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "tag,precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for rep in 1 2; do
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 60 $B/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto,Wgmma64x128,Wgmma64x128+mc,Wgmma64x128+mc4x1,Wgmma64x128+mc8x1,Wgmma128x192,Wgmma128x192+mc 2>> $L/plans-err.log | tail -n +2 | sed "s/^/r3-$rep,/" >> $L/plans.csv
done; el "plans $rep done"; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 35, call r5 (bundle r5: the working tree with the warp-per-column kernels on Cᵀ,
# gemm_warpdot_t_{f32,bf16}: a warp per row of C for a few columns, and Auto's rule taking them
# for at most 4 columns with a k-contiguous op(A) where the kernel fills the device, the narrow
# kernels would not run, or the product is tiny; r3 = the rules before): the WarpDot and Auto op
# tests; Auto of both builds, the warp-per-column and narrow plans on few-column products in
# every precision, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in r3 r5; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/r5
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops WarpDot > $L/ops-warpdot.log 2>&1; echo "rc=$?" >> $L/ops-warpdot.log); el "ops WarpDot $(grep -E '^test result|rc=' $L/ops-warpdot.log | tr '\n' ' ')"
(timeout 250 $B/ops Auto > $L/ops-auto.log 2>&1; echo "rc=$?" >> $L/ops-auto.log); el "ops Auto $(grep -E '^test result|rc=' $L/ops-auto.log | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops-*.log | head
SH="7x1x222 454x1x1813 1130x1x248 100x1x100 3000x1x2000 4096x1x4096 1024x1x1024 786x1x921 65x3x4099 394x4x1426 8192x2x512 2000x4x3000 300x1x50 5000x3x20 50x2x7000 4096x4x4096 16384x1x1024 1024x1x16384 10000x2x100 2500x1x300"
CASES=""; for s in $SH; do for l in nn nt tn; do for p in bf16 tf32 f32; do CASES="$CASES $p:$l:$s"; done; done; done
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,r5"; done) > $L/cases.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "tag,precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 60 /tmp/b/r3/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/plans-err.log | tail -n +2 | sed "s/^/old,/" >> $L/plans.csv
  timeout 60 $B/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto,WarpDot,NarrowK,NarrowMn,RowDot 2>> $L/plans-err.log | tail -n +2 | sed "s/^/new,/" >> $L/plans.csv
done; el "plans done"
(cd $L && tar czf $OUT/logs.tgz .)
el done

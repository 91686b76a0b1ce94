#!/usr/bin/env bash
# Session 40, call x7 (bundles x6: gemm_plans of 5e6c364, the rules of y1/y2; x7: x6 + FP32's tiny
# products of at most 8 rows or columns from k = 13 on the k-contiguous narrow kernel
# (NARROW_AUTO_TINY_MIN_K), and no warp-per-column kernel for k <= 12 (warpdot_auto)): Auto of
# both builds alternated twice on the 29 products of 2819 whose pick it changes and on 6
# controls, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in x6 x7; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="bf16:nt:1x4x4 bf16:nt:2x1080x7 bf16:nt:3x6269x3 bf16:tn:2x1x1 bf16:tn:3x1x11 bf16:tt:3x4x3 f32:nn:6x11x41 f32:nt:1x4x4 f32:nt:3x6269x3 f32:tn:1391x8x41 f32:tn:2x1x1 f32:tn:3x1x11 f32:tn:5x188x46 f32:tn:6x267x24 f32:tn:8x1198x15 f32:tt:4x850x3 f32:tt:530x7x51 tf32:nn:1x1x1 tf32:nn:5x2624x44 tf32:nn:6x11x41 tf32:nt:1x4x4 tf32:nt:3x6269x3 tf32:tn:1391x8x41 tf32:tn:2x1x1 tf32:tn:3x1x11 tf32:tn:5x188x46 tf32:tn:6x267x24 tf32:tt:3882x6x15 tf32:tt:530x7x51  f32:nt:67x1x12 f32:tt:2x3330x29 f32:nt:1x1004x325 f32:tt:1x146x245 bf16:nt:9x28x194 f32:tn:17x32x663"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,x7"; done) > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for b in x6 x7; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$b-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 10 /tmp/b/$b/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err.log | tail -n +2 >> $L/auto-$b-$rep.csv
  done; el "auto $b $rep"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 40, call x2 (bundles x1: gemm_plans/gemm_sweep of 3405443 plus the uniform group; x2:
# x1 plus the FP32 narrow tiles' FLOP cap on a narrow side over 32, NARROW_TILES_WIDE_MAX_FLOPS):
# FP32 Auto of both builds alternated twice on the 4 products of 2723 whose pick the cap changes
# and on 6 controls, beside PyTorch; then every split of the CUDA-core tiles and the narrow
# kernels on tiny-output long-k products (how a split plan's time grows with its splits).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in x1 x2; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="f32:nt:5386x143x2066 f32:nt:89x4118x5637 f32:tn:4286x69x6540 f32:tt:3250x70x7693  f32:nt:335x160x2025 f32:tt:335x160x2025 f32:nt:18x90x4894 f32:nn:32x4096x4096 f32:nt:4096x16x4096 f32:nn:1024x1024x1024"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,x2"; done) > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for b in x1 x2; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$b-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 10 /tmp/b/$b/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err.log | tail -n +2 >> $L/auto-$b-$rep.csv
  done; el "auto $b $rep"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/splits.csv
for x in nt:18x90x4894 tn:11x20x3284 nt:9x35x4991 nn:121x239x1648 tt:233x18x2176 nt:64x64x16384 nn:32x1024x16384 tn:24x238x4476; do IFS=: read l s <<< "$x"
  timeout 30 /tmp/b/x2/gemm_plans --precisions f32 --layouts $l --shapes $s --plans Tile64Fine,Tile64x32,Tile32x64,Tile64,NarrowK,NarrowMn,Auto 2>> $L/err.log | tail -n +2 >> $L/splits.csv; el "splits $l $s"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

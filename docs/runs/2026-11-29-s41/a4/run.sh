#!/usr/bin/env bash
# Session 41, call a4 (bundle z2old: gemm_plans of 0b7a880, the rules of main): the
# warp-per-column kernel against Auto on few-row x·Wᵀ products (nt and tt: op(B) k-contiguous)
# whose warp-per-column grid is short of a block per multiprocessor, k from 128 to 2000, beside
# PyTorch; three precisions.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/z2old.txz -C /tmp/b; GP=/tmp/b/z2old/gemm_plans
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S="1x300x128,1x300x325,1x300x700,1x300x1023,1x300x2000,1x500x128,1x500x325,1x500x700,1x500x1023,1x500x2000,1x700x128,1x700x325,1x700x700,1x700x1023,1x700x2000,1x900x128,1x900x325,1x900x700,1x900x1023,1x900x2000,1x1004x128,1x1004x325,1x1004x700,1x1004x1023,1x1004x2000,1x1050x128,1x1050x325,1x1050x700,1x1050x1023,1x1050x2000,4x300x128,4x300x325,4x300x700,4x300x1023,4x300x2000,4x500x128,4x500x325,4x500x700,4x500x1023,4x500x2000,4x700x128,4x700x325,4x700x700,4x700x1023,4x700x2000,4x900x128,4x900x325,4x900x700,4x900x1023,4x900x2000,4x1004x128,4x1004x325,4x1004x700,4x1004x1023,4x1004x2000,4x1050x128,4x1050x325,4x1050x700,4x1050x1023,4x1050x2000,8x150x128,8x150x325,8x150x700,8x150x1023,8x150x2000,8x300x128,8x300x325,8x300x700,8x300x1023,8x300x2000,8x400x128,8x400x325,8x400x700,8x400x1023,8x400x2000,8x500x128,8x500x325,8x500x700,8x500x1023,8x500x2000,8x528x128,8x528x325,8x528x700,8x528x1023,8x528x2000"
(echo "precision,layout,m,n,k,group"
 for p in f32 tf32 bf16; do for l in nt tt; do for s in ${S//,/ }; do IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,a4"; done; done; done) > $L/cases.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans-$rep.csv
  for p in f32 tf32 bf16; do for l in nt tt; do
    timeout 150 $GP --precisions $p --layouts $l --shapes $S --plans Auto,WarpDot 2>> $L/err.log | tail -n +2 >> $L/plans-$rep.csv
  done; el "rep $rep $p"; done
  (cd $L && tar czf $OUT/logs.tgz .)
done
el done

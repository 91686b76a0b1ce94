#!/usr/bin/env bash
# Session 23, call c1 (bundle c1 = HEAD ba63e5d's gemm_plans and gemm_sweep; no code change):
# every plan (gemm_plans) of the products below 0.70 of cuBLAS in s22's H200 sweep that are
# bound by memory or by few blocks (TF32 and BF16 few-row and few-column products with a long
# k, tall short-k products, FP32 64x64x16384), beside PyTorch on the same cases; the m = 1
# products on the final warp-per-column kernel (Auto).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/c1.txz -C /tmp/b; B=/tmp/b/c1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
TF=16x4096x4096,32x4096x4096,64x4096x4096,8x8192x8192,4096x16x4096,4096x64x4096,10x4096x256,1024x784x64,4096x784x32,4096x4096x16,4096x4096x32,189x16x832,128x128x128
BF=64x4096x4096,4096x64x4096,16x4096x4096,8192x8192x64,8192x4096x32,512x784x4096,1024x1024x4096,1024x784x2048,128x1024x784,6308x37x20,797x346x9
F3=64x64x16384,1x5099x6665,1x4096x4096,1x786x921
{ echo precision,layout,m,n,k
  for l in nn nt tn; do for s in ${TF//,/ }; do echo tf32,$l,${s//x/,}; done; for s in ${BF//,/ }; do echo bf16,$l,${s//x/,}; done; done
  for l in nn nt tn tt; do for s in ${F3//,/ }; do for p in f32 tf32 bf16; do echo $p,$l,${s//x/,}; done; done; done
} > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for l in nn nt tn; do
  timeout 150 $B/gemm_plans --precisions tf32 --layouts $l --shapes $TF >> $L/plans-tf32.csv 2>> $L/plans-err.log; el "plans tf32 $l rc=$?"
  timeout 100 $B/gemm_plans --precisions bf16 --layouts $l --shapes $BF >> $L/plans-bf16.csv 2>> $L/plans-err.log; el "plans bf16 $l rc=$?"
done
timeout 60 $B/gemm_plans --precisions f32 --layouts nn,nt,tn,tt --shapes 64x64x16384 >> $L/plans-f32.csv 2>> $L/plans-err.log; el "plans f32 rc=$?"
timeout 60 $B/gemm_plans --precisions f32,tf32,bf16 --layouts nn,nt,tn,tt --shapes 1x5099x6665,1x4096x4096,1x786x921 --plans Auto >> $L/plans-m1.csv 2>> $L/plans-err.log; el "plans m1 rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

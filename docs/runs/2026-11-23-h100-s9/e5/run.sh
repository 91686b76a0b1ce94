#!/usr/bin/env bash
# Session 9, experiment 5: grids of at most one block per SM launched with enough dynamic
# shared memory for one block per SM (so a cluster launch cannot pack two blocks on one SM),
# against the same build without it. The 64-row plans on long-k and small products.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e5.txz -C /tmp/e && E=/tmp/e/e5
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=64x64x16384,32x1024x16384,1024x32x16384,10x1024x4096,64x784x4096,128x784x4096,1x165x7552,256x784x4096,33x2000x5000,16x4096x4096,128x1024x1024,32x4096x4096,384x384x384,512x512x512,256x1024x1024
T=64x64x16384,32x1024x16384,10x1024x4096,64x784x4096,128x784x4096,33x2000x5000,128x1024x1024,512x512x512
for v in new spread; do
  timeout 150 $E/$v/gemm_plans --precisions bf16 --layouts nn,nt --shapes $S --plans Auto,Wgmma64x64,Wgmma64x128 > $L/plans-bf16-$v.csv 2> $L/plans-bf16-$v.err; el "$v bf16 rc=$? $(wc -l < $L/plans-bf16-$v.csv)"
  timeout 120 $E/$v/gemm_plans --precisions tf32 --layouts nt --shapes $T --plans Tf32Auto,Tf32Wgmma64x64,Tf32Wgmma64x128 > $L/plans-tf32-$v.csv 2> $L/plans-tf32-$v.err; el "$v tf32 rc=$? $(wc -l < $L/plans-tf32-$v.csv)"
done
tar czf $OUT/logs.tgz -C /tmp logs

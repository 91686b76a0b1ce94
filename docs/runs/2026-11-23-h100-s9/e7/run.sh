#!/usr/bin/env bash
# Session 9, experiment 7: do blocks that read the same A panel at the same time slow each other
# down? HEAD (f0000d9) against a build whose producer starts each tile's k-range at slice
# (tile_m + tile_n) mod its length and wraps around (K-major and BF16 MN-major operands).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e7.txz -C /tmp/e && E=/tmp/e/e7
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=32x1024x16384,1024x32x16384,10x1024x4096,64x784x4096,33x2000x5000,16x4096x4096,128x1024x1024,32x4096x4096,256x784x4096,1024x1024x1024
T=32x1024x16384,10x1024x4096,33x2000x5000,128x1024x1024
for v in head rot; do
  timeout 150 $E/$v/gemm_plans --precisions bf16 --layouts nn,nt --shapes $S --plans Wgmma64x64,Wgmma64x128,Wgmma > $L/plans-bf16-$v.csv 2> $L/plans-bf16-$v.err; el "$v bf16 rc=$? $(wc -l < $L/plans-bf16-$v.csv)"
  timeout 120 $E/$v/gemm_plans --precisions tf32 --layouts nt --shapes $T --plans Tf32Wgmma64x64,Tf32Wgmma64x128 > $L/plans-tf32-$v.csv 2> $L/plans-tf32-$v.err; el "$v tf32 rc=$? $(wc -l < $L/plans-tf32-$v.csv)"
done
tar czf $OUT/logs.tgz -C /tmp logs

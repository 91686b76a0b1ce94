#!/usr/bin/env bash
# Session 11, experiment 5 (the r2 build): every split of the CUDA-core tiles and of
# `Tf32x3Wgmma128x128` on 24 products (nn), to fit where FP32 `Auto` runs FP32 on TF32.
set -u
mkdir -p /tmp/b && tar xJf .gpu/r2.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=640x640x640,768x768x768,512x1024x1024,512x1024x784,1024x1024x128,1024x784x128,4096x784x32,1000x1000x1000,512x784x1024,1024x1024x1024,256x1024x784,384x384x384,1536x1536x1536,2048x512x512,1024x1024x256,256x4096x1024,128x4096x4096,1024x784x1024,2048x2048x2048,3000x2000x1500,4096x1024x1024,1024x1024x4096,1536x1024x512,2000x2000x2000
timeout 400 $B/benches/gemm_plans --precisions f32 --layouts nn --shapes $S --plans Auto,Tf32x3Wgmma128x128,WarpTiledWide,WarpTiledFast,Tile128x64,Tile64x128,Tile64,Tile64Fine > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
tar czf $OUT/logs.tgz -C /tmp logs

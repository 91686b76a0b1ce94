#!/usr/bin/env bash
# Session 12, experiment 8: the 64×64 `wgmma` tile with each slice's k-steps split over two
# accumulators (two dependent chains); this build lets its K-major kernels take 132 registers
# (one block per multiprocessor). Tests of the tile, and every split on latency-bound and
# few-row products (compare e1, e7).
set -u
mkdir -p /tmp/e && tar xJf .gpu/e8.txz -C /tmp/e && E=/tmp/e/e8
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/ops "64x64" > $L/tests.log 2>&1; el "tests rc=$? $(grep -E '^test result' $L/tests.log)"; grep -E "FAILED|panicked|mismatch|differs" $L/tests.log | head -12
S=64x1024x1024,256x1024x1024,32x4096x784,128x1024x784,32x4096x4096,16x4096x4096,64x4096x4096,1024x32x16384,512x1024x1024,1024x1024x1024,384x384x384
timeout 300 $E/gemm_plans --precisions bf16 --layouts nt,nn --shapes $S --plans Auto,Wgmma64x64 > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
timeout 150 $E/gemm_plans --precisions tf32 --layouts nt,nn --shapes $S --plans Auto,Tf32Wgmma64x64 > $L/plans-tf32.csv 2> $L/plans-tf32.err; el "plans tf32 rc=$? $(wc -l < $L/plans-tf32.csv) $(grep -c mismatch $L/plans-tf32.csv)"
tar czf $OUT/logs.tgz -C /tmp logs

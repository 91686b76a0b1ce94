#!/usr/bin/env bash
# Session 8, call 5: is the BF16 wgmma tile's slowdown on rows that are not 128-byte aligned
# (3000³ 145 µs against 3072³ 112, call 4) the tensor maps' L2 promotion? gemm_plans built with
# promotion none (p0), 64 B (p1), 128 B (p2) and 256 B (p3, the current one).
set -u
mkdir -p /tmp/b && tar xJf .gpu/r5.txz -C /tmp/b && B=/tmp/b/promo
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for p in 0 1 2 3; do
  timeout 60 $B/gemm_plans_p$p --precisions bf16,tf32 --layouts nt --shapes 3000x3000x3000,5000x5000x5000,2944x2944x2944,1000x1000x1000,4096x784x4096 --plans Auto > $L/promo-p$p.csv 2> $L/promo-p$p.err; el "p$p rc=$?"
done
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 12, experiment 5: the short-k kernel of e3 (guarded loads, 80 registers): why bf16
# inputs run slower than f32 ones at 4096×4096×10 (warp stall reasons, raw page).
set -u
mkdir -p /tmp/e && tar xJf .gpu/e5.txz -C /tmp/e && E=/tmp/e/e5
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 100 $E/gemm_plans --precisions f32,bf16 --layouts nn,tn --shapes 4096x4096x10,64x1024x10 --plans ShortK > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"; cat $L/plans.csv
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
for pr in f32 bf16; do
timeout 60 $NCU --section WarpStateStats --section SpeedOfLight --section Occupancy --page raw $E/gemm_plans --precisions $pr --layouts nn --shapes 4096x4096x10 --plans ShortK --profile 1 > $L/ncu-$pr.txt 2>&1; el "ncu $pr rc=$?"
grep -E "stalled.*per_warp_active|gpu__time_duration.sum|achieved_occupancy|registers_per_thread|inst_executed.sum " $L/ncu-$pr.txt | awk '$NF+0 > 0.05 || /duration|occup|regis|inst/' | head -30
done
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 16, call e2: why stream-K lost in e1 (nt 1024^3: 37.8 us against 14 for 3 splits of
# the 128x256 tile, while 2000^3, whose runs share no tile, ran as fast as the tile kernel).
# Nsight Compute on both kernels: speed of light, warp states, source counters.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e1s16.txz -C /tmp/b && B=/tmp/b/e1s16
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
for plan in WgmmaStreamK Wgmma; do
timeout 120 ncu --target-processes all -k regex:gemm_wgmma --launch-skip 1 --launch-count 1 --cache-control none --section SpeedOfLight --section WarpStateStats --section SourceCounters --section LaunchStats --metrics gpu__time_duration.sum,smsp__cycles_active.avg,sm__cycles_elapsed.max $B/gemm_plans --precisions bf16 --layouts nt --shapes 1024x1024x1024 --plans $plan --profile 3 > $L/ncu-$plan.txt 2>&1; el "ncu $plan rc=$?"
grep -E "gemm_wgmma|Duration|gpu__time|Stall|stall|Warp Cycles|Issued|Grid Size|Block Size|cycles" $L/ncu-$plan.txt | head -40
done
tar czf $OUT/logs.tgz -C /tmp logs

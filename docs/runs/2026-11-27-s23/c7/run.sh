#!/usr/bin/env bash
# Session 23, call c7 (c5's gemm_plans, the final code): Nsight Compute on the BF16 128x256
# tile, tn 1024x1024x4096, unsplit against 3 clusters splits (where does a split's ~5 us go?),
# and on the store-bound 8192x8192x64 (64x128 tile): speed of light, warp states, memory.
set -u
mkdir -p /tmp/b && tar xJf .gpu/c6.txz -C /tmp/b; B=/tmp/b/c6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
S="--section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats"
# Each plan runs its check once and --profile 1 once more, splits in order 1, 2, 3, ...: split s's
# profiled launch is launch 2s (skip 2s - 1).
for pl in Wgmma:1x1024x1024x4096 Wgmma:3x1024x1024x4096 Wgmma64x128:1x8192x8192x64; do
  k=${pl%%:*}; rest=${pl#*:}; s=${rest%%x*}; sh=${rest#*x}
  timeout 90 $NCU --cache-control none --clock-control none -k regex:gemm_wgmma --launch-skip $((2 * s - 1)) --launch-count 1 $S \
    $B/gemm_plans --precisions bf16 --layouts tn --shapes $sh --plans $k --profile 1 > $L/ncu-$k-$s-$sh.txt 2>&1
  el "ncu $k/$s $sh rc=$?"; grep -E "Duration|Grid Size|Cluster|Stall|Issued Ipc|Memory Throughput|DRAM Through|Warp Cycles Per Issued" $L/ncu-$k-$s-$sh.txt | head -12
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

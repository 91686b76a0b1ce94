#!/usr/bin/env bash
# Session 24, call d3 (bundle s3 = s2's kernels; gemm_plans also times stream-K for waves of one,
# two and four blocks per tile): why stream-K blocks run ~12 us slower than the tiles. Stream-K
# against the plain 128x256 tile on five products, then Nsight Compute on 1024^3 nn stream-K,
# device wave (4 blocks per tile) and wave = tiles (one whole tile per block, no partials).
set -u
mkdir -p /tmp/b && tar xJf .gpu/s3.txz -C /tmp/b; B=/tmp/b/s3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=1024x1024x1024,1024x1024x4096,1536x1536x1536,2048x2048x2048,4096x4096x4096
timeout 120 $B/gemm_plans --precisions bf16 --layouts nn --shapes $S --plans Wgmma,WgmmaStreamK > $L/plans.csv 2> $L/plans-err.log; el "plans rc=$?"
grep -E "StreamK|Wgmma,1," $L/plans.csv
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
SEC="--section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --section SchedulerStats --section SourceCounters"
for i in 0 1; do
  timeout 120 $NCU --cache-control none --clock-control none -k regex:gemm_wgmma_bf16_kn_sk --launch-skip $((2 * i + 1)) --launch-count 1 $SEC \
    $B/gemm_plans --precisions bf16 --layouts nn --shapes 1024x1024x1024 --plans WgmmaStreamK --profile 1 > $L/ncu-sk-$i.txt 2>&1
  el "ncu $i rc=$?"; grep -E "Duration|Grid Size|Elapsed Cycles|SM Active Cycles|Warp Cycles Per Issued" $L/ncu-sk-$i.txt | head -8
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

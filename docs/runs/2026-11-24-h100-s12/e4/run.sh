#!/usr/bin/env bash
# Session 12, experiment 4: the short-k kernel with every staging load issued unconditionally
# (clamped into the operand) before any is masked: tests, the k ≤ 16 plans, and Nsight Compute
# (f32 against bf16 inputs on 4096×4096×10, warp stall reasons).
set -u
mkdir -p /tmp/e && tar xJf .gpu/e4.txz -C /tmp/e && E=/tmp/e/e4
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/ops "ShortK" > $L/tests.log 2>&1; el "tests rc=$? $(grep -E '^test result' $L/tests.log)"; grep -E "FAILED|panicked|mismatch|differs" $L/tests.log | head -12
S=4096x4096x10,1024x4096x10,64x1024x10,128x4096x10,1024x1024x10,256x1024x10,4096x4096x16,322x4203x12,4670x94x6
timeout 200 $E/gemm_plans --precisions f32,bf16 --layouts nn,tn,tt --shapes $S --plans ShortK,Auto,Tile64Fine,SmemTiled,MmaTile64,Wgmma64x64,Wgmma64x128 > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
grep ShortK $L/plans.csv | awk -F, '{print $1,$2,$3,$4,$5,$8}'
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
for pr in f32 bf16; do for s in 64x1024x10 4096x4096x10; do
timeout 60 $NCU --section SpeedOfLight --section WarpStateStats --section Occupancy --section MemoryWorkloadAnalysis $E/gemm_plans --precisions $pr --layouts nn --shapes $s --plans ShortK --profile 1 > $L/ncu-$pr-$s.txt 2>&1; el "ncu $pr $s rc=$?"
grep -E "Duration|Stall|Achieved Occupancy|Memory Throughput|DRAM Throughput|Registers|Warp Cycles Per Issued|L1/TEX Hit|L2 Hit" $L/ncu-$pr-$s.txt | head -16
done; done
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 6, call 4: the refitted FP32 model (8x8 warps count twice): the GEMM tests, the FP32
# sweep against cuBLAS (same seed), and Nsight Compute on two products far from cuBLAS: the
# k = 12 product 322x4203x12 (tn) and the memory-bound 1x4096x4096 (nn, ColDot).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r4.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 90 $B/tests/ops-test gemm > $L/ops-gemm.log 2>&1; el "ops gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"; grep -E "FAILED|panicked" $L/ops-gemm.log | head -8
$B/benches/gemm_sweep --list --seed 589266001 --precisions f32 > $L/cases.csv
timeout 40 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 150 $B/benches/gemm_sweep --precisions f32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-f32.csv > $L/sweep-f32.log 2>&1; el "sweep f32 rc=$?"; grep -E "^f32|^  [a-z]" $L/sweep-f32.log | head -12
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
SEC="--section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis"
timeout 60 $NCU $SEC -k regex:gemm_ -c 3 $B/benches/gemm_plans --precisions f32 --layouts tn --shapes 322x4203x12 > $L/ncu-k12.txt 2>&1; el "ncu k12 rc=$?"
timeout 60 $NCU $SEC -k regex:coldot -c 2 $B/benches/gemm_plans --precisions f32 --layouts nn --shapes 1x4096x4096 > $L/ncu-coldot.txt 2>&1; el "ncu coldot rc=$?"
tar czf $OUT/logs.tgz -C /tmp logs

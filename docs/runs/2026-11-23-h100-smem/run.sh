#!/usr/bin/env bash
# The shared-memory tiles with op(A)'s rows swizzled (aligned, read four at a time) and op(B)'s
# padded: ops tests and the sweep against PyTorch in one call.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xzf .gpu/r1.tgz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
timeout 200 $B/tests/ops-test > $L/test-ops.log 2>&1; el "ops rc=$?"; grep -E "^test result" $L/test-ops.log | tail -1; grep -E "FAILED|panicked" $L/test-ops.log | head -8
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"
tail -22 $L/sweep.log | grep -v "^  "
tar czf $OUT/logs.tgz -C /tmp logs

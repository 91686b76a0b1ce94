#!/usr/bin/env bash
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xzf .gpu/r1.tgz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/tests/ops-test > $L/test-ops.log 2>&1; el "ops rc=$?"; grep -E "^test result" $L/test-ops.log | tail -1; grep -E "FAILED|panicked" $L/test-ops.log | head -5
timeout 60 $B/tests/nn-test > $L/test-nn.log 2>&1; el "nn rc=$?"; grep -E "^test result" $L/test-nn.log | tail -1
$B/benches/gemm_sweep --list --seed 589266001 | grep -v "^f32,\|^tf32," > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 120 $B/benches/gemm_sweep --precisions bf16 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"
tail -9 $L/sweep.log
tar czf $OUT/logs.tgz -C /tmp logs

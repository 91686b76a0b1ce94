#!/usr/bin/env bash
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xzf .gpu/r1.tgz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
timeout 200 $B/tests/ops-test > $L/test-ops.log 2>&1; el "ops rc=$?"; grep -E "^test result" $L/test-ops.log; grep -E "FAILED|failed|panicked" $L/test-ops.log | head -20
timeout 300 $B/benches/gemm_plans --precisions tf32,bf16 --layouts nn,nt,tn,tt > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"; tail -3 $L/plans.err; grep mismatch $L/plans.csv | head
$B/benches/gemm_sweep --list --seed 589266001 | grep -v "^f32," > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 180 $B/benches/gemm_sweep --precisions tf32,bf16 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"
tail -22 $L/sweep.log
cp $L/plans.csv $OUT/ ; tar czf $OUT/logs.tgz -C /tmp logs

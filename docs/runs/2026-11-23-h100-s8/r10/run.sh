#!/usr/bin/env bash
# Session 8, call 10 (HEAD): BF16 Auto with the 128×208 tile only where it saves columns: the
# BF16 GEMM tests and the BF16 sweep (seed 589266001) against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r10.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 60 $B/tests/ops-test gemm_bf16 > $L/ops-bf16.log 2>&1; el "ops gemm_bf16 rc=$? $(grep '^test result' $L/ops-bf16.log)"; grep -E "FAILED|panicked" $L/ops-bf16.log | head -5
$B/benches/gemm_sweep --list --seed 589266001 --precisions bf16 > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 90 $B/benches/gemm_sweep --seed 589266001 --precisions bf16 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^bf16|^  [a-z]|^RESULT" $L/sweep.log | tail -8
tar czf $OUT/logs.tgz -C /tmp logs

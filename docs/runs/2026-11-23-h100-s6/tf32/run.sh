#!/usr/bin/env bash
# Session 6, call 9 (HEAD): Tf32Auto takes the FP32 plan for staged products under 0.1 GFLOP.
# The precision tests (the wider gradient check), the GEMM tests, and the TF32 sweep against
# cuBLAS (same seed).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r9.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 60 $B/tests/nn-test precision --nocapture > $L/precision-tests.log 2>&1; el "precision rc=$? $(grep '^test result' $L/precision-tests.log)"; grep -E "gradient check|FAILED|panicked" $L/precision-tests.log | head -8
timeout 60 $B/tests/ops-test gemm > $L/ops-gemm.log 2>&1; el "ops gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"; grep -E "FAILED|panicked" $L/ops-gemm.log | head -5
$B/benches/gemm_sweep --list --seed 589266001 --precisions tf32 > $L/cases.csv
timeout 40 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 80 $B/benches/gemm_sweep --precisions tf32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-tf32.csv > $L/sweep-tf32.log 2>&1; el "sweep tf32 rc=$?"; grep -E "^tf32|^RESULT" $L/sweep-tf32.log
tar czf $OUT/logs.tgz -C /tmp logs

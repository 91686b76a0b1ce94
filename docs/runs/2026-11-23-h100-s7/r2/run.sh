#!/usr/bin/env bash
# Session 7, call 2: the 64×64 wgmma tiles with the split race fixed (a barrier before the
# epilogue) and the BF16/TF32 constants refitted on call 1 and the third pass's plans: the GEMM
# and precision tests, then the TF32 and BF16 sweep (same seed as before) against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r2.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $B/tests/ops-test gemm > $L/ops-gemm.log 2>&1; el "ops gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"; grep -E "FAILED|panicked" $L/ops-gemm.log | head -8
timeout 60 $B/tests/nn-test precision > $L/precision-tests.log 2>&1; el "precision rc=$? $(grep '^test result' $L/precision-tests.log)"
$B/benches/gemm_sweep --list --seed 589266001 --precisions tf32,bf16 > $L/cases.csv
timeout 80 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 150 $B/benches/gemm_sweep --precisions tf32,bf16 --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^tf32|^bf16|^RESULT" $L/sweep.log
tar czf $OUT/logs.tgz -C /tmp logs

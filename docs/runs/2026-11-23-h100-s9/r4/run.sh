#!/usr/bin/env bash
# Session 9, call r4 (HEAD: the 128x208 tile's constants kept, the 64x64 workspace split at its
# cluster split's cost): the BF16 GEMM tests, the BF16 sweep (seed 589266001) and the second
# random group (seed 20261124) against PyTorch in this call. FP32 and TF32 plans are as in r3.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r4.txz -C /tmp/b && B=/tmp/b/r4
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 90 $B/tests/ops-test gemm_bf16 > $L/ops-bf16.log 2>&1; el "ops gemm_bf16 rc=$? $(grep '^test result' $L/ops-bf16.log)"; grep -E "FAILED|panicked" $L/ops-bf16.log | head -5
$B/benches/gemm_sweep --list --seed 589266001 --precisions bf16 > $L/cases.csv
timeout 80 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 120 $B/benches/gemm_sweep --seed 589266001 --precisions bf16 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^bf16|^  [a-z]|^RESULT" $L/sweep.log | tail -8
$B/benches/gemm_sweep --list --groups random --seed 20261124 > $L/cases-r2.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-r2.csv > $L/torch-r2.csv 2> $L/torch-r2-err.log; el "torch r2 rc=$?"
timeout 80 $B/benches/gemm_sweep --groups random --seed 20261124 --torch $L/torch-r2.csv --csv $L/sweep-r2.csv > $L/sweep-r2.log 2>&1; el "sweep r2 rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-r2.log
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 10, call r2 (HEAD, same bundle as r1): the full sweep (all precisions, seed 589266001)
# and a second random group (seed 20261124: shapes no rule was fitted on), both against
# PyTorch in this call.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r1.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 170 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 220 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
$B/benches/gemm_sweep --list --groups random --seed 20261124 > $L/cases-r2.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-r2.csv > $L/torch-r2.csv 2> $L/torch-r2-err.log; el "torch r2 rc=$?"
timeout 80 $B/benches/gemm_sweep --groups random --seed 20261124 --torch $L/torch-r2.csv --csv $L/sweep-r2.csv > $L/sweep-r2.log 2>&1; el "sweep r2 rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-r2.log
tar czf $OUT/logs.tgz -C /tmp logs

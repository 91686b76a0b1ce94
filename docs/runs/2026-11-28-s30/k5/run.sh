#!/usr/bin/env bash
# Session 30, call k5 (bundle k4, code of 9f4dd9e), on an H200: the sweep (all three precisions)
# beside PyTorch at session 27's seed; every FP32 plan of the few-row MLP products FP32 is
# closest to 0.70 on.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/k4.txz -C /tmp/b; B=/tmp/b/k4
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 80 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
timeout 90 $B/benches/gemm_plans --precisions f32 --layouts nn,nt --shapes 64x1024x1024,64x1024x784,32x1024x1024,128x1024x1024 > $L/plans-f32.csv 2> $L/plans-f32-err.log; el "f32 plans rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

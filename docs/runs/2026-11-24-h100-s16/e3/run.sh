#!/usr/bin/env bash
# Session 16, call e3: which cuBLAS kernels PyTorch runs on every sweep case (tile shapes, split-K,
# clusters), to see how it reaches the shapes where ours trail.
set -u
export PYTHONUNBUFFERED=1
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
cp docs/runs/2026-11-24-h100-s16/e3/cases.csv $L/
timeout 400 python3 benches/torch/cublas_kernels.py $L/cases.csv > $L/kernels.csv 2> $L/kernels.err; echo "rc=$?"
tail -2 $L/kernels.err; wc -l $L/kernels.csv
tar czf $OUT/logs.tgz -C /tmp logs

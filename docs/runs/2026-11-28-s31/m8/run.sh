#!/usr/bin/env bash
# Session 31, call m8 (bundle m7, b49b336): the MLP training step (784-1024-1024-10, ReLU, SGD,
# f32, CUDA graph) beside PyTorch's CUDA-graph step and eager forward, at batches 64-4096.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/m7.txz -C /tmp/b; B=/tmp/b/m7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 90 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 6, call 10 (HEAD): the mixed-precision steps and inference against PyTorch AMP graphs
# after Tf32Auto's rule for small staged products (the 10-wide layer's weight gradient).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r10.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
MLP_BENCH=amp timeout 45 $B/benches/mlp --bench > $L/amp-ours.csv 2> $L/amp-ours.err; el "our amp bench rc=$?"
timeout 45 python3 benches/torch/mlp_amp.py > $L/amp-torch.csv 2> $L/amp-torch.err; el "torch amp rc=$?"
python3 benches/torch/mlp_amp.py --ours $L/amp-ours.csv --theirs $L/amp-torch.csv > $L/amp-compare.txt 2>&1; grep -E "train_step|_graph .*tf32|smallest" $L/amp-compare.txt
tar czf $OUT/logs.tgz -C /tmp logs

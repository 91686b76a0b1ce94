#!/usr/bin/env bash
# Session 14, call e9: every BF16 plan (every tile kernel at every split count, the swapped
# 128x256 tile included, and Auto) on gemm_plans' 30 default shapes and six more MLP products,
# in three layouts: the data the BF16 constants are refitted to after the edge-tile change.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e8s14.txz -C /tmp/b
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 400 /tmp/b/e8s14/gemm_plans --precisions bf16 --layouts nn,nt,tn > $L/plans-default.csv 2> $L/plans-default.err; el "default rc=$?"
SH=4096x784x4096,512x784x4096,2048x784x1024,4096x784x2048,2048x784x4096,128x1024x1024,64x4096x4096,1536x1536x1536,5000x5000x5000
timeout 150 /tmp/b/e8s14/gemm_plans --precisions bf16 --layouts nn,nt,tn --shapes $SH > $L/plans-mlp.csv 2> $L/plans-mlp.err; el "mlp rc=$?"
wc -l $L/*.csv
tar czf $OUT/logs.tgz -C /tmp logs

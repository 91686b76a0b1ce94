#!/usr/bin/env bash
# Session 6, call 5: every FP32 plan on the shapes whose Auto pick changed between calls 3 and
# 4 (the refit), to refit the FP32 cost model on them too.
set -u
mkdir -p /tmp/b && tar xJf .gpu/r5.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=4096x784x128,4096x784x256,4096x784x512,2048x784x1024,2048x784x4096,1024x1024x10,256x4096x10,48x3000x7000,1024x784x64,1024x784x32,768x768x768,1024x32x16384,10x4096x2048,6x6898x548,640x640x640,4096x784x4096
timeout 240 $B/benches/gemm_plans --precisions f32 --layouts nn,nt,tn --shapes $S > $L/plans-changed.csv 2> $L/plans-changed.err; el "gemm_plans rc=$? $(wc -l < $L/plans-changed.csv) rows"
tar czf $OUT/logs.tgz -C /tmp logs

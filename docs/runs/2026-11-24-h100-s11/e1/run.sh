#!/usr/bin/env bash
# Session 11, experiment 1: FP32 on TF32 with each slice's wgmma sum added in f32 registers
# (128x128 and 64x64 tiles): accuracy against the f64 reference beside the CUDA-core kernels,
# the unpromoted x3 kernel, TF32 and cuBLAS SGEMM; times beside Auto.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e1.txz -C /tmp/e && E=/tmp/e/e1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/ops x3probe > $L/probe.log 2>&1; el "probe rc=$?"; grep -o "X3PROBE.*" $L/probe.log | sed 's/ /\n   /g'
timeout 60 python3 $E/x3probe.py > $L/torchprobe.log 2>&1; el "torch probe rc=$?"; cat $L/torchprobe.log
timeout 100 $E/ops "Tf32x3" > $L/x3tests.log 2>&1; el "x3 tests rc=$? $(grep -E '^test result' $L/x3tests.log)"; grep -E "FAILED|failed|panicked" $L/x3tests.log | head -5
S=4096x1024x784,4096x784x1024,1024x784x4096,4096x1024x1024,1024x1024x4096,1024x1024x784,1024x784x1024,256x1024x784,2048x2048x2048,4096x4096x4096,1000x1000x1000,3000x2000x1500
timeout 240 $E/gemm_plans --precisions f32 --layouts nn,nt,tn --shapes $S --plans Auto,Tf32x3Wgmma,Tf32x3Wgmma128x128,Tf32x3Wgmma64x64 > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 10, experiment 7: width-16 narrow products of 0.1-4 M elements of the wide operand
# (where the rule's 2^21 threshold sits), every split of the narrow kernels beside Auto.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e7.txz -C /tmp/e && E=/tmp/e/e7
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=10x4096x256,10x1024x1024,10x1024x256,10x4096x128,10x1024x512,10x784x1024,10x784x512,16x2048x512,10x4096x512,12x3000x300,10x8192x128,16x1024x2048,10x512x2048
timeout 200 $E/gemm_plans --precisions f32 --layouts nn,tn --shapes $S --plans Auto,NarrowMn > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
tar czf $OUT/logs.tgz -C /tmp logs

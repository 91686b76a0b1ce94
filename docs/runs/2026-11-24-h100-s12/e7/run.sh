#!/usr/bin/env bash
# Session 12, experiment 7 (an experiment-only build, not in the repository): the 64×64 `wgmma`
# tile with 12 stages and the 64×128 one with 8 (one block per multiprocessor, twice the bytes
# in flight per block), every split, on latency-bound and few-row products; compare e1 (6 and 4
# stages).
set -u
mkdir -p /tmp/e && tar xJf .gpu/e7.txz -C /tmp/e && E=/tmp/e/e7
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=64x1024x1024,256x1024x1024,32x4096x784,128x1024x784,32x4096x4096,16x4096x4096,64x4096x4096,1024x32x16384,512x1024x1024,1536x1536x1536,1024x784x4096
timeout 400 $E/gemm_plans --precisions bf16 --layouts nt,nn --shapes $S --plans Auto,Wgmma64x64,Wgmma64x128 > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
timeout 150 $E/gemm_plans --precisions tf32 --layouts nt --shapes $S --plans Auto,Tf32Wgmma64x64,Tf32Wgmma64x128 > $L/plans-tf32.csv 2> $L/plans-tf32.err; el "plans tf32 rc=$? $(wc -l < $L/plans-tf32.csv) $(grep -c mismatch $L/plans-tf32.csv)"
tar czf $OUT/logs.tgz -C /tmp logs

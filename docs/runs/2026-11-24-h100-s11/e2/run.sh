#!/usr/bin/env bash
# Session 11, experiment 2: BF16 and TF32 `wgmma` on 128x128 tiles of two consumers: their GPU
# tests (memcheck included), and every split of the 128x256, 128x128 and 64x128 tiles beside
# `Auto` on 14 mid-sized and large products (the data to fit the new tile's constants).
set -u
mkdir -p /tmp/e && tar xJf .gpu/e2.txz -C /tmp/e && E=/tmp/e/e2
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 100 $E/ops "Wgmma128x128" > $L/tests.log 2>&1; el "tests rc=$? $(grep -E '^test result' $L/tests.log)"; grep -E "FAILED|panicked" $L/tests.log | head -5
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 120 $CS --tool memcheck $E/ops "Wgmma128x128::ta" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
S=1536x1536x1536,3000x3000x3000,2048x2048x2048,1024x1024x1024,4096x784x4096,1024x784x4096,2048x4096x1024,5000x5000x5000,768x768x768,2000x3000x1500,4096x4096x1024,1024x4096x4096,512x4096x4096,256x1024x4096
timeout 200 $E/gemm_plans --precisions bf16 --layouts nn,nt --shapes $S --plans Auto,Wgmma,Wgmma128x128,Wgmma64x128,Wgmma128x208 > $L/plans-bf16.csv 2> $L/plans-bf16.err; el "plans bf16 rc=$? $(wc -l < $L/plans-bf16.csv) $(grep -c mismatch $L/plans-bf16.csv)"
timeout 200 $E/gemm_plans --precisions tf32 --layouts nn,nt --shapes $S --plans Auto,Tf32Wgmma,Tf32Wgmma128x128,Tf32Wgmma64x128,Tf32Wgmma128x208 > $L/plans-tf32.csv 2> $L/plans-tf32.err; el "plans tf32 rc=$? $(wc -l < $L/plans-tf32.csv) $(grep -c mismatch $L/plans-tf32.csv)"
tar czf $OUT/logs.tgz -C /tmp logs

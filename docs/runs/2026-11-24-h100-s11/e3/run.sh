#!/usr/bin/env bash
# Session 11, experiment 3: stream-K `wgmma` kernels (BF16 128x256 in four layouts, TF32 128x256
# K-major, FP32 on TF32 128x128): their GPU tests and memcheck, and their times beside the
# tiles' every split and `Auto` on mid-sized and large products in three precisions.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e3.txz -C /tmp/e && E=/tmp/e/e3
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 100 $E/ops "stream_k" > $L/tests-sk.log 2>&1; el "stream_k tests rc=$? $(grep -E '^test result' $L/tests-sk.log)"; grep -E "FAILED|panicked|differs|mismatch" $L/tests-sk.log | head -8
timeout 100 $E/ops "StreamK" > $L/tests.log 2>&1; el "StreamK tests rc=$? $(grep -E '^test result' $L/tests.log)"; grep -E "FAILED|panicked" $L/tests.log | head -8
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $E/ops "stream_k" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
S=1536x1536x1536,3000x3000x3000,2048x2048x2048,1024x1024x1024,4096x784x4096,1024x784x4096,2048x4096x1024,5000x5000x5000,768x768x768,2000x3000x1500,4096x4096x1024,512x4096x4096,256x1024x4096,4096x4096x4096,4096x1024x1024,1024x1024x4096
timeout 150 $E/gemm_plans --precisions bf16 --layouts nn,nt --shapes $S --plans Auto,Wgmma,WgmmaStreamK,Wgmma64x128,Wgmma128x208 > $L/plans-bf16.csv 2> $L/plans-bf16.err; el "plans bf16 rc=$? $(wc -l < $L/plans-bf16.csv) $(grep -c mismatch $L/plans-bf16.csv)"
timeout 150 $E/gemm_plans --precisions tf32 --layouts nt --shapes $S --plans Auto,Tf32Wgmma,Tf32WgmmaStreamK,Tf32Wgmma64x128,Tf32Wgmma128x208 > $L/plans-tf32.csv 2> $L/plans-tf32.err; el "plans tf32 rc=$? $(wc -l < $L/plans-tf32.csv) $(grep -c mismatch $L/plans-tf32.csv)"
timeout 150 $E/gemm_plans --precisions f32 --layouts nn --shapes $S --plans Auto,Tf32x3Wgmma128x128,Tf32x3StreamK > $L/plans-f32.csv 2> $L/plans-f32.err; el "plans f32 rc=$? $(wc -l < $L/plans-f32.csv) $(grep -c mismatch $L/plans-f32.csv)"
tar czf $OUT/logs.tgz -C /tmp logs

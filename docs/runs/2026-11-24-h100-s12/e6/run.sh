#!/usr/bin/env bash
# Session 12, experiment 6: the short-k kernel with every staging load issued before any is used
# (bf16 widened after the guard): tests and memcheck (short-k and the bf16 shared-memory tiles,
# which read through the same loads), and the k ≤ 32 plans in three layouts, f32 and bf16.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e6.txz -C /tmp/e && E=/tmp/e/e6
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/ops "ShortK|SmemTiled|gemm_bf16::Auto" > $L/tests.log 2>&1; el "tests rc=$? $(grep -E '^test result' $L/tests.log)"; grep -E "FAILED|panicked|mismatch|differs" $L/tests.log | head -12
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $E/ops "ShortK::ta1" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
S=4096x4096x10,2048x4096x10,1024x4096x10,4096x1024x10,1024x1024x10,512x1024x10,256x4096x10,64x1024x10,128x4096x10,256x1024x10,64x4096x10,4096x4096x16,1024x1024x16,4096x784x32,1024x1024x32,322x4203x12,4670x94x6,797x346x9,6308x37x20,2236x588x4,512x512x8,8192x8192x16
timeout 300 $E/gemm_plans --precisions f32,bf16 --layouts nn,tn,tt --shapes $S --plans ShortK,Auto,Tile64Fine,Tile64,SmemTiled,Pipelined,MmaTile64,MmaLdmatrix,Wgmma64x64,Wgmma64x128,Wgmma > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
tar czf $OUT/logs.tgz -C /tmp logs

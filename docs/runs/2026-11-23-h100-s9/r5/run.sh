#!/usr/bin/env bash
# Session 9, call r5 (HEAD: review fixes, no change of plan: the TF32 wgmma tile from
# GemmKernel::wgmma_tile, one transposing-tile query for the 128x208 tile's special case,
# launch attributes on the stack, the epilogue's quads per row computed once): the GEMM tests,
# memcheck on the wgmma splits, and every 64-row plan on three products against r4's build
# (the same kernels and rules).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r5.txz -C /tmp/b && B=/tmp/b/r5
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/tests/ops-test gemm > $L/ops-gemm.log 2>&1; el "ops gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"; grep -E "FAILED|panicked" $L/ops-gemm.log | head -5
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 100 $CS --tool memcheck $B/tests/ops-test "Wgmma64x64::split" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
timeout 100 $CS --tool memcheck $B/tests/ops-test "Wgmma128x208::split" > $L/memcheck-208.log 2>&1; el "memcheck 208 rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-208.log | tr '\n' ' ')"
S=64x64x16384,32x1024x16384,384x384x384
timeout 90 $B/benches/gemm_plans --precisions bf16,tf32 --layouts nn,nt --shapes $S --plans Auto,Tf32Auto,Wgmma64x64,Tf32Wgmma64x64 > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv)"
tar czf $OUT/logs.tgz -C /tmp logs

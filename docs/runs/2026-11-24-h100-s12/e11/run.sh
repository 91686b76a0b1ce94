#!/usr/bin/env bash
# Session 12, experiment 11: the shared-memory tiles with op(A) rows swizzled (16-byte loads
# along k) and op(B) rows padded, each operand read along its contiguous direction: tests,
# memcheck, and the products Auto sends to them, in four layouts.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e11.txz -C /tmp/e && E=/tmp/e/e11
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/ops "Smem" > $L/tests.log 2>&1; el "tests rc=$? $(grep -E '^test result' $L/tests.log)"; grep -E "FAILED|panicked|mismatch|differs" $L/tests.log | head -12
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $E/ops "Smem" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
timeout 250 $E/gemm_plans --precisions f32,bf16 --layouts nn,nt,tn,tt --shapes 128x128x128,64x1024x10,326x6x8,6308x37x20,441x43x287,189x16x832,32x271x669,733x33x232,100x100x100 --plans Auto,SmemTiled,Tile64Fine,Tile64 > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
grep -E "SmemTiled|Auto" $L/plans.csv | awk -F, '{print $1,$2,$3,$4,$5,$6,$8}'
tar czf $OUT/logs.tgz -C /tmp logs

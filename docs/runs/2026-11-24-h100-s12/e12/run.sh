#!/usr/bin/env bash
# Session 12, experiment 12: the warp-per-column kernel with 32 bytes of W per lane and pass
# for bf16 too, and four element loads per lane and pass when rows are not 16-byte aligned:
# tests, memcheck, and its products in f32 and bf16.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e12.txz -C /tmp/e && E=/tmp/e/e12
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/ops "WarpDot" > $L/tests.log 2>&1; el "tests rc=$? $(grep -E '^test result' $L/tests.log)"; grep -E "FAILED|panicked|mismatch|differs" $L/tests.log | head -12
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $E/ops "WarpDot" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
timeout 200 $E/gemm_plans --precisions f32,bf16 --layouts nt --shapes 1x5099x6665,1x4096x4096,4x4096x4096,3x8192x8192,2x1024x4096,1x165x7552,4x7337x2921,1x1000x1001 --plans Auto,WarpDot > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
cat $L/plans.csv | awk -F, '{print $1,$3,$4,$5,$6,$8}'
tar czf $OUT/logs.tgz -C /tmp logs

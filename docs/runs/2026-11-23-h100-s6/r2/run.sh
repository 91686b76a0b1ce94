#!/usr/bin/env bash
# Session 6, call 2: the new 4x4-per-thread 64x64 tile (`Tile64Fine`, gemm_tile64_fine_f32):
# its tests in every layout (split-K, guarded loop, epilogue) and under memcheck, then every
# FP32 plan timed on gemm_plans' 30 default shapes and call 1's 21 small ones, in all four
# layouts, to fit the cost model (benches/fit/plan_fit.py --search).
set -u
mkdir -p /tmp/b && tar xJf .gpu/r2.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $B/tests/ops-test Tile64Fine > $L/ops-fine.log 2>&1; el "ops Tile64Fine rc=$? $(grep '^test result' $L/ops-fine.log)"; grep -E "FAILED|panicked" $L/ops-fine.log | head -8
CS=/usr/local/cuda/bin/compute-sanitizer
KERNELS_TEST_SCALE=sanitize timeout 100 $CS --tool memcheck --error-exitcode 99 $B/tests/ops-test --test-threads 1 Tile64Fine > $L/san-fine-memcheck.log 2>&1; el "memcheck Tile64Fine rc=$? $(grep -h SUMMARY $L/san-fine-memcheck.log | tail -1) | $(grep '^test result' $L/san-fine-memcheck.log)"
S=189x16x832,441x43x287,32x271x669,733x33x232,2x1804x379,64x64x16384,6x6898x548,801x134x687,10x4096x4096,322x4203x12,128x128x128,1024x1024x128,32x1024x1024,1024x784x128,64x784x1024,256x256x256,1024x784x512,128x4096x10,188x2323x3,4670x94x6,512x512x512
timeout 150 $B/benches/gemm_plans --precisions f32 --layouts nn,nt,tn,tt --shapes $S > $L/plans-small.csv 2> $L/plans-small.err; el "gemm_plans small rc=$? $(wc -l < $L/plans-small.csv) rows"; tail -1 $L/plans-small.err
timeout 200 $B/benches/gemm_plans --precisions f32 --layouts nn,nt,tn,tt > $L/plans-default.csv 2> $L/plans-default.err; el "gemm_plans default rc=$? $(wc -l < $L/plans-default.csv) rows"; tail -1 $L/plans-default.err
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 5, call 3: ColDot over up to 16 rows (row groups of four) tested in every layout it
# takes and under compute-sanitizer; racecheck over part of the Pipelined tests (call 2's full
# racecheck ran past its 90 s); every FP32 plan (tiles, RowDot, ColDot, Auto) timed on few-row
# and few-column shapes, to set the rules for the MLP's 10-wide layer at batch 4096.
set -u
mkdir -p /tmp/b && tar xJf .gpu/r3.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
for f in ColDot Pipelined gemm::Auto plan_errors; do
  timeout 120 $B/tests/ops-test $f > $L/ops-$f.log 2>&1; el "ops $f rc=$? $(grep '^test result' $L/ops-$f.log)"; grep -E "FAILED|panicked" $L/ops-$f.log | head -5
done
CS=/usr/local/cuda/bin/compute-sanitizer
export KERNELS_TEST_SCALE=sanitize
timeout 100 $CS --tool memcheck --error-exitcode 99 $B/tests/ops-test --test-threads 1 ColDot > $L/san-coldot-memcheck.log 2>&1; el "memcheck ColDot rc=$? $(grep -h SUMMARY $L/san-coldot-memcheck.log | tail -1) | $(grep '^test result' $L/san-coldot-memcheck.log)"
timeout 100 $CS --tool racecheck --error-exitcode 99 $B/tests/ops-test --test-threads 1 ColDot > $L/san-coldot-racecheck.log 2>&1; el "racecheck ColDot rc=$? $(grep -h SUMMARY $L/san-coldot-racecheck.log | tail -1) | $(grep '^test result' $L/san-coldot-racecheck.log)"
timeout 150 $CS --tool racecheck --error-exitcode 99 $B/tests/ops-test --test-threads 1 gemm::Pipelined::split > $L/san-pipe-racecheck.log 2>&1; el "racecheck Pipelined::split rc=$? $(grep -h SUMMARY $L/san-pipe-racecheck.log | tail -1) | $(grep '^test result' $L/san-pipe-racecheck.log)"
unset KERNELS_TEST_SCALE
S=10x1024x4096,10x784x4096,16x4096x4096,8x1024x1024,12x2048x512,6x4096x1024,16x1024x16384,4096x10x1024,8192x10x1024,4096x16x4096,4096x10x4096,3000x12x2000,2048x10x1024
timeout 200 $B/benches/gemm_plans --precisions f32 --layouts nn,tn,nt --shapes $S > $L/plans-few.csv 2> $L/plans-few.err; el "gemm_plans rc=$?"
tar czf $OUT/logs.tgz -C /tmp logs

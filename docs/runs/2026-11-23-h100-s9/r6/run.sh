#!/usr/bin/env bash
# Session 9, call r6 (review: the cluster split's two in-order sums through one helper, the
# tile index computed once; no change of plan): the GEMM tests, memcheck on the wgmma splits,
# and the cluster-split plans (2-8 splits and 16-64 in groups) with r5's build and this one,
# twice each, in this call.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r6.txz -C /tmp/b && B=/tmp/b/r6
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/tests/ops-test gemm > $L/ops-gemm.log 2>&1; el "ops gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"; grep -E "FAILED|panicked" $L/ops-gemm.log | head -5
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 100 $CS --tool memcheck $B/tests/ops-test "Wgmma64x64::split" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
timeout 100 $CS --tool memcheck $B/tests/ops-test "Wgmma::split" > $L/memcheck-wide.log 2>&1; el "memcheck wide rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-wide.log | tr '\n' ' ')"
S=64x64x16384,32x1024x16384,128x1024x1024,256x784x4096
for r in 1 2; do for v in old new; do
  timeout 120 $B/$v/gemm_plans --precisions bf16,tf32 --layouts nt --shapes $S --plans Auto,Wgmma64x64,Tf32Wgmma64x64 > $L/plans-$v-$r.csv 2> $L/plans-$v-$r.err; el "$v $r rc=$? $(wc -l < $L/plans-$v-$r.csv)"
done; done
tar czf $OUT/logs.tgz -C /tmp logs

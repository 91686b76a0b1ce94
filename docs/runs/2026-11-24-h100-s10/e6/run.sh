#!/usr/bin/env bash
# Session 10, call e6: the tests of what Auto runs on narrow and short-k products (every
# precision and layout), the narrow and short-k kernel tests again, under memcheck too.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e6.txz -C /tmp/e && E=/tmp/e/e6
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/ops routes > $L/ops-routes.log 2>&1; el "routes rc=$? $(grep '^test result' $L/ops-routes.log)"; grep -E "FAILED|panicked" $L/ops-routes.log | head -5
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 200 $CS --tool memcheck $E/ops routes > $L/memcheck-routes.log 2>&1; el "memcheck routes rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-routes.log | tr '\n' ' ')"
timeout 120 $E/ops gemm > $L/ops-gemm.log 2>&1; el "gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"; grep -E "FAILED|panicked" $L/ops-gemm.log | head -5
tar czf $OUT/logs.tgz -C /tmp logs

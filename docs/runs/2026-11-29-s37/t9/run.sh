#!/usr/bin/env bash
# Session 37, call t9 (bundle t9: scripts/gpu-bundle with ptxas of ef949ee, the final code,
# trimmed to the test binaries and gemm_plans/gemm_sweep): every test binary.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/t9.txz -C /tmp/b; B=/tmp/b/t9
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

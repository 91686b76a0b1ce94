#!/usr/bin/env bash
# Session 17, call v1 (HEAD a7e6fd8, the review commit: Bf16Kernel::is_wgmma): every op test.
set -u
mkdir -p /tmp/b && tar xJf .gpu/v1s17.txz -C /tmp/b && B=/tmp/b/v1s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 200 $B/ops-test > $L/tests-ops.log 2>&1; echo "ops rc=$? $(grep -E '^test result' $L/tests-ops.log)"
xz -9 $L/tests-ops.log
tar czf $OUT/logs.tgz -C /tmp logs

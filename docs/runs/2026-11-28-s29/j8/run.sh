#!/usr/bin/env bash
# Session 29, call j8 (bundle j8: the op test binary of the review commit: the multicast pair
# check in one place, Bf16Plan::multicast_fits): every op test.
set -u
mkdir -p /tmp/b && tar xJf .gpu/j8.txz -C /tmp/b; B=/tmp/b/j8
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops > $L/test-ops.log 2>&1; echo "rc=$?" >> $L/test-ops.log); el "ops: $(grep -E '^test result' $L/test-ops.log | tail -1) $(tail -1 $L/test-ops.log)"
grep -E "FAILED|panicked|failed:" $L/test-ops.log | head
xz -9 $L/test-ops.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

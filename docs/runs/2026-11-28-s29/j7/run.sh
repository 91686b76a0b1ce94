#!/usr/bin/env bash
# Session 29, call j7 (bundle j7: the nn test binary with the bf16-copy epilogue test extended to
# the multicast pair kernels): every nn test.
set -u
mkdir -p /tmp/b && tar xJf .gpu/j7.txz -C /tmp/b; B=/tmp/b/j7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/nn > $L/test-nn.log 2>&1; echo "rc=$?" >> $L/test-nn.log); el "nn: $(grep -E '^test result' $L/test-nn.log | tail -1) $(tail -1 $L/test-nn.log)"
grep -E "FAILED|panicked|failed:" $L/test-nn.log | head
xz -9 $L/test-nn.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

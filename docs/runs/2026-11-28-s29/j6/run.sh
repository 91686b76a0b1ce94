#!/usr/bin/env bash
# Session 29, call j6 (bundle j6: the op test binary of the final commit, 43d3cb2: j4's code with
# the refused BF16 plans' test helper): every op test.
set -u
mkdir -p /tmp/b && tar xJf .gpu/j6.txz -C /tmp/b; B=/tmp/b/j6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops > $L/test-ops.log 2>&1; echo "rc=$?" >> $L/test-ops.log); el "ops: $(grep -E '^test result' $L/test-ops.log | tail -1) $(tail -1 $L/test-ops.log)"
grep -E "FAILED|panicked|failed:" $L/test-ops.log | head
xz -9 $L/test-ops.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

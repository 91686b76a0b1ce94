#!/usr/bin/env bash
# Session 30, call k10 (bundle k10 = the op and nn test binaries of fb80232, the review commit:
# one macro for the BF16 kinds, rega_swaps): every op and nn test.
set -u
mkdir -p /tmp/b && tar xJf .gpu/k10.txz -C /tmp/b; B=/tmp/b/k10
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do
  (timeout 150 $B/$t > $L/$t-tests.log 2>&1; echo "$t rc=$?" >> $L/$t-tests.log)
  el "$(grep -E '^test result|rc=' $L/$t-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
  grep -E "FAILED|panicked" $L/$t-tests.log | head -5
  xz -9 $L/$t-tests.log
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

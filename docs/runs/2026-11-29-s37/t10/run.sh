#!/usr/bin/env bash
# Session 37, call t10 (bundle t10: the final code, where the two padded-row copies share one
# body): the op and nn tests.
set -u
mkdir -p /tmp/b && tar xJf .gpu/t10.txz -C /tmp/b; B=/tmp/b/t10
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do (timeout 200 $B/$t > $L/$t.log 2>&1; echo "$t rc=$?" >> $L/$t.log); el "$(grep -E '^test result|rc=' $L/$t.log | tr '\n' ' ')"; grep -E "FAILED|panicked" $L/$t.log | head; xz -9 $L/$t.log; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 41, call z3 (bundle z3: scripts/gpu-bundle with ptxas of 2e3977d, a refactor of z1's
# rules with identical picks): every test binary.
set -u
mkdir -p /tmp/b && tar xJf .gpu/z3.txz -C /tmp/b; B=/tmp/b/z3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 14, call r8 (the review refactor of r7, committed as the final state; r4's kernels and plans, the
# producer and host helpers merged): every test binary.
set -u
mkdir -p /tmp/b && tar xJf .gpu/r8s14.txz -C /tmp/b && B=/tmp/b/r8s14
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 250 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log)
grep -E '^== |^test result|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//'
tar czf $OUT/logs.tgz -C /tmp logs

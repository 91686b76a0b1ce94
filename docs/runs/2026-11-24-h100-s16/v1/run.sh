#!/usr/bin/env bash
# Session 16, call v1: the review commit (one flops() helper for the small-product rules; no
# behaviour change): every op test on the H100.
set -u
mkdir -p /tmp/b && tar xJf .gpu/v1s16.txz -C /tmp/b && B=/tmp/b/v1s16
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 250 $B/ops-test > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); grep -E "^test result|rc=" $L/ops.log
tar czf $OUT/logs.tgz -C /tmp logs

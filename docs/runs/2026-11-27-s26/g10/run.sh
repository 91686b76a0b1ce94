#!/usr/bin/env bash
# Session 26, call g10 (bundle g10 = the final commit bf93994, scripts/gpu-bundle): every test
# binary.
set -u
mkdir -p /tmp/b && tar xJf .gpu/g10.txz -C /tmp/b; B=/tmp/b/g10
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log)
grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//'
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)

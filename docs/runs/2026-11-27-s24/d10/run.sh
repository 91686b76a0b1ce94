#!/usr/bin/env bash
# Session 24, call d10 (bundle s10 = e4c9f77, the final commit; its kernels differ from d7's
# only by a doc comment): every test binary.
set -u
mkdir -p /tmp/b && tar xJf .gpu/s10.txz -C /tmp/b; B=/tmp/b/s10
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log)
grep -E '^test result: .* [1-9][0-9]* passed|FAILED|panicked|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//'
xz -9 $L/run-tests.log; (cd $L && tar czf $OUT/logs.tgz .)

#!/usr/bin/env bash
set -u
mkdir -p /tmp/b && tar xzf .gpu/r1.tgz -C /tmp/b && B=/tmp/b/b1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
(cd $B/.. && ./b1/run-tests > /tmp/run-tests.log 2>&1; echo "run-tests rc=$?" >> /tmp/run-tests.log)
grep -E "^(== |test result)" /tmp/run-tests.log | paste - - | awk '{print $2, $4, $5, $6, $7}'; tail -1 /tmp/run-tests.log
grep -E "FAILED|panicked" /tmp/run-tests.log | head
cp /tmp/run-tests.log $OUT/

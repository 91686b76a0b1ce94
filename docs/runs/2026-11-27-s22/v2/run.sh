#!/usr/bin/env bash
# Session 22, call v2 (bundle f2 = the final code: f2fb31e's kernels with the warp-per-column
# tests of ce0b0b0): the test binaries of the GPU suites (ops, nn, reliability, leaks, gpu,
# host-lib); the crates' CPU-only unit tests run in CI.
set -u
mkdir -p /tmp/b && tar xJf .gpu/f2t.txz -C /tmp/b; B=/tmp/b/f2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
st=0
for t in ops-test nn-test reliability-test leaks-test gpu-test host-lib; do
  echo "== $t" >> $OUT/tests.log; timeout 150 $B/tests/$t >> $OUT/tests.log 2>&1 || st=1
done
echo "rc=$st" >> $OUT/tests.log
grep -E "^== |^test result|rc=|FAILED" $OUT/tests.log

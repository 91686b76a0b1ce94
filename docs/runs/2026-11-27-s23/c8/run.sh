#!/usr/bin/env bash
# Session 23, call c8 (bundle f8 = ce43d0a + the warp-per-column kernel's two quad loops as one
# helper, quad_passes; gemm_plans_old = c5's build): every test binary; `Auto` of both builds on
# the warp-per-column products (aligned and odd k), A/B in one call, twice in alternation.
set -u
mkdir -p /tmp/b && tar xJf .gpu/f8.txz -C /tmp/b; B=/tmp/b/f8
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 240 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
WS=1x5099x6665,1x786x921,2x3001x4097,3x2049x1023,4x1000x777,1x4096x4095,1x4096x4096,4x8192x8192
for i in 1 2; do for v in new old; do
  P=$B/benches/gemm_plans; [ $v = old ] && P=$B/gemm_plans_old
  timeout 40 $P --precisions f32,bf16 --layouts nt,tt --shapes $WS --plans Auto > $L/plans-wd-$v-$i.csv 2>> $L/plans-err.log; el "plans wd $v $i rc=$?"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 41, call a2 (bundle a2: a1 with the grouped-rows test's split counts fixed): the
# grouped-rows tests; the three products whose Auto plan failed in a1 (illegal instruction), one
# process per kernel, and under compute-sanitizer.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/a2.txz -C /tmp/b; B=/tmp/b/a2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $B/tests/ops-test grouped_k_rows > $L/grouped-tests.log 2>&1; el "grouped tests rc=$? $(grep 'test result' $L/grouped-tests.log)"
grep -E "^---- |invalid|error|mismatch|max" $L/grouped-tests.log | head -30
for x in tn:10x4096x4096 tt:6609x12x2773 nn:169x1861x6669; do IFS=: read l s <<< "$x"
  for pl in Auto Tf32Wgmma64x128 Tf32Wgmma64x64 Tf32Wgmma; do
    timeout 60 $B/benches/gemm_plans --precisions tf32 --layouts $l --shapes $s --plans $pl 2>/dev/null | tail -n +2 | cut -c1-150 >> $L/plans.csv
  done
done; el "plans"; cat $L/plans.csv
timeout 120 compute-sanitizer --tool memcheck $B/benches/gemm_plans --precisions tf32 --layouts tn --shapes 10x4096x4096 --plans Auto > $L/san-tn.log 2>&1; el "san rc=$?"; head -40 $L/san-tn.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 30, call k7 (bundle k6, the final code f74537b): the new TF32 tn kernel
# (gemm_wgmma_tf32_mn_rega_64x128, run by Tf32WgmmaRegA on tn products up to k = 384) and the
# few-tile routes under compute-sanitizer's four tools, at KERNELS_TEST_SCALE=sanitize.
set -u
mkdir -p /tmp/b && tar xJf .gpu/k6.txz -C /tmp/b; B=/tmp/b/k6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
export KERNELS_TEST_SCALE=sanitize
for tool in memcheck racecheck synccheck initcheck; do
  for f in "gemm::Tf32WgmmaRegA::ta1_tb0::" "::few_tiles::"; do
    n=$(echo "$f" | tr -dc 'a-zA-Z0-9_')
    timeout 100 $CS --tool $tool --error-exitcode 9 $B/tests/ops-test "$f" --test-threads 8 > $L/$tool-$n.log 2>&1
    el "$tool $f rc=$? $(grep -E '^test result|ERROR SUMMARY|RACECHECK SUMMARY' $L/$tool-$n.log | tr '\n' ' ')"
  done
  (cd $L && tar czf $OUT/logs.tgz .)
done
el done

#!/usr/bin/env bash
# Session 30, call k9 (bundle k9 = the op tests of 437664d with launch_wgmma's programmatic
# stream serialization (`with_overlap`) switched off, a build for this experiment only): racecheck
# on the BF16 64x64 and 64x128 wgmma tests k8 ran, to see whether its hazards go with it.
set -u
mkdir -p /tmp/b && tar xJf .gpu/k9.txz -C /tmp/b; B=/tmp/b/k9
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
export KERNELS_TEST_SCALE=sanitize
for k in Wgmma64x64 Wgmma64x128; do
  timeout 55 $CS --tool racecheck $B/ops-nopdl "gemm_bf16::$k::ta0_tb0::136x72x264" > $L/racecheck-$k.log 2>&1
  el "$k rc=$? $(grep -E '^test result|RACECHECK SUMMARY|Race reported' $L/racecheck-$k.log | head -3 | tr '\n' ' ')"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

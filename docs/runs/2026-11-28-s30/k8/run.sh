#!/usr/bin/env bash
# Session 30, call k8 (bundle k6, the final code): racecheck on one shape of the BF16 64x64 and
# 64x32 wgmma kernels (k7 reported hazards in the 64x32 kernels), to tell whether every wgmma
# kernel reports them under this compute-sanitizer or only the 64x32 ones.
set -u
mkdir -p /tmp/b && tar xJf .gpu/k6.txz -C /tmp/b; B=/tmp/b/k6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
$CS --version | tail -1 | tee -a $L/gpu.txt
export KERNELS_TEST_SCALE=sanitize
for k in Wgmma64x64 Wgmma64x32 Wgmma64x128; do
  timeout 55 $CS --tool racecheck $B/tests/ops-test "gemm_bf16::$k::ta0_tb0::136x72x264" > $L/racecheck-$k.log 2>&1
  el "$k rc=$? $(grep -E '^test result|RACECHECK SUMMARY|Race reported' $L/racecheck-$k.log | head -3 | tr '\n' ' ')"
  (cd $L && tar czf $OUT/logs.tgz .)
done
el done

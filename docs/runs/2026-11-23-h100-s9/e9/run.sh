#!/usr/bin/env bash
# Session 9, experiment 9: every TMA copy with an L2 evict_last cache hint
# (createpolicy.fractional.L2::evict_last) against HEAD (c7c0df3), Auto on skinny products
# whose big operand fits in L2, and on large products where it may hurt.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e9.txz -C /tmp/e && E=/tmp/e/e9
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=1x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,4096x16x4096,32x1024x16384,1024x32x16384,64x64x16384,4096x4096x4096,4096x784x4096,2048x2048x2048,512x4096x4096,8192x8192x8192
for r in 1 2; do for v in head last; do
  timeout 150 $E/$v/gemm_plans --precisions bf16,tf32 --layouts nn,nt --shapes $S --plans Auto,Tf32Auto > $L/plans-$v-$r.csv 2> $L/plans-$v-$r.err; el "$v $r rc=$? $(wc -l < $L/plans-$v-$r.csv)"
done; done
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 9, experiment 3: the 64x64 wgmma tile with two consumer warpgroups that split each
# tile's k-slices between them (own accumulators, added in the epilogue), one block per SM,
# against HEAD's one-consumer tile (two blocks per SM). Tests of the 64x64 plans first.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e3.txz -C /tmp/e && E=/tmp/e/e3
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/tests/ops-test 64x64 > $L/ops-64x64.log 2>&1; el "ops 64x64 rc=$? $(grep '^test result' $L/ops-64x64.log)"; grep -E "FAILED|panicked" $L/ops-64x64.log | head -5
S=64x64x16384,32x4096x4096,32x1024x16384,128x1024x1024,256x1024x1024,384x384x384,512x512x512,1x4096x4096,256x784x4096,33x2000x5000,1024x1024x1024,4096x16x4096
T=64x64x16384,128x1024x1024,512x512x512,32x4096x4096,10x1024x4096,256x4096x4096
for v in base ks; do
  timeout 150 $E/$v/gemm_plans --precisions bf16 --layouts nn,nt --shapes $S --plans Wgmma64x64,Wgmma64x128 > $L/plans-bf16-$v.csv 2> $L/plans-bf16-$v.err; el "$v bf16 rc=$? $(wc -l < $L/plans-bf16-$v.csv)"
  timeout 90 $E/$v/gemm_plans --precisions tf32 --layouts nt --shapes $T --plans Tf32Wgmma64x64,Tf32Wgmma64x128 > $L/plans-tf32-$v.csv 2> $L/plans-tf32-$v.err; el "$v tf32 rc=$? $(wc -l < $L/plans-tf32-$v.csv)"
done
grep -h -i "fail\|mismatch" $L/plans-*.csv | head -5
tar czf $OUT/logs.tgz -C /tmp logs

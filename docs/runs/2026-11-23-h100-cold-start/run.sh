#!/usr/bin/env bash
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xzf .gpu/r1.tgz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
timeout 200 $B/tests/ops-test > $L/test-ops.log 2>&1; el "ops rc=$?"; grep -E "^test result" $L/test-ops.log; grep -E "FAILED|failed|panicked" $L/test-ops.log | head -20
timeout 100 $B/tests/nn-test > $L/test-nn.log 2>&1; el "nn rc=$?"; grep -E "^test result" $L/test-nn.log
RUNS=2 PTX_RUNS=1 timeout 300 $B/cold-start $B > $L/cold-start.log 2>&1; el "cold-start rc=$?"; cat $L/cold-start.log
S=25x2x6880,32x10x1024,64x10x1024,256x10x4096,512x10x4096,4096x10x1024,64x64x16384,673x159x57,189x16x832,6308x37x20,188x2323x3,797x346x9,10x4096x64,10x4096x4096,10x1024x128,256x1024x10,128x128x128,32x1024x1024,1x4096x4096,4x7337x2921,256x1024x1024,1024x1024x10,33x2000x5000
timeout 240 $B/benches/gemm_plans --precisions f32,tf32 --layouts nn,nt,tn,tt --shapes $S > $L/plans-f32.csv 2> $L/plans-f32.err; el "plans rc=$?"; tail -2 $L/plans-f32.err
cp $L/plans-f32.csv $OUT/ ; tar czf $OUT/logs.tgz -C /tmp logs

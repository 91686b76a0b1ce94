#!/usr/bin/env bash
# Session 9, experiment 8: the column kernel with all of C's rows (5 to 16) in one block row,
# B read once (gemm_coldot16_*), against the FP32 tiles Auto runs there. ColDot tests and
# memcheck first; then Auto and every ColDot split count, f32, on products of 5 to 16 rows.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e8.txz -C /tmp/e && E=/tmp/e/e8
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/tests/ops-test ColDot > $L/ops-coldot.log 2>&1; el "ops ColDot rc=$? $(grep '^test result' $L/ops-coldot.log)"; grep -E "FAILED|panicked" $L/ops-coldot.log | head -5
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $SAN --tool memcheck $E/tests/ops-test "ColDot" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test result' $L/memcheck.log | tr '\n' ' ')"
S=10x1024x256,10x1024x1024,10x1024x2048,10x1024x4096,10x4096x256,10x4096x512,10x4096x1024,6x6898x548,16x4096x4096,5x2000x3000,12x784x4096,16x1024x1024,8x8192x8192,1x4096x4096,4x7337x2921
timeout 200 $E/new/gemm_plans --precisions f32 --layouts tn,nn --shapes $S --plans Auto,ColDot > $L/plans-f32.csv 2> $L/plans-f32.err; el "f32 rc=$? $(wc -l < $L/plans-f32.csv)"
python3 - $S > $L/cases.csv <<'PY'
import sys
print("precision,layout,m,n,k")
for s in sys.argv[1].split(","):
    m, n, k = s.split("x")
    for p in ("f32", "tf32"):
        for l in ("tn", "nn"): print(f"{p},{l},{m},{n},{k}")
PY
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch.err; el "torch rc=$?"
tar czf $OUT/logs.tgz -C /tmp logs

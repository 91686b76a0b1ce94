#!/usr/bin/env bash
# Session 10, experiment 2: the narrow kernels compiled per width (4, 8, 16; branch-free inner
# loops): their GPU tests and memcheck, then every plan of them beside Auto, and PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e2.txz -C /tmp/e && E=/tmp/e/e2
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 200 $E/ops Narrow > $L/ops-narrow.log 2>&1; el "ops Narrow rc=$? $(grep '^test result' $L/ops-narrow.log)"; grep -E "FAILED|panicked|failed" $L/ops-narrow.log | head -8
timeout 60 $E/ops plan_errors > $L/ops-plan-errors.log 2>&1; el "plan_errors rc=$? $(grep '^test result' $L/ops-plan-errors.log)"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $SAN --tool memcheck $E/ops "Narrow::split3" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test result' $L/memcheck.log | tr '\n' ' ')"
S=1x4096x4096,8x8192x8192,16x4096x4096,4096x16x4096,10x4096x4096,10x1024x4096,10x4096x1024,1024x10x4096,4096x10x1024,6x6898x548,1x165x7552,2x1804x379,4x7337x2921,1x5099x6665,189x16x832,762x3x114,256x10x1024,10x784x1024,16x1024x16384,3x2000x300
timeout 170 $E/gemm_plans --precisions f32,bf16 --layouts nn,nt,tn,tt --shapes $S --plans Auto,NarrowMn,NarrowK > $L/plans-v0.csv 2> $L/plans-v0.err; el "plans rc=$? $(wc -l < $L/plans-v0.csv) $(grep -c mismatch $L/plans-v0.csv)"
python3 - $S > $L/cases.csv <<'PY'
import sys
print("precision,layout,m,n,k")
for s in sys.argv[1].split(","):
    m, n, k = s.split("x")
    for p in ("f32", "bf16"):
        for l in ("nn", "nt", "tn", "tt"): print(f"{p},{l},{m},{n},{k}")
PY
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch.err; el "torch rc=$?"
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 10, experiment 1: the narrow kernels (at most 16 rows or columns) against Auto, in
# three launch-bound / loads-in-flight variants, every split count; and PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e1.txz -C /tmp/e && E=/tmp/e/e1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=1x4096x4096,8x8192x8192,16x4096x4096,4096x16x4096,10x4096x4096,10x1024x4096,10x4096x1024,1024x10x4096,4096x10x1024,6x6898x548,1x165x7552,2x1804x379,4x7337x2921,1x5099x6665,189x16x832,762x3x114,256x10x1024,10x784x1024,16x1024x16384,3x2000x300
for v in 0 1 2; do
  NARROW_VARIANT=$v timeout 170 $E/gemm_plans --precisions f32,bf16 --layouts nn,nt,tn,tt --shapes $S --plans Auto,NarrowMn,NarrowK > $L/plans-v$v.csv 2> $L/plans-v$v.err; el "v$v rc=$? $(wc -l < $L/plans-v$v.csv) $(grep -c mismatch $L/plans-v$v.csv)"
done
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

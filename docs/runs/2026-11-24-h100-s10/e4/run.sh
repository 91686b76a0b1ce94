#!/usr/bin/env bash
# Session 10, experiment 4: every plan of the short-k and small square products that stay far
# behind PyTorch (r3), all layouts and precisions, and PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r3.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=4670x94x6,322x4203x12,188x2323x3,797x346x9,6308x37x20,128x128x128,256x256x256,384x384x384,2236x588x4
timeout 200 $B/benches/gemm_plans --precisions f32,tf32,bf16 --layouts nn,nt,tn,tt --shapes $S > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
python3 - $S > $L/cases.csv <<'PY'
import sys
print("precision,layout,m,n,k")
for s in sys.argv[1].split(","):
    m, n, k = s.split("x")
    for p in ("f32", "tf32", "bf16"):
        for l in ("nn", "nt", "tn", "tt"): print(f"{p},{l},{m},{n},{k}")
PY
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch.err; el "torch rc=$?"
tar czf $OUT/logs.tgz -C /tmp logs

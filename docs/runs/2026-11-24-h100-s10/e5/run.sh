#!/usr/bin/env bash
# Session 10, experiment 5: the short-k kernels (k ≤ 32) and the shared-memory tiles reading
# each operand along its contiguous direction: their GPU tests, then their plans beside Auto on
# the short-k and small products, and PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e5.txz -C /tmp/e && E=/tmp/e/e5
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for f in ShortK SmemTiled plan_errors; do timeout 100 $E/ops $f > $L/ops-$f.log 2>&1; el "ops $f rc=$? $(grep '^test result' $L/ops-$f.log)"; grep -E "FAILED|panicked" $L/ops-$f.log | head -5; done
S=4670x94x6,322x4203x12,188x2323x3,797x346x9,6308x37x20,2236x588x4,128x4096x10,512x1024x10,4096x1024x10,4096x4096x16,8192x4096x32,326x6x8,88x75x8,24x137x22,23x1482x2,5931x61x2,1652x264x31,128x128x128,1024x1024x10,256x1024x10
timeout 200 $E/gemm_plans --precisions f32,tf32,bf16 --layouts nn,nt,tn,tt --shapes $S --plans Auto,Tf32Auto,ShortK,SmemTiled,Tile64Fine,MmaTile64,Tf32Wgmma64x64 > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
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

#!/usr/bin/env bash
# Session 24, call d2 (bundle s2: d1 with the owner adding eight quads per pass; stream-K on the BF16 128x256 tile, `Bf16Kernel::WgmmaStreamK`,
# and `Auto` weighing it): the op tests; every wgmma plan of the BF16 mid-sized products below
# 0.70 in s23's sweep and of neighbours, with PyTorch on the same cases; the full sweep.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s2.txz -C /tmp/b; B=/tmp/b/s2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops gemm_bf16 > $L/ops.log 2>&1; echo "ops rc=$?" >> $L/ops.log); el "$(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"
grep -E "FAILED|panicked|failed" $L/ops.log | head -20
S=1536x1536x1536,3000x3000x3000,1024x1024x4096,512x1024x1024,512x784x4096,1024x784x2048,2048x2048x2048,2500x1800x3000,4096x4096x4096,5000x5000x5000,1280x1280x1280,1000x1000x1000,2000x3000x1500,768x3072x2048,3500x1200x2400,1024x1024x1024
timeout 200 $B/gemm_plans --precisions bf16 --layouts nn --shapes $S --plans Auto,WgmmaStreamK,Wgmma,WgmmaSwapped,Wgmma128x208,Wgmma64x128 > $L/plans.csv 2> $L/plans-err.log; el "plans rc=$?"
python3 - $S > $L/plan-cases.csv <<'PY'
import sys
print("precision,layout,m,n,k,group")
for s in sys.argv[1].split(","):
    m, n, k = s.split("x")
    for l in ("nn",):
        print(f"bf16,{l},{m},{n},{k},plans")
PY
timeout 60 python3 benches/torch/gemm_sweep.py $L/plan-cases.csv > $L/plan-torch.csv 2> $L/plan-torch-err.log; el "plan torch rc=$?"
python3 - $L/plans.csv $L/plan-torch.csv <<'PY'
import csv, sys, collections
t = {}
for r in csv.reader(l for l in open(sys.argv[2]) if not l.startswith("#")):
    if r[0] == "precision": continue
    t[tuple(r[:5])] = float(r[5])
best = collections.defaultdict(dict)
for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#") and "," in l):
    if not r.get("ms"): continue
    key = (r["precision"], r["layout"], r["m"], r["n"], r["k"])
    name = r["plan"] + ("" if r["splits"] in ("0", "1") else "/" + r["splits"])
    best[key][name] = float(r["ms"])
for key, plans in best.items():
    tm = t.get(key, float("nan"))
    auto = plans.get("Auto", float("nan")); sk = plans.get("WgmmaStreamK", float("nan"))
    others = [(v, k) for k, v in plans.items() if k not in ("Auto", "WgmmaStreamK")]
    other = min(others) if others else (float("nan"), "-")
    print(f"{'x'.join(key[2:])} {key[1]}: torch {tm*1e3:.1f} us | Auto {auto*1e3:.1f} ({tm/auto:.2f}) | SK {sk*1e3:.1f} ({tm/sk:.2f}) | best other {other[1]} {other[0]*1e3:.1f} ({tm/other[0]:.2f})")
PY
(cd $L && xz -9 ops.log && tar czf $OUT/logs.tgz .)
el done

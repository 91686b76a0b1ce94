#!/usr/bin/env bash
# Session 24, call d6 (bundle s5 = e031035's kernels): every plan of the store-bound short-k
# products and TF32 weight gradients still below 0.70 (BF16 and TF32, nn / nt / tn), beside
# PyTorch on the same cases: is any of them a plan problem?
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s5.txz -C /tmp/b; B=/tmp/b/s5
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=8192x8192x64,8192x4096x32,4096x4096x32,4096x784x32,16384x1024x128,1024x784x64,10x4096x256,1024x784x128
timeout 240 $B/gemm_plans --precisions tf32,bf16 --layouts nn,nt,tn --shapes $S > $L/plans.csv 2> $L/plans-err.log; el "plans rc=$?"
python3 - $S > $L/cases.csv <<'PY'
import sys
print("precision,layout,m,n,k,group")
for s in sys.argv[1].split(","):
    m, n, k = s.split("x")
    for p in ("tf32", "bf16"):
        for l in ("nn", "nt", "tn"):
            print(f"{p},{l},{m},{n},{k},plans")
PY
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
python3 - $L/plans.csv $L/torch.csv <<'PY'
import csv, sys, collections
t = {}
for r in csv.reader(l for l in open(sys.argv[2]) if not l.startswith("#")):
    if r[0] != "precision": t[tuple(r[:5])] = float(r[5])
plans = collections.defaultdict(dict)
for r in csv.DictReader(l for l in open(sys.argv[1]) if "," in l and not l.startswith("#")):
    if r.get("ms"):
        plans[(r["precision"], r["layout"], r["m"], r["n"], r["k"])][r["plan"] + ("" if r["splits"] in ("0", "1") else "/" + r["splits"])] = float(r["ms"])
for key, p in plans.items():
    tm = t.get(key, float("nan")); auto = p.get("Auto", float("nan"))
    best = sorted((v, k) for k, v in p.items() if k != "Auto")[:3]
    print(f"{key[0]} {key[1]} {'x'.join(key[2:])}: torch {tm*1e3:.1f} | Auto {auto*1e3:.1f} ({tm/auto:.2f}) | " + ", ".join(f"{k} {v*1e3:.1f} ({tm/v:.2f})" for v, k in best))
PY
(cd $L && tar czf $OUT/logs.tgz .)
el done

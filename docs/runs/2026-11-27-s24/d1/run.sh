#!/usr/bin/env bash
# Session 24, call d1 (bundle s1: stream-K on the BF16 128x256 tile, `Bf16Kernel::WgmmaStreamK`,
# and `Auto` weighing it): the op tests; every wgmma plan of the BF16 mid-sized products below
# 0.70 in s23's sweep and of neighbours, with PyTorch on the same cases; the full sweep.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s1.txz -C /tmp/b; B=/tmp/b/s1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops > $L/ops.log 2>&1; echo "ops rc=$?" >> $L/ops.log); el "$(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"
grep -E "FAILED|panicked|failed" $L/ops.log | head -20
S=1536x1536x1536,3000x3000x3000,1024x1024x4096,512x1024x1024,512x784x4096,1024x784x2048,128x1024x784,2048x2048x2048,2500x1800x3000,1024x784x1024,4096x4096x4096,5000x5000x5000
timeout 200 $B/gemm_plans --precisions bf16 --layouts nn,tn --shapes $S --plans Auto,WgmmaStreamK,Wgmma,WgmmaSwapped,Wgmma128x208,Wgmma64x128 > $L/plans.csv 2> $L/plans-err.log; el "plans rc=$?"
python3 - $S > $L/plan-cases.csv <<'PY'
import sys
print("precision,layout,m,n,k,group")
for s in sys.argv[1].split(","):
    m, n, k = s.split("x")
    for l in ("nn", "tn"):
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
    other = min((v, k) for k, v in plans.items() if k not in ("Auto", "WgmmaStreamK"))
    print(f"{'x'.join(key[2:])} {key[1]}: torch {tm*1e3:.1f} us | Auto {auto*1e3:.1f} ({tm/auto:.2f}) | SK {sk*1e3:.1f} ({tm/sk:.2f}) | best other {other[1]} {other[0]*1e3:.1f} ({tm/other[0]:.2f})")
PY
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 150 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all" $L/sweep.log; sed -n '/^bf16 all/,+5p' $L/sweep.log
(cd $L && xz -9 ops.log && tar czf $OUT/logs.tgz .)
el done

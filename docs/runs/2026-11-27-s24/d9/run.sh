#!/usr/bin/env bash
# Session 24, call d9 (bundle s7 = ca0faad): every plan of the random seeds' products below 0.70
# that are not launch-bound (d8), beside PyTorch: plan or kernel?
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s7.txz -C /tmp/b; B=/tmp/b/s7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
echo "precision,layout,m,n,k,group" > $L/cases.csv
for c in bf16:nt:18x6130x5316 bf16:nn:19x3409x6261 bf16:nn:9x1877x119 f32:nn:1050x114x1367 tf32:nn:183x856x4590 bf16:nt:254x32x1772 bf16:nt:3943x602x53 f32:nt:3943x602x53; do
  IFS=: read p l s <<< "$c"
  timeout 60 $B/benches/gemm_plans --precisions $p --layouts $l --shapes $s >> $L/plans.csv 2>> $L/plans-err.log; el "plans $c rc=$?"
  IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,plans" >> $L/cases.csv
done
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
python3 - $L/plans.csv $L/torch.csv <<'PY'
import csv, sys, collections
t = {}
for r in csv.reader(l for l in open(sys.argv[2]) if not l.startswith("#")):
    if r[0] != "precision": t[tuple(r[:5])] = float(r[5])
plans = collections.defaultdict(dict)
for r in csv.DictReader(l for l in open(sys.argv[1]) if "," in l and not l.startswith("#") and not l.startswith("precision,layout,m,n,k,plan,splits,ms,tflops,note") or l.startswith("precision") and False):
    pass
rows = [l for l in open(sys.argv[1]) if "," in l and not l.startswith("#")]
hdr = rows[0]
for r in csv.DictReader([hdr] + [l for l in rows if not l.startswith("precision,")]):
    if r.get("ms"):
        plans[(r["precision"], r["layout"], r["m"], r["n"], r["k"])][r["plan"] + ("" if r["splits"] in ("0", "1") else "/" + r["splits"])] = float(r["ms"])
for key, p in plans.items():
    tm = t.get(key, float("nan")); auto = p.get("Auto", float("nan"))
    best = sorted((v, k) for k, v in p.items() if k != "Auto")[:4]
    print(f"{key[0]} {key[1]} {'x'.join(key[2:])}: torch {tm*1e3:.1f} | Auto {auto*1e3:.1f} ({tm/auto:.2f}) | " + ", ".join(f"{k} {v*1e3:.1f} ({tm/v:.2f})" for v, k in best))
PY
(cd $L && tar czf $OUT/logs.tgz .)
el done

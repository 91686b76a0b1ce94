#!/usr/bin/env bash
# Session 24, call d5 (bundle s5: the `wgmma` consumers stage C with 8-byte stores into rows of bn + 8 floats,
# conflict-free; old = c6, s23's final gemm_plans): the
# op and nn tests; `Auto` of both builds, twice in alternation, on store-bound and mid-sized
# products in three precisions; the full sweep against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s5.txz -C /tmp/b && tar xJf .gpu/c6.txz -C /tmp/b; B=/tmp/b/s5; OLD=/tmp/b/c6/gemm_plans
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do
  (timeout 200 $B/$t > $L/$t.log 2>&1; echo "$t rc=$?" >> $L/$t.log); el "$(grep -E '^test result|rc=' $L/$t.log | tr '\n' ' ')"
  grep -E "FAILED|panicked" $L/$t.log | head -10
done
S=1536x1536x1536,3000x3000x3000,1024x1024x4096,1024x1024x1024,512x1024x1024,256x1024x1024,2048x2048x2048,4096x4096x4096,1024x784x2048,512x784x4096,8192x8192x64,8192x4096x32,4096x784x32,16384x1024x128,128x1024x784
for round in 1 2; do
  for v in new old; do
    P=$B/gemm_plans; [ $v = old ] && P=$OLD
    timeout 100 $P --precisions f32,tf32,bf16 --layouts nn,tn --shapes $S --plans Auto > $L/plans-$v-$round.csv 2>> $L/plans-err.log; el "plans $v $round rc=$?"
  done
done
python3 - $L <<'PY'
import csv, sys, math, collections
L = sys.argv[1]
t = collections.defaultdict(list)
for v in ("new", "old"):
    for r in (1, 2):
        for row in csv.DictReader(l for l in open(f"{L}/plans-{v}-{r}.csv") if "," in l and not l.startswith("#")):
            if row.get("ms"):
                t[(row["precision"], row["layout"], row["m"], row["n"], row["k"], v)].append(float(row["ms"]))
logs = collections.defaultdict(list)
for key in sorted({k[:5] for k in t}):
    n, o = min(t.get(key + ("new",), [math.nan])), min(t.get(key + ("old",), [math.nan]))
    logs[key[0]].append(math.log(n / o))
    print(f"{key[0]} {key[1]} {'x'.join(key[2:])}: new {n*1e3:.1f} us old {o*1e3:.1f} -> {n/o:.3f}")
for p, l in logs.items():
    print(f"{p}: new/old geomean {math.exp(sum(l)/len(l)):.3f} over {len(l)}")
PY
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 150 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all" $L/sweep.log; sed -n '/^tf32 all/,+5p' $L/sweep.log; sed -n '/^bf16 all/,+5p' $L/sweep.log
(cd $L && xz -9 ops.log nn.log && tar czf $OUT/logs.tgz .)
el done

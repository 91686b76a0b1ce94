#!/usr/bin/env bash
# Session 17, call e7 (HEAD after 81c2dfa: FP32 Auto's row-per-warp kernel up to 24 rows per
# multiprocessor for x·Wᵀ of few columns, from 64): every FP32 plan of that family on nt
# products of 2048-8192 rows, then the FP32 sweep with this rule (new) and with 5c4919c's (old;
# FP32's rules are otherwise the same) against one PyTorch run.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e7s17.txz -C /tmp/b && B=/tmp/b/e7s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH="2048x10x1024,3200x10x1024,4096x10x1024,4096x16x4096,4096x10x4096,6000x12x3000,8192x10x1024,8192x16x2048"
timeout 200 $B/gemm_plans --precisions f32 --layouts nt --shapes $SH --plans Auto,RowDot,NarrowK,NarrowMn,Tile64x32,Tile64 > $L/plans.csv 2> $L/plans-err.log; el "plans rc=$? $(wc -l < $L/plans.csv) rows, $(grep -c mismatch $L/plans.csv) mismatches"
python3 - $L/plans.csv <<'PY'
import csv,sys,collections
by=collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    if r['ms']: by[(r['layout'],r['m'],r['n'],r['k'])][(r['plan'],int(r['splits']))]=float(r['ms'])*1e3
for key,d in by.items():
    best={}
    for (p,s),t in d.items():
        if p not in best or t<best[p][1]: best[p]=(s,t)
    print(' '.join(key), '  '.join('%s/%d %.1f'%(p,s,t) for p,(s,t) in sorted(best.items(),key=lambda x:x[1][1])))
PY
$B/gemm_sweep --list --precisions f32 --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for v in new old; do
  bin=$B/gemm_sweep; [ $v = old ] && bin=$B/gemm_sweep_old
  timeout 100 $bin --precisions f32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-$v.csv > $L/sweep-$v.log 2>&1; el "sweep $v rc=$? $(grep -E '^f32 all' $L/sweep-$v.log)"
done
python3 docs/runs/2026-11-24-h100-s17/compare.py $L/sweep-old.csv $L/sweep-new.csv
tar czf $OUT/logs.tgz -C /tmp logs

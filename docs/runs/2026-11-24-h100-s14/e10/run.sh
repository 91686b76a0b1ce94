#!/usr/bin/env bash
# Session 14, call e10: every TF32 plan and Auto on the TF32 shapes furthest below cuBLAS
# (small squares and short-k weight gradients in the tn layout, where both operands are
# MN-major), to see whether a plan Auto does not pick wins.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e8s14.txz -C /tmp/b
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH=128x128x128,256x256x256,384x384x384,512x512x512,1024x784x128,4096x784x32,1024x784x64,4096x784x64,1024x1024x128,10x4096x256
timeout 200 /tmp/b/e8s14/gemm_plans --precisions tf32 --layouts tn,tt --shapes $SH > $L/plans.csv 2> $L/plans.err; echo "plans rc=$?"
python3 - $L/plans.csv <<'PY'
import csv,sys
from collections import defaultdict
g=defaultdict(list)
for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#')):
    g[(r['layout'],r['m'],r['n'],r['k'])].append(r)
for key,rs in g.items():
    t=lambda r: float(r['ms'])*1e3 if r['ms'] else 1e9
    auto=[r for r in rs if r['plan']=='Auto']
    ok=sorted([r for r in rs if r['plan']!='Auto' and r['ms']], key=t)
    print(key, 'Auto %.1f' % t(auto[0]) if auto else '-', '| best', ' '.join('%s/%s %.1f' % (r['plan'], r['splits'], t(r)) for r in ok[:4]))
PY
tar czf $OUT/logs.tgz -C /tmp logs

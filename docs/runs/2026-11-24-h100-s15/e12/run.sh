#!/usr/bin/env bash
# Session 15, call e12: every FP32 plan (the split form included) on the FP32 products still below
# 0.70 of cuBLAS: 128^3 in four layouts, the skinny long-k ones, and two random small ones.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e10s15.txz -C /tmp/b && B=/tmp/b/e10s15
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 200 $B/benches/gemm_plans --precisions f32 --layouts nn,nt,tn,tt --shapes 128x128x128,256x256x256,64x64x16384,4096x16x4096,733x33x232,4096x10x1024 > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
python3 - $L <<'PY'
import csv,sys
L=sys.argv[1]
best={}
for r in csv.DictReader(l for l in open(f'{L}/plans.csv') if not l.startswith('#')):
    if not r['ms']: continue
    key=(r['layout'],r['m'],r['n'],r['k']); t=float(r['ms'])*1e3
    d=best.setdefault(key,{})
    if r['plan'] not in d or t<d[r['plan']][0]: d[r['plan']]=(t,r['splits'])
for key,d in best.items():
    top=sorted(d.items(), key=lambda x:x[1][0])
    print(' '.join(key), 'Auto:%.1f'%d['Auto'][0], ' '.join('%s:%.1f/%s'%(n,t,s) for n,(t,s) in top[:5]))
PY
tar czf $OUT/logs.tgz -C /tmp logs

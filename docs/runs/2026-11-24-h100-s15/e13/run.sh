#!/usr/bin/env bash
# Session 15, call e13: every FP32 plan on launch-bound and few-tile products (the shared-memory
# tiles' domain, k <= 128 and up to one 32x32 tile per multiprocessor, and products whose 64x64
# grid leaves multiprocessors idle), in four layouts: where the 32-wide tiles beat Auto's rules.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e10s15.txz -C /tmp/b && B=/tmp/b/e10s15
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH=128x128x128,128x128x32,256x256x64,256x1024x10,64x1024x10,10x1024x128,797x346x9,6308x37x20,673x159x57,300x700x24,1024x160x48,128x4096x10,256x1024x128,441x43x287,118x1233x48,512x512x128,384x384x384,512x512x512,64x64x4096,128x256x2048,32x271x669,256x512x1024,64x1024x784,128x1024x1024
timeout 400 $B/benches/gemm_plans --precisions f32 --layouts nn,nt,tn,tt --shapes $SH > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
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
    print(' '.join(key), 'Auto:%.1f'%d['Auto'][0], ' '.join('%s:%.1f/%s'%(n,t,s) for n,(t,s) in top[:4]))
PY
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 15, call e8: where TF32's register-A kernel stops beating `Auto`'s pick. Every split of
# it and `Auto` on products with an MN-major operand (nn, tt, tn) from 128^3 to 3000^3 and the
# MLP's weight-gradient and input-gradient shapes.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e4s15.txz -C /tmp/b && B=/tmp/b/e4s15
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH=640x640x640,768x768x768,1000x1000x1000,1024x1024x1024,1536x1536x1536,2048x2048x2048,3000x3000x3000,1024x784x256,1024x784x512,2048x784x128,4096x784x64,4096x784x128,4096x784x256,4096x1024x256,256x1024x1024,512x1024x1024,1024x4096x256,128x4096x4096,777x555x333,2048x1024x1024,256x784x1024,1024x1024x2048
timeout 300 $B/gemm_plans --precisions tf32 --layouts nn,tt,tn --shapes $SH --plans Auto,Tf32WgmmaRegA > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
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
    a=d.get('Auto',(0,0))[0]; g=d.get('Tf32WgmmaRegA',(0,0))
    print(' '.join(key), 'Auto %.1f RegA %.1f/%s  ratio %.2f'%(a,g[0],g[1],g[0]/a if a else 0))
PY
tar czf $OUT/logs.tgz -C /tmp logs

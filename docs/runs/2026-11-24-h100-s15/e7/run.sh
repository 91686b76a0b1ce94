#!/usr/bin/env bash
# Session 15, call e7: every TF32 plan on the small products below 0.70 of cuBLAS (tn and tt
# squares to 512, the MLP's tn weight gradients with short k), and every BF16 plan on the mid
# products below 0.70 (128-256 x 1024 x 1024, 1536^3): how far the best plan is from `Auto`'s.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e4s15.txz -C /tmp/b && B=/tmp/b/e4s15
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/gemm_plans --precisions tf32 --layouts tn,tt,nn --shapes 128x128x128,256x256x256,384x384x384,512x512x512,1024x784x128,1024x784x64,4096x784x32,1024x1024x128 > $L/plans-tf32.csv 2> $L/plans-tf32.err; el "tf32 rc=$?"
timeout 150 $B/gemm_plans --precisions bf16 --layouts nn,nt --shapes 128x1024x1024,256x1024x1024,128x1024x784,1536x1536x1536,2048x784x1024 > $L/plans-bf16.csv 2> $L/plans-bf16.err; el "bf16 rc=$?"
python3 - $L <<'PY'
import csv,sys
L=sys.argv[1]
for f in ['plans-tf32.csv','plans-bf16.csv']:
    best={}
    for r in csv.DictReader(l for l in open(f'{L}/{f}') if not l.startswith('#')):
        if not r['ms']: continue
        key=(r['precision'],r['layout'],r['m'],r['n'],r['k']); t=float(r['ms'])*1e3
        d=best.setdefault(key,{})
        if r['plan'] not in d or t<d[r['plan']][0]: d[r['plan']]=(t,r['splits'])
    for key,d in best.items():
        top=sorted(d.items(), key=lambda x:x[1][0])
        print(' '.join(key), 'Auto:%.1f'%d['Auto'][0] if 'Auto' in d else '', ' '.join('%s:%.1f/%s'%(n,t,s) for n,(t,s) in top[:5]))
PY
tar czf $OUT/logs.tgz -C /tmp logs

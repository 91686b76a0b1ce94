#!/usr/bin/env bash
# Session 12, experiment 14: FP32 products of one to two waves of 32×32 tiles (133–264 tiles
# on 132 SMs) with k ≤ 128: the shared-memory tiles against the 64×64 tiles and every FP32 plan.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e14.txz -C /tmp/e && E=/tmp/e/e14
L=/tmp/logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=256x1024x10,256x1024x32,256x1024x64,256x1024x128,64x4096x10,64x4096x64,64x4096x128,200x800x16,200x800x64,200x800x128,512x512x32,512x512x128,160x1024x96,1024x160x48,300x700x24
timeout 200 $E/gemm_plans --precisions f32 --layouts nn,nt,tn,tt --shapes $S > $L/plans.csv 2> $L/plans.err; echo "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
python3 - <<'PY'
import csv,collections
rows=[r for r in csv.DictReader(open('/tmp/logs/plans.csv')) if r['ms']]
g=collections.defaultdict(dict)
for r in rows:
    k=(r['layout'],r['m'],r['n'],r['k'])
    key=r['plan'] if r['plan'] in ('Auto','SmemTiled') else r['plan']+'x'+r['splits']
    g[k][key]=float(r['ms'])*1000
for k,v in g.items():
    best=min(((t,p) for p,t in v.items() if p not in ('Auto','SmemTiled')))
    print(' '.join(k),'auto %.1f smem %.1f best-tile %s %.1f'%(v.get('Auto',0),v.get('SmemTiled',0),best[1],best[0]))
PY
tar czf $OUT/logs.tgz -C /tmp logs

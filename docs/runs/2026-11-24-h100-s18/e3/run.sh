#!/usr/bin/env bash
# Session 18, call e3 (HEAD 361325d, bundle of e1): what makes the short-k kernel and the small
# CUDA-core tiles slow on some small products: one knob at a time (n, k, m alignment, grid
# size), every layout, each plan timed as the sweep times it (graph replays), f32 and bf16.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e1s18.txz -C /tmp/b && B=/tmp/b/e1s18
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH=800x344x9,800x346x9,797x344x9,800x344x10,800x344x12,800x344x8,800x344x16,256x1024x9,256x1024x10,256x1024x12,256x1026x10,256x344x10,800x1024x10,6308x37x20,6308x40x20,6308x40x16,488x466x1,488x468x1,488x468x4,128x1024x10,512x1024x10,1024x1024x10
for l in nn nt tn tt; do
  timeout 250 $B/gemm_plans --precisions f32,bf16 --layouts $l --shapes $SH --plans Auto,ShortK,Tile32x64,Tile64x32,SmemTiled,MmaTile64 >> $L/plans.csv 2>> $L/plans-err.log
  el "$l rc=$?"
done
python3 - $L/plans.csv <<'PY'
import csv,sys,collections
by=collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    if r['precision']!='precision' and r['ms']: by[(r['precision'],r['layout'],r['m'],r['n'],r['k'])]['%s/%s'%(r['plan'],r['splits'])]=float(r['ms'])*1e3
for key,d in by.items():
    print('%-26s'%' '.join(key), '  '.join('%s %.2f'%(p,t) for p,t in sorted(d.items(),key=lambda x:x[1])))
PY
tar czf $OUT/logs.tgz -C /tmp logs

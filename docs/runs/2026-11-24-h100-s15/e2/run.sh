#!/usr/bin/env bash
# Session 15, call e2: e1 with three scratch slots (copies two slices ahead); FP32 on TF32 with the operands split in the kernel (Tf32x3Split, four
# layouts): its ops tests (every layout, odd shapes, ragged k, forced splits, accuracy against
# f64), memcheck on its split tests, and every FP32 plan of it, the staged form and the CUDA-core
# tiles on the MLP's products and a few squares.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e2s15.txz -C /tmp/b && B=/tmp/b/e2s15
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 120 $B/ops-test Tf32x3 > $L/ops-x3.log 2>&1; echo "rc=$?" >> $L/ops-x3.log)
grep -E "test result|FAIL|failed|rc=" $L/ops-x3.log | head -20; el ops
SH=256x1024x784,256x1024x1024,256x784x1024,1024x784x256,1024x1024x256,1024x1024x1024,4096x1024x784,4096x784x1024,4096x1024x1024,1024x784x4096,1024x1024x4096,64x1024x784,128x1024x1024,512x512x512,2048x2048x2048,4096x4096x4096
timeout 300 $B/gemm_plans --precisions f32 --layouts nn,nt,tn --shapes $SH --plans Auto,Tf32x3Split,Tf32x3Wgmma128x128,Tile128x64 > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
(timeout 120 compute-sanitizer --tool memcheck $B/ops-test Tf32x3Split::split > $L/memcheck.log 2>&1; echo "rc=$?" >> $L/memcheck.log)
tail -3 $L/memcheck.log; el memcheck
python3 - $L <<'PY'
import csv,sys
L=sys.argv[1]
rows=[r for r in csv.DictReader(l for l in open(f'{L}/plans.csv') if not l.startswith('#')) if r['ms']]
best={}
for r in rows:
    key=(r['layout'],r['m'],r['n'],r['k'])
    best.setdefault(key,{})
    name=r['plan']; t=float(r['ms'])*1e3
    d=best[key]
    if name not in d or t<d[name][0]: d[name]=(t,r['splits'])
for key,d in best.items():
    print(' '.join(key), ' '.join('%s:%.1f/%s'%(n,t,s) for n,(t,s) in sorted(d.items(), key=lambda x:x[1][0])))
PY
tar czf $OUT/logs.tgz -C /tmp logs

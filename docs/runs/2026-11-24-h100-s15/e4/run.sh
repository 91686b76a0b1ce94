#!/usr/bin/env bash
# Session 15, call e4: the split form with heads and tails by truncation (no cvt.rna): its ops
# tests (accuracy against f64 included) and every FP32 plan of it, the staged form and the
# CUDA-core tiles on the MLP's products and squares (the data its constants are fitted to).
set -u
mkdir -p /tmp/b && tar xJf .gpu/e4s15.txz -C /tmp/b && B=/tmp/b/e4s15
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 120 $B/ops-test Tf32x3 > $L/ops-x3.log 2>&1; echo "rc=$?" >> $L/ops-x3.log)
grep -E "test result|FAIL|failed|max errors|rc=" $L/ops-x3.log | head -20; el ops
SH=256x1024x784,256x1024x1024,256x784x1024,1024x784x256,1024x1024x256,1024x1024x1024,4096x1024x784,4096x784x1024,4096x1024x1024,1024x784x4096,1024x1024x4096,64x1024x784,128x1024x1024,512x512x512,768x768x768,2048x2048x2048,4096x4096x4096,3000x3000x3000,1000x3000x700,777x555x333,512x1024x1024,2048x784x1024
timeout 400 $B/gemm_plans --precisions f32 --layouts nn,nt,tn --shapes $SH > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
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
    keep=[x for x in top if x[0] in ('Auto','Tf32x3Split','Tf32x3Wgmma128x128')] + [x for x in top if x[0] not in ('Auto','Tf32x3Split','Tf32x3Wgmma128x128')][:1]
    print(' '.join(key), ' '.join('%s:%.1f/%s'%(n,t,s) for n,(t,s) in keep))
PY
tar czf $OUT/logs.tgz -C /tmp logs

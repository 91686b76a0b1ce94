#!/usr/bin/env bash
# Session 14, call e7: e6 again with this build (the 64-row edge boxes compiled out of FP32 on
# TF32, a whole-tile box a compile-time single copy): HEAD 72d06e3's build (e1) against it,
# alternated, on FP32 (x3), TF32 and BF16 products with and without tiles past C.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e1s14.txz -C /tmp/b && tar xJf .gpu/e7s14.txz -C /tmp/b
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH=4096x4096x4096,4096x1024x1024,2000x2000x2000,3000x3000x3000,4096x784x4096,1024x1024x1024,768x768x768
for i in 1 2; do
  /tmp/b/e1s14/gemm_plans --precisions f32,tf32,bf16 --layouts nt --shapes $SH --plans Auto > $L/old-$i.csv 2>> $L/err.log
  /tmp/b/e7s14/gemm_plans --precisions f32,tf32,bf16 --layouts nt --shapes $SH --plans Auto > $L/new-$i.csv 2>> $L/err.log
done
python3 - $L <<'PY'
import csv,sys
L=sys.argv[1]
def load(f): return {(r['precision'],r['m'],r['n'],r['k']): float(r['ms'])*1e3 for r in csv.DictReader(l for l in open(f) if not l.startswith('#')) if r['ms']}
o1,o2,n1,n2=[load(f'{L}/{x}.csv') for x in ['old-1','old-2','new-1','new-2']]
for k in o1:
    o=min(o1[k],o2[k]); n=min(n1.get(k,1e9),n2.get(k,1e9))
    print('%s %sx%sx%s Auto old %.1f new %.1f (%.3f)' % (k[0],k[1],k[2],k[3],o,n,n/o))
PY
tar czf $OUT/logs.tgz -C /tmp logs

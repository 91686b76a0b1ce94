#!/usr/bin/env bash
# Session 17, call e6 (HEAD 0af2288): every BF16 plan (gemm_plans, ShortK and SmemTiled
# included) on short-k products whose rows the copy engine cannot read (k or the MN-major side
# not a multiple of 8: BF16 Auto's wgmma path pads them first), from the random groups of r2.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r1s17.txz -C /tmp/b && B=/tmp/b/r1s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH="387x4330x23,1652x264x31,6308x37x20,1019x2149x12,1429x2363x10,4096x4096x20,2000x3000x30,777x1555x27,300x5000x17,3000x300x25"
timeout 300 $B/benches/gemm_plans --precisions bf16 --layouts nn,nt,tn,tt --shapes $SH > $L/plans.csv 2> $L/plans-err.log; el "plans rc=$? $(wc -l < $L/plans.csv) rows, $(grep -c mismatch $L/plans.csv) mismatches"
python3 - $L/plans.csv <<'PY'
import csv,sys,collections
by=collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    if r['ms']: by[(r['layout'],r['m'],r['n'],r['k'])][(r['plan'],int(r['splits']))]=float(r['ms'])*1e3
for key,d in by.items():
    best={}
    for (p,s),t in d.items():
        if p not in best or t<best[p][1]: best[p]=(s,t)
    print(' '.join(key), '  '.join('%s/%d %.1f'%(p,s,t) for p,(s,t) in sorted(best.items(),key=lambda x:x[1][1])[:6]))
PY
tar czf $OUT/logs.tgz -C /tmp logs

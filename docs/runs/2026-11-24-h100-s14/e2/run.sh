#!/usr/bin/env bash
# Session 14, call e2: stream-K on the BF16 128x208 wgmma tile (first build): its tests in every
# layout and memcheck on them; every wide-tile BF16 plan (128x256, 128x208 at every split,
# 128x208 stream-K) and Auto on squares, the MLP's n = 784 products and mid-size products.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e2s14.txz -C /tmp/b && B=/tmp/b/e2s14
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $B/ops-test "stream_k" > $L/tests-sk.log 2>&1; el "tests sk rc=$? $(grep '^test result' $L/tests-sk.log)"; grep -E "FAILED|panicked|Err" $L/tests-sk.log | head -8
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $B/ops-test "stream_k::ta0_tb1" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
SH=1536x1536x1536,2000x2000x2000,3000x3000x3000,5000x5000x5000,4096x4096x4096,2048x2048x2048,1000x1000x1000,1024x1024x1024,768x768x768,1024x784x4096,4096x784x4096,2048x784x1024,512x784x4096,4096x784x2048,4096x784x1024,1024x784x2048,128x1024x1024,256x1024x1024,1024x4096x4096,777x555x333,1000x3000x700,6144x6144x6144,3072x3072x3072,8192x8192x8192
timeout 330 $B/gemm_plans --precisions bf16 --layouts nt --shapes $SH --plans Auto,Wgmma,Wgmma128x208 > $L/plans-nt.csv 2> $L/plans-nt.err; el "plans nt rc=$?"
SH2=1536x1536x1536,3000x3000x3000,5000x5000x5000,1024x784x4096,4096x784x4096,2048x784x1024,256x1024x1024
timeout 120 $B/gemm_plans --precisions bf16 --layouts nn,tn --shapes $SH2 --plans Auto,Wgmma,Wgmma128x208 > $L/plans-nn.csv 2> $L/plans-nn.err; el "plans nn rc=$?"
python3 - $L/plans-nt.csv $L/plans-nn.csv <<'PY'
import csv,sys
from collections import defaultdict
for f in sys.argv[1:]:
    g=defaultdict(list)
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        g[(r['layout'],r['m'],r['n'],r['k'])].append(r)
    for key,rs in g.items():
        t=lambda r: float(r['ms'])*1e3 if r['ms'] else 1e9
        auto=[r for r in rs if r['plan']=='Auto']
        sk=[r for r in rs if r['splits']=='sk']
        ok=sorted([r for r in rs if r['plan']!='Auto' and r['splits']!='sk' and r['ms']], key=t)
        bad=[r for r in rs if r['note']]
        print(key, 'Auto %.1f' % t(auto[0]) if auto else '-', '| sk %.1f' % t(sk[0]) if sk else '| sk -', '| best', ' '.join('%s/%s %.1f' % (r['plan'], r['splits'], t(r)) for r in ok[:2]), ('NOTES: '+';'.join(r['plan']+'/'+r['splits']+':'+r['note'] for r in bad)) if bad else '')
PY
tar czf $OUT/logs.tgz -C /tmp logs

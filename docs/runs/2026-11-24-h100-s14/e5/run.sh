#!/usr/bin/env bash
# Session 14, call e5: the wgmma kernels that copy without transposing split K-major tiles into
# 64-row boxes and skip the boxes (either orientation) that start past C's rows or columns; the
# swapped 128x256 kernels. Every BF16, TF32 and Auto ops test and the nn tests, memcheck on the
# wgmma split tests, and the e4 plans again (every wide-tile BF16 plan, three layouts).
set -u
mkdir -p /tmp/b && tar xJf .gpu/e5s14.txz -C /tmp/b && B=/tmp/b/e5s14
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for f in gemm_bf16 Tf32 Auto; do timeout 150 $B/ops-test "$f" > $L/tests-$f.log 2>&1; el "ops $f rc=$? $(grep '^test result' $L/tests-$f.log)"; grep -E "FAILED|panicked" $L/tests-$f.log | head -5; done
timeout 100 $B/nn-test > $L/tests-nn.log 2>&1; el "nn rc=$? $(grep '^test result' $L/tests-nn.log)"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 200 $CS --tool memcheck $B/ops-test "Wgmma::split" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
SH=4096x784x4096,1024x784x4096,512x784x4096,2048x784x1024,4096x784x2048,4096x784x1024,1024x784x2048,4096x768x4096,1536x1536x1536,3000x3000x3000,2000x2000x2000,784x4096x4096,256x1024x1024,5000x5000x5000
timeout 300 $B/gemm_plans --precisions bf16 --layouts nn,tn,nt --shapes $SH --plans Auto,Wgmma,Wgmma128x208,WgmmaSwapped > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
python3 - $L/plans.csv <<'PY'
import csv,sys
from collections import defaultdict
g=defaultdict(list)
for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#')):
    g[(r['layout'],r['m'],r['n'],r['k'])].append(r)
for key,rs in g.items():
    t=lambda r: float(r['ms'])*1e3 if r['ms'] else 1e9
    auto=[r for r in rs if r['plan']=='Auto']
    best=lambda name: min([r for r in rs if r['plan']==name and r['ms']], key=t, default=None)
    out=[]
    for name in ['Wgmma','Wgmma128x208','WgmmaSwapped']:
        b=best(name)
        out.append('%s/%s %.1f' % (name.replace('Wgmma','W'), b['splits'], t(b)) if b else name+' -')
    bad=[r for r in rs if r['note']]
    print(key, 'Auto %.1f' % t(auto[0]) if auto else '-', '|', ' | '.join(out), ('NOTES %d' % len(bad)) if bad else '')
PY
tar czf $OUT/logs.tgz -C /tmp logs

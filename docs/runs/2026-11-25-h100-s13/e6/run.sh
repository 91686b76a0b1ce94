#!/usr/bin/env bash
# Session 13, call e6: the BF16 128x192 wgmma tile: its tests (every layout, split-K, ragged
# shapes) and memcheck on them, and every wide-tile BF16 plan on squares and mid-size products in
# two layouts (the data its constants are fitted to).
set -u
mkdir -p /tmp/b && tar xJf .gpu/e6s13.txz -C /tmp/b && B=/tmp/b/e6s13
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 100 $B/ops-test "128x192" > $L/tests.log 2>&1; el "tests rc=$? $(grep '^test result' $L/tests.log)"; grep -E "FAILED|panicked" $L/tests.log | head -5
timeout 100 $B/ops-test "Wgmma128x192" > $L/tests2.log 2>&1; el "tests2 rc=$? $(grep '^test result' $L/tests2.log)"; grep -E "FAILED|panicked" $L/tests2.log | head -5
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 200 $CS --tool memcheck $B/ops-test "Wgmma128x192" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
SH=1536x1536x1536,3000x3000x3000,2000x2000x2000,5000x5000x5000,1000x1000x1000,2048x2048x2048,4096x4096x4096,3072x3072x3072,4096x784x4096,1024x4096x4096,1000x3000x700,777x555x333,2048x784x4096,512x4096x4096,6144x6144x6144
timeout 400 $B/gemm_plans --precisions bf16 --layouts nt,nn --shapes $SH --plans Auto,Wgmma,Wgmma128x208,Wgmma128x192,Wgmma64x128 > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
python3 - $L/plans.csv <<'PY'
import csv,sys
from collections import defaultdict
g=defaultdict(list)
for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#')):
    g[(r['precision'],r['layout'],r['m'],r['n'],r['k'])].append(r)
for key,rs in g.items():
    auto=[r for r in rs if r['plan']=='Auto']
    ok=sorted([r for r in rs if r['plan']!='Auto' and r['ms']], key=lambda r: float(r['ms']))
    w192=sorted([r for r in ok if r['plan']=='Wgmma128x192'], key=lambda r: float(r['ms']))[:1]
    print(key, 'Auto %.1f' % (float(auto[0]['ms'])*1e3), ' '.join('%s/%s %.1f' % (r['plan'], r['splits'], float(r['ms'])*1e3) for r in ok[:3]), '| 192:', ' '.join('%s %.1f' % (r['splits'], float(r['ms'])*1e3) for r in w192))
PY
tar czf $OUT/logs.tgz -C /tmp logs

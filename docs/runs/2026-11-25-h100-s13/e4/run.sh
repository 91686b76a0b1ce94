#!/usr/bin/env bash
# Session 13, call e4: the 32x64 and 64x32 FP32 tiles: their tests (every layout, split-K,
# ragged k) and Auto's, memcheck on them, and every FP32 plan on few-row and few-column products
# in four layouts (the data their constants are fitted to).
set -u
mkdir -p /tmp/b && tar xJf .gpu/e4s13.txz -C /tmp/b && B=/tmp/b/e4s13
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for f in Tile32x64 Tile64x32 gemm::Auto matmul::Auto; do timeout 100 $B/ops-test "$f" > $L/tests-$f.log 2>&1; el "tests $f rc=$? $(grep '^test result' $L/tests-$f.log)"; grep -E "FAILED|panicked" $L/tests-$f.log | head -5; done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $B/ops-test "Tile32x64::split" > $L/memcheck-a.log 2>&1; el "memcheck a rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-a.log | tr "\n" " ")"
timeout 150 $CS --tool memcheck $B/ops-test "Tile64x32::split" > $L/memcheck-b.log 2>&1; el "memcheck b rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-b.log | tr "\n" " ")"
SH=32x4096x4096,32x4096x784,32x784x4096,32x1024x1024,1024x32x16384,4096x16x4096,4096x32x1024,16x1024x16384,24x2000x3000,733x33x232,441x43x287,189x16x832,32x271x669,64x1024x1024,10x4096x4096,33x2000x5000,64x64x16384,128x1024x1024,4096x64x1024,2000x24x3000
timeout 300 $B/gemm_plans --precisions f32 --layouts nn,nt,tn,tt --shapes $SH > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
python3 - $L/plans.csv <<'PY'
import csv,sys
from collections import defaultdict
g=defaultdict(list)
for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#')):
    g[(r['precision'],r['layout'],r['m'],r['n'],r['k'])].append(r)
for key,rs in g.items():
    auto=[r for r in rs if r['plan']=='Auto']
    ok=sorted([r for r in rs if r['plan']!='Auto' and r['ms']], key=lambda r: float(r['ms']))
    print(key, 'Auto %.1f' % (float(auto[0]['ms'])*1e3), ' '.join('%s/%s %.1f' % (r['plan'], r['splits'], float(r['ms'])*1e3) for r in ok[:4]))
PY
tar czf $OUT/logs.tgz -C /tmp logs

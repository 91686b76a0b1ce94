#!/usr/bin/env bash
# Session 17, call e1: the BF16 64×32 wgmma tile (Bf16Kernel::Wgmma64x32, Wgmma64x32Swapped;
# eight stages, op(B) K-major) on its first GPU: its op tests and memcheck, then every BF16 plan
# (gemm_plans) on few-row and few-column products in the layouts it takes (nn, nt, tt), the
# data its model constants are fitted to.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e1s17.txz -C /tmp/b && B=/tmp/b/e1s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $B/ops-test "gemm_bf16::Wgmma64x32" > $L/tests-slim.log 2>&1; el "tests slim rc=$? $(grep -E '^test result' $L/tests-slim.log)"
grep -E "FAILED|failed|panicked" $L/tests-slim.log | head -20
timeout 150 compute-sanitizer --tool memcheck $B/ops-test "gemm_bf16::Wgmma64x32Swapped::split::ta0_tb0" > $L/memcheck-slim.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-slim.log | tr '\n' ' ')"
SH="32x4096x4096,16x4096x4096,64x4096x4096,8x8192x8192,1x5099x6665,32x1024x16384,64x1024x784,10x1024x4096,33x2000x5000,64x64x16384,4096x16x4096,4096x32x4096,4096x64x4096,1024x32x16384,2048x10x4096,4096x10x1024,777x20x3001"
timeout 300 $B/gemm_plans --precisions bf16 --layouts nn,nt,tt --shapes $SH > $L/plans.csv 2> $L/plans-err.log; el "plans rc=$? $(wc -l < $L/plans.csv) rows"
grep -c mismatch $L/plans.csv
python3 - $L/plans.csv <<'PY'
import csv,sys,collections
rows=list(csv.DictReader(open(sys.argv[1])))
by=collections.defaultdict(list)
for r in rows:
    if r.get('note') and 'mismatch' in r['note']: print('MISMATCH',r)
    by[(r['layout'],r['m'],r['n'],r['k'])].append(r)
for key,rs in by.items():
    ok=[r for r in rs if r['ms'] not in ('','nan')]
    auto=[r for r in ok if r['plan']=='Auto']
    slim=[r for r in ok if r['plan'].startswith('Wgmma64x32')]
    old=[r for r in ok if r['plan']!='Auto' and not r['plan'].startswith('Wgmma64x32')]
    f=lambda xs: min(xs,key=lambda r:float(r['ms'])) if xs else None
    bo,bs,a=f(old),f(slim),(auto[0] if auto else None)
    g=lambda r: '%s/%s %.1f'%(r['plan'],r['splits'],float(r['ms'])*1e3) if r else '-'
    print('%s %sx%sx%s  auto %s | best old %s | best slim %s'%(key[0],key[1],key[2],key[3],g(a),g(bo),g(bs)))
PY
tar czf $OUT/logs.tgz -C /tmp logs

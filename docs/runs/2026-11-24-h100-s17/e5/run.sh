#!/usr/bin/env bash
# Session 17, call e5: the BF16 128×64 wgmma tile (two consumers sharing the narrow side;
# Bf16Kernel::Wgmma128x64, Wgmma128x64Swapped): its op tests and memcheck, then the BF16 wgmma
# plans (gemm_plans) on few-row and few-column products in four layouts, the data its model
# constants are fitted to.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e5s17.txz -C /tmp/b && B=/tmp/b/e5s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/ops-test "gemm_bf16::Wgmma128x64" > $L/tests-paired.log 2>&1; el "tests paired rc=$? $(grep -E '^test result' $L/tests-paired.log)"
grep -E "FAILED|failed|panicked" $L/tests-paired.log | head -20
timeout 100 compute-sanitizer --tool memcheck $B/ops-test "gemm_bf16::Wgmma128x64Swapped::split::ta1_tb0" > $L/memcheck-paired.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-paired.log | tr '\n' ' ')"
SH="64x4096x4096,48x4096x4096,32x4096x4096,16x4096x4096,64x8192x8192,64x1024x784,64x4096x784,64x1024x4096,64x64x16384,32x1024x16384,40x3000x2000,4096x64x4096,4096x48x4096,4096x32x4096,1024x64x16384,4096x64x1024"
timeout 400 $B/gemm_plans --precisions bf16 --layouts nn,nt,tn,tt --shapes $SH --plans Auto,Wgmma,WgmmaSwapped,Wgmma64x128,Wgmma64x64,Wgmma128x64,Wgmma128x64Swapped,Wgmma64x32,Wgmma64x32Swapped > $L/plans.csv 2> $L/plans-err.log; el "plans rc=$? $(wc -l < $L/plans.csv) rows, $(grep -c mismatch $L/plans.csv) mismatches"
python3 - $L/plans.csv <<'PY'
import csv,sys,collections
by=collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    if r['ms']: by[(r['layout'],r['m'],r['n'],r['k'])][(r['plan'],int(r['splits']))]=float(r['ms'])*1e3
for key,d in by.items():
    best={}
    for (p,s),t in d.items():
        if p not in best or t<best[p][1]: best[p]=(s,t)
    print(' '.join(key), '  '.join('%s/%d %.1f'%(p.replace('Wgmma','W'),s,t) for p,(s,t) in sorted(best.items(),key=lambda x:x[1][1])))
PY
tar czf $OUT/logs.tgz -C /tmp logs

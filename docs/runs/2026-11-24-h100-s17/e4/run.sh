#!/usr/bin/env bash
# Session 17, call e4: the BF16 192×96 wgmma tile (three consumers; Bf16Kernel::Wgmma192x96):
# its op tests and memcheck, then the BF16 wgmma plans (gemm_plans) on squares and the MLP's
# mid-sized layers in four layouts, the data its model constants are fitted to.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e4s17.txz -C /tmp/b && B=/tmp/b/e4s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/ops-test "gemm_bf16::Wgmma192x96" > $L/tests-tall.log 2>&1; el "tests tall rc=$? $(grep -E '^test result' $L/tests-tall.log)"
grep -E "FAILED|failed|panicked" $L/tests-tall.log | head -20
timeout 100 compute-sanitizer --tool memcheck $B/ops-test "gemm_bf16::Wgmma192x96::split::ta1_tb0" > $L/memcheck-tall.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-tall.log | tr '\n' ' ')"
SH="768x768x768,1000x1000x1000,1024x1024x1024,1536x1536x1536,2000x2000x2000,2048x2048x2048,3000x3000x3000,4096x4096x4096,5000x5000x5000,1024x4096x4096,4096x1024x1024,512x784x4096,2048x784x1024,1024x784x2048,4096x784x4096,256x1024x1024,1000x3000x700,777x555x333"
timeout 400 $B/gemm_plans --precisions bf16 --layouts nn,nt,tn,tt --shapes $SH --plans Auto,Wgmma,WgmmaSwapped,Wgmma128x208,Wgmma192x96,Wgmma64x128,Wgmma64x64 > $L/plans.csv 2> $L/plans-err.log; el "plans rc=$? $(wc -l < $L/plans.csv) rows, $(grep -c mismatch $L/plans.csv) mismatches"
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

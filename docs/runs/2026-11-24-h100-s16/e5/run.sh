#!/usr/bin/env bash
# Session 16, call e5: the tensor-core narrow kernel with its wide operand loaded one batch ahead (e4: a full memory latency per batch), one block per multiprocessor (Bf16Kernel::NarrowMma, up to 64 rows or
# columns, the k-contiguous wide operand read straight into mma registers). Its tests, every
# BF16 Auto test, memcheck on one layout; every NarrowMma split and the tiles on few-row and
# few-column products (nt, nn, tt); the BF16 sweep against PyTorch (Auto takes it from 2^22
# wide elements).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e5s16.txz -C /tmp/b && B=/tmp/b/e5s16
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $B/ops-test NarrowMma > $L/tests-nmma.log 2>&1; el "tests NarrowMma rc=$? $(grep -E '^test result' $L/tests-nmma.log)"
grep -E "FAILED|failed|panicked|Error" $L/tests-nmma.log | head -10
timeout 60 $B/ops-test gemm_bf16::Auto > $L/tests-auto.log 2>&1; el "tests bf16 Auto rc=$? $(grep -E '^test result' $L/tests-auto.log)"
grep -E "FAILED|panicked" $L/tests-auto.log | head -5
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 90 $CS --tool memcheck $B/ops-test "NarrowMma::ta0_tb1" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
SH=16x4096x4096,32x4096x4096,64x4096x4096,8x4096x4096,32x1024x16384,32x4096x784,48x3000x7000,64x8192x2048,8x8192x8192,16x1024x1024,32x1024x1024,64x1024x1024,32x4096x256,64x784x1024,4096x16x4096,1024x32x16384,2048x10x4096,4096x64x4096,8192x64x2048,1024x10x1024,4096x10x1024,128x1024x1024
timeout 200 $B/gemm_plans --precisions bf16 --layouts nt,nn,tt --shapes $SH --plans Auto,NarrowMma,Wgmma64x128,Wgmma64x64,WgmmaSwapped > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
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
    print(' '.join(key), ' '.join('%s:%.1f/%s'%(n,t,s) for n,(t,s) in top[:4]), 'NarrowMma:%.1f/%s'%d['NarrowMma'] if 'NarrowMma' in d else '')
PY
tar czf $OUT/logs.tgz -C /tmp logs

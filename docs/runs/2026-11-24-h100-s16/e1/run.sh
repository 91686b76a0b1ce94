#!/usr/bin/env bash
# Session 16, call e1: BF16 stream-K (WgmmaStreamK, Wgmma128x208StreamK). Its tests and every
# BF16 Auto test, memcheck on one layout's stream-K tests, the wgmma plans on squares and the
# MLP's n = 784 products (nt, nn), and the BF16 sweep against PyTorch with Auto's new rule.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e1s16.txz -C /tmp/b && B=/tmp/b/e1s16
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $B/ops-test StreamK > $L/tests-sk.log 2>&1; el "tests StreamK rc=$? $(grep -E '^test result' $L/tests-sk.log)"
grep -E "FAILED|failed|panicked" $L/tests-sk.log | head -10
timeout 60 $B/ops-test gemm_bf16::Auto > $L/tests-auto.log 2>&1; el "tests bf16 Auto rc=$? $(grep -E '^test result' $L/tests-auto.log)"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 60 $CS --tool memcheck $B/ops-test "stream_k::ta0_tb1" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
SH=1024x1024x1024,1536x1536x1536,2000x2000x2000,2048x2048x2048,3000x3000x3000,4096x4096x4096,5000x5000x5000,1024x784x4096,512x784x4096,2048x784x1024,1024x784x2048,4096x784x4096,256x1024x1024,1000x3000x700,6144x6144x6144
timeout 200 $B/gemm_plans --precisions bf16 --layouts nt,nn --shapes $SH --plans Auto,Wgmma,WgmmaSwapped,Wgmma128x208,Wgmma64x128,Wgmma64x64,WgmmaStreamK,Wgmma128x208StreamK > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
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
    print(' '.join(key), ' '.join('%s:%.1f/%s'%(n,t,s) for n,(t,s) in top[:7]))
PY
$B/gemm_sweep --list --precisions bf16 --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 100 $B/gemm_sweep --precisions bf16 --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^bf16|^  [a-z]|^RESULT" $L/sweep.log
tar czf $OUT/logs.tgz -C /tmp logs

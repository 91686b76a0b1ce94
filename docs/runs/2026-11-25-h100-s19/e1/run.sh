#!/usr/bin/env bash
# Session 19, call e1 (working tree after b00aa02: stream-K in the 128-row BF16 wgmma kernels).
# The op tests (stream-K and split-K among them), memcheck on the stream-K tests, and
# gemm_plans on wave-quantized BF16 products: the 128-row tiles with and without stream-K.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e1s19.txz -C /tmp/b && B=/tmp/b/e1s19
L=$OUT/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/tests/ops-test > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=|FAILED|panicked' $L/ops.log | head -8 | tr '\n' ' ')"
grep -E "FAILED|failed|Error|mismatch" $L/ops.log | head -20
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 120 $CS --tool memcheck $B/tests/ops-test stream_k > $L/memcheck-stream_k.log 2>&1; el "memcheck stream_k rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-stream_k.log | tr "\n" " ")"
SH=3000x3000x3000,1536x1536x1536,5000x5000x5000,2000x2000x2000,4096x4096x4096,4096x784x4096,2048x784x1024,1024x1024x1024,6609x2773x1000,3500x5000x700,7000x2500x1500,1000x3000x700
P=Auto,Wgmma,WgmmaSwapped,Wgmma128x208,WgmmaStreamK,WgmmaSwappedStreamK,Wgmma128x208StreamK
for l in nn nt tn tt; do
  timeout 110 $B/benches/gemm_plans --precisions bf16 --layouts $l --shapes $SH --plans $P >> $L/plans.csv 2>> $L/plans-err.log
  el "plans $l rc=$?"
done
el "plans $(grep -c mismatch $L/plans.csv) mismatches, $(grep -c error $L/plans.csv) errors"
python3 - $L/plans.csv <<'PY' | tee $L/plans-summary.txt
import csv,sys,collections
by=collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    if r['precision']!='precision' and r['ms']: by[(r['precision'],r['layout'],r['m'],r['n'],r['k'])]['%s/%s'%(r['plan'],r['splits'])]=float(r['ms'])*1e3
for key,d in by.items():
    print('%-26s'%' '.join(key), '  '.join('%s %.1f'%(p,t) for p,t in sorted(d.items(),key=lambda x:x[1])))
PY

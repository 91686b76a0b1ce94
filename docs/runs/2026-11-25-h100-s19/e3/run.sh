#!/usr/bin/env bash
# Session 19, call e3: (1) the unsplit 128-row BF16 tiles with the pass loop (e2s19) against
# b00aa02's kernels (r4s18), in one call, alternating; (2) Nsight Compute on nn 1536³: the
# 128×256 tile unsplit, stream-K with one part per tile (72:72) and with two (72:144).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e2s19.txz -C /tmp/b && tar xJf .gpu/r4p.txz -C /tmp/b
L=$OUT/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
SH=3000x3000x3000,1536x1536x1536,5000x5000x5000,4096x4096x4096,2048x784x1024,1024x1024x1024
for rep in 1 2; do
  for v in old new; do
    B=/tmp/b/e2s19; [ $v = old ] && B=/tmp/b/r4s18
    timeout 100 $B/benches/gemm_plans --precisions bf16 --layouts nn,nt --shapes $SH --plans Auto,Wgmma,WgmmaSwapped,Wgmma128x208 2>/dev/null | grep -E ",1,|Auto" | sed "s/^/$v,/" >> $L/loop.csv
    el "$v $rep"
  done
done
python3 - $L/loop.csv <<'PY' | tee $L/loop-summary.txt
import sys,collections,math
t=collections.defaultdict(list)
for line in open(sys.argv[1]):
    f=line.strip().split(',')
    if len(f)<10 or not f[8]: continue
    t[(f[2],f[3],f[4],f[5],f[6],f[7])+(f[0],)].append(float(f[8])*1e3)
keys=sorted({k[:-1] for k in t})
lr=[]
for k in keys:
    o,n=min(t.get(k+('old',),[float('nan')])),min(t.get(k+('new',),[float('nan')]))
    if o==o and n==n: lr.append(math.log(n/o))
    print(' '.join(k), 'old %.1f new %.1f  new/old %.3f'%(o,n,n/o))
print('geomean new/old', math.exp(sum(lr)/len(lr)), len(lr))
PY
M=gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_active.max,lts__t_bytes.sum,dram__bytes.sum,launch__grid_size,smsp__inst_executed.sum
for sk in 72x72 72x144; do
  GEMM_PLANS_STREAM_K=${sk/x/:} timeout 120 ncu --cache-control none --clock-control none --metrics $M /tmp/b/e2s19/benches/gemm_plans --precisions bf16 --layouts nn --shapes 1536x1536x1536 --plans Wgmma,WgmmaStreamK --profile 1 > $L/ncu-$sk.txt 2>&1
  el "ncu $sk rc=$?"
  grep -E "^  gemm_wgmma|duration|cycles_active|bytes|grid_size|inst_executed" $L/ncu-$sk.txt | head -100 > $L/ncu-$sk-summary.txt
done

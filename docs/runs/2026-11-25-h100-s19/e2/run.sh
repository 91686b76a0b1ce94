#!/usr/bin/env bash
# Session 19, call e2: where stream-K's time goes. gemm_plans on BF16 1536³ and 3000³ (nt, nn)
# with stream-K splits given as tiles:blocks (GEMM_PLANS_STREAM_K): one part per tile (no
# partial tiles: the pass loop's own cost), one block per multiprocessor, and others; then
# Nsight Compute on 1536³ nt, the unsplit tile against two splits.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e2s19.txz -C /tmp/b && B=/tmp/b/e2s19
L=$OUT/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
P=Wgmma,WgmmaSwapped,Wgmma128x208,WgmmaStreamK,WgmmaSwappedStreamK,Wgmma128x208StreamK
for l in nt nn; do
  GEMM_PLANS_STREAM_K=72:72,72:132,72:36,72:264,96:96,96:132,96:48 timeout 100 $B/benches/gemm_plans --precisions bf16 --layouts $l --shapes 1536x1536x1536 --plans $P >> $L/plans.csv 2>> $L/plans-err.log
  GEMM_PLANS_STREAM_K=24:132,156:132,288:132,288:288,96:132,228:132,360:360,360:132 timeout 100 $B/benches/gemm_plans --precisions bf16 --layouts $l --shapes 3000x3000x3000 --plans $P >> $L/plans.csv 2>> $L/plans-err.log
  el "plans $l"
done
grep -E "error|mismatch" $L/plans.csv | head -5
python3 - $L/plans.csv <<'PY' | tee $L/plans-summary.txt
import csv,sys,collections
by=collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    if r['precision']!='precision' and r['ms']: by[(r['precision'],r['layout'],r['m'],r['n'],r['k'])]['%s/%s'%(r['plan'],r['splits'])]=float(r['ms'])*1e3
for key,d in by.items():
    print('%-26s'%' '.join(key), '  '.join('%s %.1f'%(p,t) for p,t in sorted(d.items(),key=lambda x:x[1])))
PY
M=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,dram__bytes.sum,sm__cycles_active.avg,sm__cycles_active.max,smsp__inst_executed.sum
for sk in 72:72 72:132; do
  GEMM_PLANS_STREAM_K=$sk timeout 120 ncu --cache-control none --clock-control none --metrics $M $B/benches/gemm_plans --precisions bf16 --layouts nt --shapes 1536x1536x1536 --plans Wgmma,WgmmaStreamK --profile 2 > $L/ncu-$sk.txt 2>&1
  el "ncu $sk rc=$?"
done
grep -E "gemm_wgmma|duration|throughput|bytes|cycles_active|inst_executed" $L/ncu-72:132.txt | head -40

#!/usr/bin/env bash
# Session 15, call e6: where BF16's few-row products lose to cuBLAS. Every BF16 plan on them, and
# Nsight Compute (memory workload: L2 hit rate, DRAM bytes) on three back-to-back launches of
# `Auto`'s plan for nt 32x4096x4096 and 4096x16x4096.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e4s15.txz -C /tmp/b && B=/tmp/b/e4s15
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH=32x4096x4096,64x4096x4096,16x4096x4096,4096x16x4096,4096x64x4096,32x1024x16384
timeout 150 $B/gemm_plans --precisions bf16 --layouts nt,nn --shapes $SH > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
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
    print(' '.join(key), ' '.join('%s:%.1f/%s'%(n,t,s) for n,(t,s) in top[:6]))
PY
for sh in 32x4096x4096 4096x16x4096; do
timeout 100 ncu --target-processes all --launch-skip 1 --launch-count 2 --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics lts__t_sector_hit_rate.pct,dram__bytes_read.sum,gpu__time_duration.sum $B/gemm_plans --precisions bf16 --layouts nt --shapes $sh --plans Auto --profile 4 > $L/ncu-$sh.txt 2>&1; el "ncu $sh rc=$?"
grep -E "gemm_|Duration|hit_rate|dram__bytes|DRAM Throughput|L2 Hit|Memory Throughput" $L/ncu-$sh.txt | head -24
done
tar czf $OUT/logs.tgz -C /tmp logs

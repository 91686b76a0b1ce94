#!/usr/bin/env bash
# Session 15, call e3: where the split form's time goes. Three builds of it (the producer's loads
# batched and its TF32 conversion no longer a compiler fence): as is; the producer copying
# without splitting (nomath); the consumers issuing one wgmma per k-step (onemma) -- the last two
# time only, their results are wrong. Then Nsight Compute on the split and the staged kernels.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e3s15.txz -C /tmp/b && B=/tmp/b/e3s15
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH=256x1024x1024,256x784x1024,1024x1024x1024,4096x1024x1024,4096x4096x4096
for v in base nomath onemma; do
  timeout 100 $B/gemm_plans-$v --precisions f32 --layouts nt,nn --shapes $SH --plans Tf32x3Split,Tf32x3Wgmma128x128 > $L/plans-$v.csv 2> $L/plans-$v.err; el "$v rc=$?"
done
python3 - $L <<'PY'
import csv,sys
L=sys.argv[1]
for v in ['base','nomath','onemma']:
    best={}
    for r in csv.DictReader(l for l in open(f'{L}/plans-{v}.csv') if not l.startswith('#')):
        if not r['ms']: continue
        key=(r['layout'],r['m'],r['n'],r['k'],r['plan']); t=float(r['ms'])*1e3
        if key not in best or t<best[key][0]: best[key]=(t,r['splits'])
    for k,(t,s) in sorted(best.items()): print(v,' '.join(k),'%.1f/%s'%(t,s))
PY
timeout 150 ncu --target-processes all -k regex:tf32x3 --launch-count 2 --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis $B/gemm_plans-base --precisions f32 --layouts nt --shapes 4096x1024x1024 --plans Tf32x3Split,Tf32x3Wgmma128x128 --profile 1 > $L/ncu.txt 2>&1; el "ncu rc=$?"
grep -E "gemm_wgmma|Throughput|Duration|Stall|Issued|Bank|Shared" $L/ncu.txt | head -60
tar czf $OUT/logs.tgz -C /tmp logs

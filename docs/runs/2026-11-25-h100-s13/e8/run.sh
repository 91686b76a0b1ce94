#!/usr/bin/env bash
# Session 13, call e8: where the cluster-split few-row BF16 plans spend their time: Nsight
# Compute's source-level (SASS) stall samples of Auto's kernel on 64x4096x4096 (2 splits of
# 64x64 tiles in clusters) against 64x8192x2048 (the same per-block work, unsplit).
set -u
mkdir -p /tmp/b && tar xJf .gpu/e8s13.txz -C /tmp/b && B=/tmp/b/e8s13
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
$B/gemm_plans --precisions bf16 --layouts nt --shapes 64x4096x4096,64x8192x2048 --plans Auto,Wgmma64x64 > $L/plans.csv 2> $L/plans.err; grep -E "Auto|Wgmma64x64,(1|2)," $L/plans.csv
for sh in 64x4096x4096 64x8192x2048; do
  timeout 150 $NCU --set full --import-source no -k regex:gemm_wgmma -c 1 -o $L/rep-$sh $B/gemm_plans --precisions bf16 --layouts nt --shapes $sh --plans Auto --profile 1 > $L/ncu-$sh.log 2>&1; echo "ncu $sh rc=$?"
  $NCU -i $L/rep-$sh.ncu-rep --page source --csv --print-source sass > $L/src-$sh.csv 2> $L/src-$sh.err; echo "src rc=$? $(wc -l < $L/src-$sh.csv)"
  $NCU -i $L/rep-$sh.ncu-rep --page details --csv > $L/details-$sh.csv 2>/dev/null
  grep -E "Duration|Warp Cycles Per Issued|Achieved Occupancy|DRAM Throughput|L2 Hit" $L/details-$sh.csv | head -8
done
python3 - $L <<'PY'
import csv,sys,glob
for f in sorted(glob.glob(sys.argv[1]+'/src-*.csv')):
    rows=list(csv.reader(open(f)))
    if not rows: continue
    # find header
    hi=[i for i,r in enumerate(rows) if 'Source' in r or 'Address' in r]
    if not hi: print(f, 'no header', rows[:3]); continue
    h=rows[hi[0]]; print(f, h[:14])
    idx={n:i for i,n in enumerate(h)}
    key=[n for n in h if 'Warp Stall Sampling (All' in n]
    if not key: continue
    k=idx[key[0]]
    data=[r for r in rows[hi[0]+1:] if len(r)==len(h)]
    tot=sum(float(r[k] or 0) for r in data)
    top=sorted(data,key=lambda r: -float(r[k] or 0))[:25]
    for r in top: print('  %5.1f%%' % (100*float(r[k] or 0)/tot), r[idx.get('Source',1)][:90])
PY
tar czf $OUT/logs.tgz -C /tmp logs

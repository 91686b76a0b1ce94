#!/usr/bin/env bash
# Session 13, call e3: DRAM bytes and L2 hit rate of cuBLAS's kernels and ours on few-row BF16
# products with warm caches (Nsight Compute, --cache-control none, --clock-control none; the
# product run 4 times, the last ones counted).
set -u
mkdir -p /tmp/b && tar xJf .gpu/e3s13.txz -C /tmp/b && B=/tmp/b/e3s13
L=/tmp/logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,launch__grid_size,launch__cluster_dim_x"
O="--cache-control none --clock-control none --metrics $M --csv --page raw"
show() { python3 - "$1" <<'PY'
import csv,sys
rows=list(csv.reader(open(sys.argv[1])))
h=None
for r in rows:
    if 'Kernel Name' in r: h=r; continue
    if h and len(r)==len(h) and r[0].isdigit():
        d=dict(zip(h,r)); n=d['Kernel Name']
        if 'elementwise' in n or 'distribution' in n: continue
        print(d.get('gpu__time_duration.sum'), 'dramR', d.get('dram__bytes_read.sum'), 'dramW', d.get('dram__bytes_write.sum'), 'hit%', d.get('lts__t_sector_hit_rate.pct'), 'grid', d.get('launch__grid_size'), d.get('launch__cluster_dim_x'), n[:70])
PY
}
timeout 150 $NCU $O python3 benches/torch/gemm_sweep.py $B/cases.csv --profile 4 > $L/ncu-torch.csv 2> $L/ncu-torch.err; echo "torch rc=$?"; show $L/ncu-torch.csv
timeout 200 $NCU $O $B/gemm_plans --precisions bf16 --layouts nt --shapes 16x4096x4096,64x4096x4096,32x1024x16384,4096x16x4096 --plans Auto,Wgmma64x128 --profile 4 > $L/ncu-ours.csv 2> $L/ncu-ours.err; echo "ours rc=$?"; show $L/ncu-ours.csv
tar czf $OUT/logs.tgz -C /tmp logs

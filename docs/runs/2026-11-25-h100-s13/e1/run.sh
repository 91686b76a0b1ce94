#!/usr/bin/env bash
# Session 13, call e1: what cuBLAS runs (kernel, grid, cluster, duration under Nsight Compute) on the shapes
# furthest below it, and our plans' kernel durations beside their graph-timed cost.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e1s13.txz -C /tmp/b && B=/tmp/b/e1s13
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__cluster_dim_z,launch__shared_mem_per_block_dynamic,launch__registers_per_thread"
timeout 200 $NCU --metrics $M --csv --page raw python3 benches/torch/gemm_sweep.py $B/cases.csv --profile 2 > $L/ncu-torch.csv 2> $L/ncu-torch.err; el "ncu torch rc=$?"
python3 - $L/ncu-torch.csv <<'PY'
import csv,sys
rows=list(csv.reader(open(sys.argv[1])))
h=None
for r in rows:
    if 'Kernel Name' in r: h=r; continue
    if h and len(r)==len(h) and r[0].isdigit():
        d=dict(zip(h,r)); print(d.get('gpu__time_duration.sum'), d.get('launch__grid_size'), d.get('launch__block_size'), d.get('launch__cluster_dim_x'), d.get('launch__cluster_dim_y'), d.get('launch__shared_mem_per_block_dynamic'), d.get('launch__registers_per_thread'), d['Kernel Name'][:150])
PY
SH=64x1024x1024,256x1024x1024,32x1024x16384,16x4096x4096,128x1024x1024
timeout 120 $B/gemm_plans --precisions bf16 --layouts nt --shapes $SH > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
timeout 200 $NCU --metrics $M --csv --page raw $B/gemm_plans --precisions bf16 --layouts nt --shapes $SH --plans Auto,Wgmma64x64,Wgmma64x128 --profile 1 > $L/ncu-ours.csv 2> $L/ncu-ours.err; el "ncu ours rc=$?"
python3 - $L/ncu-ours.csv <<'PY'
import csv,sys
rows=list(csv.reader(open(sys.argv[1])))
h=None
for r in rows:
    if 'Kernel Name' in r: h=r; continue
    if h and len(r)==len(h) and r[0].isdigit():
        d=dict(zip(h,r)); print(d.get('gpu__time_duration.sum'), d.get('launch__grid_size'), d.get('launch__cluster_dim_x'), d.get('launch__registers_per_thread'), d['Kernel Name'][:60])
PY
tar czf $OUT/logs.tgz -C /tmp logs

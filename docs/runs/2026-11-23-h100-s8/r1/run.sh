#!/usr/bin/env bash
# Session 8, call 1: where the tensor-core kernels' ~6 µs floor on small products goes.
# Nsight Compute kernel durations (caches and clocks left as they run) of our plans and of
# cuBLAS's kernels on the same products, and the graph-replay times of the same plans.
set -u
mkdir -p /tmp/b && tar xJf .gpu/r1.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,dram__bytes_read.sum,lts__t_bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_active.avg,launch__cluster_dim_x,launch__cluster_dim_y,launch__cluster_dim_z
BF=32x1024x1024,128x4096x10,32x4096x4096,256x1024x1024,2048x784x4096,64x64x64,64x784x4096
TF=256x4096x4096,10x4096x512,64x1024x1024,128x4096x10,1024x784x32
for l in nt nn; do
  timeout 90 $NCU --csv --cache-control none --clock-control none --metrics $M -k regex:gemm $B/benches/gemm_plans --precisions bf16 --layouts $l --shapes $BF --plans Auto,Wgmma64x64,Wgmma64x128,MmaTile64 --profile 3 > $L/ncu-ours-bf16-$l.csv 2> $L/ncu-ours-bf16-$l.err; el "ncu ours bf16 $l rc=$?"
done
for l in nn tn nt; do
  timeout 60 $NCU --csv --cache-control none --clock-control none --metrics $M -k regex:gemm $B/benches/gemm_plans --precisions tf32 --layouts $l --shapes $TF --plans Auto,Tf32Wgmma64x64,Tf32Wgmma64x128 --profile 3 > $L/ncu-ours-tf32-$l.csv 2> $L/ncu-ours-tf32-$l.err; el "ncu ours tf32 $l rc=$?"
done
python3 - $BF $TF > $L/cases.csv <<'PY'
import sys
print("precision,layout,m,n,k")
for p, shapes, layouts in (("bf16", sys.argv[1], "nt nn"), ("tf32", sys.argv[2], "nn tn nt")):
    for l in layouts.split():
        for s in shapes.split(","):
            m, n, k = s.split("x"); print(f"{p},{l},{m},{n},{k}")
PY
timeout 120 $NCU --csv --cache-control none --clock-control none --metrics $M python3 benches/torch/gemm_sweep.py $L/cases.csv --profile 3 > $L/ncu-torch.csv 2> $L/ncu-torch.err; el "ncu torch rc=$?"
timeout 100 $B/benches/gemm_plans --precisions bf16 --layouts nt,nn --shapes $BF --plans Auto,Wgmma64x64,Wgmma64x128,MmaTile64 > $L/plans-bf16.csv 2> $L/plans-bf16.err; el "plans bf16 rc=$?"
timeout 100 $B/benches/gemm_plans --precisions tf32 --layouts nn,tn,nt --shapes $TF --plans Auto,Tf32Wgmma64x64,Tf32Wgmma64x128 > $L/plans-tf32.csv 2> $L/plans-tf32.err; el "plans tf32 rc=$?"
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch.err; el "torch rc=$?"
tar czf $OUT/logs.tgz -C /tmp logs

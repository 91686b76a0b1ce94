#!/usr/bin/env bash
# Session 12, experiment 1: where BF16 `wgmma` loses at sizes that are not multiples of 64:
# 1000³ against 1024³ with only k, only m and n, or everything ragged; 3000³ likewise; the
# latency-bound MLP shapes; every split of the 128×256 and 64×128 tiles beside Auto; then
# Nsight Compute on Auto's kernels for 1000³ and 1024³.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e1.txz -C /tmp/e && E=/tmp/e/e1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=1024x1024x1024,1000x1000x1000,1024x1024x1000,1000x1000x1024,1024x1024x1008,1008x1008x1024,1024x1024x960,3072x3072x3072,3000x3000x3000,3072x3072x3000,3000x3000x3072,2048x2048x2048,2000x2000x2000
timeout 200 $E/gemm_plans --precisions bf16 --layouts nt,nn --shapes $S --plans Auto,Wgmma,Wgmma64x128 > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
grep ",Auto," $L/plans.csv
S2=64x1024x1024,256x1024x1024,32x4096x784,128x1024x784
timeout 200 $E/gemm_plans --precisions bf16 --layouts nt,nn --shapes $S2 > $L/plans2.csv 2> $L/plans2.err; el "plans2 rc=$? $(wc -l < $L/plans2.csv) $(grep -c mismatch $L/plans2.csv)"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
for s in 1024x1024x1024 1000x1000x1000 1024x1024x1000 1000x1000x1024 64x1024x1024; do
timeout 60 $NCU --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__cluster_dim_z $E/gemm_plans --precisions bf16 --layouts nt --shapes $s --plans Auto --profile 3 > $L/ncu-$s.txt 2>&1; el "ncu $s rc=$?"
grep -E "gemm|duration|bytes|sectors|throughput|grid_size|cluster" $L/ncu-$s.txt | head -24
done
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 32, call n8 (bundle n7): Nsight Compute on BF16 nn 1024x784x4096, where one 64x128
# block per multiprocessor runs at about half the tensor cores' rate and cuBLAS's 2x4-cluster
# kernel takes two thirds of our time on the same grid: ours (the 64x128 tile in pairs, eight
# stages; and alone) and cuBLAS's kernel, speed of light, compute and memory workload, warp
# state and scheduler sections.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/n7.txz -C /tmp/b; B=/tmp/b/n7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats"
for p in Wgmma64x128+mc Wgmma64x128; do
  timeout 90 ncu $S -k regex:gemm_wgmma --launch-skip 2 --launch-count 1 $B/gemm_plans --precisions bf16 --layouts nn --shapes 1024x784x4096 --plans $p --profile 4 > $L/ncu-ours-$p.txt 2>&1; el "ncu ours $p rc=$?"
  (cd $L && tar czf $OUT/logs.tgz .)
done
printf "precision,layout,m,n,k,group\nbf16,nn,1024,784,4096,n8\n" > $L/case.csv
timeout 90 ncu $S -k regex:"cutlass|nvjet|gemm|Kernel2" --launch-skip 2 --launch-count 1 python3 benches/torch/gemm_sweep.py $L/case.csv --profile 4 > $L/ncu-torch.txt 2>&1; el "ncu torch rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

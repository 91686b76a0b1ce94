#!/usr/bin/env bash
# Session 26, call g2 (gemm_plans of bundle f4 = the kernels of 6599417): Nsight Compute on the
# worst products of g1, ours (Auto) and PyTorch's, to attribute their time.
set -u
mkdir -p /tmp/b && tar xJf .gpu/f4.txz -C /tmp/b; P=/tmp/b/f4/gemm_plans
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis"
prof() { # precision layout shape
  timeout 120 ncu $S --launch-skip 10 --launch-count 2 $P --precisions $1 --layouts $2 --shapes $3 --plans Auto --profile 20 > $L/ours-$1-$2-$3.txt 2>&1
  printf "precision,layout,m,n,k,group\n$1,$2,${3//x/,},p\n" > $L/c.csv
  timeout 120 ncu $S --launch-skip 10 --launch-count 2 python3 benches/torch/gemm_sweep.py $L/c.csv --profile 20 > $L/torch-$1-$2-$3.txt 2>&1
  echo "$1 $2 $3 done"
}
prof bf16 nn 797x346x9
prof bf16 tt 6308x37x20
prof bf16 nt 18x6130x5316
prof tf32 tn 1024x784x64
prof f32 nn 1050x114x1367
(cd $L && tar czf $OUT/logs.tgz .)

#!/usr/bin/env bash
# Session 26, call g4 (bundle g3): where small aligned products lose 1.5 µs to cuBLAS. Every plan
# of six MLP-sized products, then Nsight Compute's kernel durations of ours (Auto) and
# PyTorch's on three of them: kernel time against graph-replay time.
set -u
mkdir -p /tmp/b && tar xJf .gpu/g3.txz -C /tmp/b; P=/tmp/b/g3/gemm_plans
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
$P --precisions bf16 --layouts nt --shapes 64x1024x784,128x1024x1024 > $L/plans.csv 2>>$L/err.log
$P --precisions bf16 --layouts nn --shapes 256x1024x1024,512x784x1024 >> $L/plans.csv 2>>$L/err.log
$P --precisions tf32 --layouts tn --shapes 128x128x128,1024x784x64 >> $L/plans.csv 2>>$L/err.log
$P --precisions f32 --layouts tn --shapes 1024x1024x32,1024x784x32,4096x784x32 >> $L/plans.csv 2>>$L/err.log
S="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats"
prof() {
  timeout 120 ncu $S --launch-skip 10 --launch-count 3 $P --precisions $1 --layouts $2 --shapes $3 --plans Auto --profile 20 > $L/ours-$1-$2-$3.txt 2>&1
  printf "precision,layout,m,n,k,group\n$1,$2,${3//x/,},p\n" > $L/c.csv
  timeout 120 ncu $S --launch-skip 10 --launch-count 3 python3 benches/torch/gemm_sweep.py $L/c.csv --profile 20 > $L/torch-$1-$2-$3.txt 2>&1
  echo "$1 $2 $3 done"
}
prof bf16 nt 64x1024x784
prof bf16 nn 512x784x1024
prof tf32 tn 128x128x128
printf "precision,layout,m,n,k,group\nbf16,nt,64,1024,784,d\nbf16,nt,128,1024,1024,d\nbf16,nn,256,1024,1024,d\nbf16,nn,512,784,1024,d\ntf32,tn,128,128,128,d\ntf32,tn,1024,784,64,d\nf32,tn,1024,1024,32,d\nf32,tn,1024,784,32,d\nf32,tn,4096,784,32,d\n" > $L/cases.csv
python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2>>$L/err.log
(cd $L && tar czf $OUT/logs.tgz .)

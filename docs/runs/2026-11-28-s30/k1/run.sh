#!/usr/bin/env bash
# Session 30, call k1 (bundle k1 = gemm_plans of HEAD d9c7322 with --slim-max): where the BF16
# products with few tiles lose, every plan of the 64-row tiles and the 64×32 tiles on sides up to
# 512 (Auto weighs them up to 32), in all four layouts; every TF32 and FP32 plan of the TF32
# products below 0.70 (tn, short k; tt 6308×37×20), tn beside nt; Nsight Compute kernel
# durations of a few of those plans; PyTorch on the same shapes.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/k1.txz -C /tmp/b; B=/tmp/b/k1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
BF="64x1024x784,128x1024x784,256x1024x784,512x1024x784,64x1024x1024,128x1024x1024,256x1024x1024,512x1024x1024,512x4096x784,64x4096x4096,4096x64x4096,128x4096x1024,256x4096x4096,1024x128x1024,96x3000x2000,200x1500x1500,48x2048x8192,160x800x3000,1000x100x2000,384x384x384,768x768x768,1024x1024x1024"
TF="1024x784x64,384x384x384,4096x784x32,1024x784x128,10x4096x256,2048x784x128"
(echo "# s30 k1"; echo "precision,layout,m,n,k,group"
 for s in ${BF//,/ }; do for l in nn nt tn tt; do echo "bf16,$l,${s//x/,},k1"; done; done
 for s in ${TF//,/ }; do for p in tf32 f32; do for l in tn nt; do echo "$p,$l,${s//x/,},k1"; done; done; done
 for p in f32 tf32 bf16; do echo "$p,tt,6308,37,20,k1"; done) > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 60 python3 benches/torch/cublas_kernels.py $L/cases.csv > $L/kernels.csv 2> $L/kernels-err.log; el "kernels rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
timeout 260 $B/gemm_plans --precisions bf16 --layouts nn,nt,tn,tt --shapes $BF --plans Auto,Wgmma64x64,Wgmma64x128,Wgmma64x32,Wgmma64x32Swapped --slim-max 512 > $L/plans-bf16.csv 2> $L/plans-bf16-err.log; el "bf16 plans rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
timeout 100 $B/gemm_plans --precisions tf32,f32 --layouts tn,nt --shapes $TF > $L/plans-tf32.csv 2> $L/plans-tf32-err.log; el "tf32 plans rc=$?"
timeout 40 $B/gemm_plans --precisions f32,tf32,bf16 --layouts tt --shapes 6308x37x20 > $L/plans-tt.csv 2> $L/plans-tt-err.log; el "tt plans rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_z,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,sm__cycles_active.avg
timeout 60 $NCU --metrics $M --csv -k regex:gemm $B/gemm_plans --precisions tf32 --layouts tn,nt --shapes 1024x784x64 --plans Tf32Tile64,Tf32WgmmaRegA,Tf32Wgmma64x64 --profile 2 > $L/ncu-tf32.csv 2>&1; el "ncu tf32 rc=$?"
timeout 60 $NCU --metrics $M --csv -k regex:gemm $B/gemm_plans --precisions bf16 --layouts nn --shapes 128x1024x1024,384x384x384 --plans Wgmma64x64,Wgmma64x32Swapped --slim-max 512 --profile 2 > $L/ncu-bf16.csv 2>&1; el "ncu bf16 rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

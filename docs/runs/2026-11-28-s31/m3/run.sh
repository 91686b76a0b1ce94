#!/usr/bin/env bash
# Session 31, call m3 (bundle m2, ef1d9e3's rules): every plan of the sweep's and the seeds'
# products still below 0.75 of cuBLAS that no rule of this session touches, beside PyTorch and
# the names of cuBLAS's kernels: the BF16 streaming products (one side 32-64, k 4096-16384), the
# BF16 mid-size long-k products (H200 only), TF32 32x1024x16384, and the short-k and
# rows-off-16-bytes products of the seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/m2.txz -C /tmp/b; B=/tmp/b/m2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
BF="nt:4096x64x4096 nn:64x4096x4096 nt:64x4096x4096 nn:32x1024x16384 nt:1024x32x16384 nn:1024x784x4096 tn:1024x784x4096 tn:1024x1024x4096 tt:1000x1000x1000 tt:6308x37x20 nn:1484x340x20 tn:388x236x84 tn:2753x975x32"
TF="nn:32x1024x16384 tn:4096x784x128 tn:512x512x512 tt:2048x2048x2048 nn:2048x2048x2048 tt:335x160x2025 tn:80x78x7054 nt:294x52x1699 tn:1186x47x7488"
(echo "precision,layout,m,n,k,group"
 for x in $BF; do IFS=x read m n k <<< "${x#*:}"; echo "bf16,${x%%:*},$m,$n,$k,m3"; done
 for x in $TF; do IFS=x read m n k <<< "${x#*:}"; echo "tf32,${x%%:*},$m,$n,$k,m3"; done) > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 60 python3 benches/torch/cublas_kernels.py $L/cases.csv > $L/kernels.csv 2> $L/kernels-err.log; el "kernels rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
for x in $BF; do timeout 60 $B/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --slim-max 64 >> $L/plans.csv 2>> $L/plans-err.log; done; el "bf16 plans"
(cd $L && tar czf $OUT/logs.tgz .)
for x in $TF; do timeout 60 $B/gemm_plans --precisions tf32,f32 --layouts ${x%%:*} --shapes ${x#*:} >> $L/plans.csv 2>> $L/plans-err.log; done; el "tf32 plans"
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 33, call p2 (bundle old = 0680516's gemm_plans, the landed kernels and rules): every
# plan on the weak families outside the sweep (matrix-vector and tiny products, few-column
# products with a long k, TF32 rows off 16 bytes with a small side and a long k), beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/old.txz -C /tmp/b; B=/tmp/b/old
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="bf16:nn:7x1x222 tf32:nn:7x1x222 f32:nn:7x1x222 bf16:tt:1130x1x248 tf32:tt:1130x1x248 bf16:nn:454x1x1813 tf32:nn:454x1x1813 f32:nn:454x1x1813 bf16:nt:1x2000x3000 bf16:tn:3000x1x2000 tf32:nt:1x2000x3000 bf16:nn:100x1x100 tf32:nn:1x1x1 bf16:nt:2048x64x8192 bf16:nt:4096x64x4096 bf16:nn:64x4096x4096 bf16:nt:3000x48x6000 tf32:tn:1186x47x7488 tf32:tn:80x78x7054 tf32:nt:294x52x1699 tf32:nn:4152x10x5877 tf32:nn:14x499x6896 tf32:tt:335x160x2025"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,p2"; done) > $L/cases.csv
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for x in $CASES; do IFS=: read p l s <<< "$x"; timeout 60 $B/gemm_plans --precisions $p --layouts $l --shapes $s >> $L/plans.csv 2>> $L/plans-err.log; el "$x rc=$?"; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

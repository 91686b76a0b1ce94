#!/usr/bin/env bash
# Session 23, call c6 (c5's gemm_plans, the final code of c5): every plan of the random seeds'
# products below 0.70 past the streaming rule's edges (a short side of 50-128, few K-major
# columns), with neighbours, in TF32 and BF16; PyTorch on the same cases.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/c6.txz -C /tmp/b; B=/tmp/b/c6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
{ echo precision,layout,m,n,k
  for p in tf32 bf16; do
    for s in nn,66,7490,1919 nn,96,4096,4096 nn,128,4096,4096 nt,96,4096,4096 tt,2649,70,2828 tt,4096,100,4096 nt,4350,50,3502 nt,4096,48,4096 tn,4096,96,4096; do echo $p,$s; done
  done; } > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for s in nn:66x7490x1919,96x4096x4096,128x4096x4096 nt:96x4096x4096,4350x50x3502,4096x48x4096 tt:2649x70x2828,4096x100x4096 tn:4096x96x4096; do
  l=${s%%:*}; sh=${s#*:}
  timeout 80 $B/gemm_plans --precisions tf32,bf16 --layouts $l --shapes $sh >> $L/plans.csv 2>> $L/plans-err.log; el "plans $l rc=$?"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

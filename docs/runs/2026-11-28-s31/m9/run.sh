#!/usr/bin/env bash
# Session 31, call m9 (bundle m9 = gemm_plans of the working tree: the TF32 streaming rule's
# register-A tile splits through the workspace where one round of clusters is too few blocks;
# old = m2's gemm_plans, b49b336's rules): the two products whose pick this changes, every plan
# of the TF32 wgmma tiles and Auto, new and old, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/m9.txz -C /tmp/b && tar xJf .gpu/m2.txz -C /tmp/b; B=/tmp/b/m9
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
printf "precision,layout,m,n,k,group\ntf32,nn,1024,32,16384,m9\ntf32,nn,32,1024,16384,m9\n" > $L/cases.csv
timeout 40 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
P="Auto,Tf32WgmmaRegAWide,Tf32WgmmaRegA,Tf32Wgmma64x64,Tf32Wgmma64x128"
timeout 80 $B/gemm_plans --precisions tf32 --layouts nn --shapes 1024x32x16384,32x1024x16384 --plans $P > $L/plans-new.csv 2> $L/plans-new-err.log; el "new rc=$?"
timeout 40 /tmp/b/m2/gemm_plans --precisions tf32 --layouts nn --shapes 1024x32x16384,32x1024x16384 --plans Auto > $L/plans-old.csv 2> $L/plans-old-err.log; el "old rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

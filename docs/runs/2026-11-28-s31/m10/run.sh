#!/usr/bin/env bash
# Session 31, call m10 (bundles m9 = gemm_plans with the TF32 streaming rule's workspace splits,
# m2 = without): Auto, new and old, on 42 TF32 products (14 per layout, drawn with seed 31 from
# the 584 of a grid of few-row and few-column products, sides 8-64 by 512-2048, k 2048-16384,
# whose pick the rule changes), beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/m9.txz -C /tmp/b && tar xJf .gpu/m2.txz -C /tmp/b
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
echo "precision,layout,m,n,k,group" > $L/cases.csv
S_nn="768x8x8192,32x1024x16384,2048x8x16384,1024x64x4096,32x512x16384,1000x16x8192,2048x48x6000,1024x8x6000,1000x16x6000,2048x32x16384,512x24x8192,64x768x6000,1000x64x16384,16x1000x16384"
S_tn="8x1280x16384,1024x16x16384,24x1000x16384,768x32x8192,1024x64x8192,48x1280x16384,64x1024x6000,1024x48x8192,32x512x8192,512x24x16384,24x1000x6000,1024x8x16384,1024x48x6000,512x48x16384"
S_tt="16x1536x4096,16x1536x8192,24x1280x6000,32x512x16384,24x1536x16384,48x1000x16384,768x24x6000,16x1536x16384,768x64x8192,16x2048x6000,32x768x16384,1000x48x6000,1280x48x16384,48x512x16384"
for l in nn tn tt; do v=S_$l; for s in ${!v//,/ }; do IFS=x read m n k <<< "$s"; echo "tf32,$l,$m,$n,$k,m10" >> $L/cases.csv; done; done
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for l in nn tn tt; do v=S_$l
  timeout 60 /tmp/b/m9/gemm_plans --precisions tf32 --layouts $l --shapes ${!v} --plans Auto >> $L/plans-new.csv 2>> $L/plans-new-err.log
  timeout 60 /tmp/b/m2/gemm_plans --precisions tf32 --layouts $l --shapes ${!v} --plans Auto >> $L/plans-old.csv 2>> $L/plans-old-err.log
  el "$l done"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

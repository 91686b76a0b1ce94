#!/usr/bin/env bash
# Session 41, call a6 (bundle a5: gemm_plans of 5d1c342): BF16 products of 3, 6 or 12 rows,
# 1500-12000 columns and k = 24-200 (past the tiny products the short-k tensor-core tile takes at
# most 16 rows or columns), every layout: Auto, the short-k tensor-core tile and every split of
# the narrow kernels, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/a5.txz -C /tmp/b; GP=/tmp/b/a5/gemm_plans
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S="3x1500x24,3x1500x48,3x1500x80,3x1500x130,3x1500x200,3x3177x24,3x3177x48,3x3177x80,3x3177x130,3x3177x200,3x6000x24,3x6000x48,3x6000x80,3x6000x130,3x6000x200,3x12000x24,3x12000x48,3x12000x80,3x12000x130,3x12000x200,6x1500x24,6x1500x48,6x1500x80,6x1500x130,6x1500x200,6x3177x24,6x3177x48,6x3177x80,6x3177x130,6x3177x200,6x6000x24,6x6000x48,6x6000x80,6x6000x130,6x6000x200,6x12000x24,6x12000x48,6x12000x80,6x12000x130,6x12000x200,12x1500x24,12x1500x48,12x1500x80,12x1500x130,12x1500x200,12x3177x24,12x3177x48,12x3177x80,12x3177x130,12x3177x200,12x6000x24,12x6000x48,12x6000x80,12x6000x130,12x6000x200,12x12000x24,12x12000x48,12x12000x80,12x12000x130,12x12000x200"
(echo "precision,layout,m,n,k,group"
 for l in nn nt tn tt; do for s in ${S//,/ }; do IFS=x read m n k <<< "$s"; echo "bf16,$l,$m,$n,$k,a6"; done; done) > $L/cases.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for l in nn nt tn tt; do
  timeout 200 $GP --precisions bf16 --layouts $l --shapes $S --plans Auto,ShortKMma,NarrowK,NarrowMn,WarpDot 2>> $L/err.log | tail -n +2 >> $L/plans.csv
  el "$l $(wc -l < $L/plans.csv)"
  (cd $L && tar czf $OUT/logs.tgz .)
done
el done

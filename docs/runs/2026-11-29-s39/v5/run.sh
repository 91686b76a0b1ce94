#!/usr/bin/env bash
# Session 39, call v5 (bundle w3: gemm_plans of 5740de1 + wgmma tiles split only in whole
# clusters (2-8 splits, or multiples of 8) in TileModel::best_splits; old = u8, 2f67a3b, the same
# kernels and rules): Auto of both builds alternated twice on the 14 products (of 1341: the sweep,
# the random groups, s38 u7 and s39 v3/v4) whose pick it changes and on 8 controls, beside
# PyTorch; every plan of the 14 with the new build.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in w3 u8; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="bf16:tn:11x20x3284 tf32:nn:112x1041x5862 tf32:nn:32x784x4096 tf32:nt:1024x10x4096 tf32:nt:1024x32x16384 tf32:nt:107x462x1307 tf32:nt:180x200x3917 tf32:nt:2048x10x4096 tf32:nt:256x10x4096 tf32:nt:32x1024x16384 tf32:nt:512x10x4096 tf32:tn:33x2000x5000 tf32:tt:44x647x4208 tf32:tt:819x74x1750  tf32:nt:1024x1024x4096 tf32:nn:256x1024x4096 tf32:nt:64x4096x4096 bf16:nt:2048x64x8192 tf32:nn:6998x40x3170 bf16:tn:1024x1024x4096 tf32:nt:89x4118x5637 tf32:nt:204x3615x2866"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,v5"; done) > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for b in u8 w3; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$b-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 10 /tmp/b/$b/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err.log | tail -n +2 >> $L/auto-$b-$rep.csv
  done; el "auto $b $rep"
done; done
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for x in bf16:tn:11x20x3284 tf32:nn:112x1041x5862 tf32:nn:32x784x4096 tf32:nt:1024x10x4096 tf32:nt:1024x32x16384 tf32:nt:107x462x1307 tf32:nt:180x200x3917 tf32:nt:2048x10x4096 tf32:nt:256x10x4096 tf32:nt:32x1024x16384 tf32:nt:512x10x4096 tf32:tn:33x2000x5000 tf32:tt:44x647x4208 tf32:tt:819x74x1750 ; do IFS=: read p l s <<< "$x"
  timeout 15 /tmp/b/w3/gemm_plans --precisions $p --layouts $l --shapes $s 2>> $L/err.log | tail -n +2 >> $L/plans.csv
done; el "plans"
(cd $L && tar czf $OUT/logs.tgz .)
el done

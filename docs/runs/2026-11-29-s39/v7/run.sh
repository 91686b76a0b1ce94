#!/usr/bin/env bash
# Session 39, call v7 (bundle w5: gemm_plans of d65b5a7 with a clustered split's lone block (one
# per multiprocessor, tiles of two per multiprocessor) rated at PROBE_LONE of the model's rate;
# probe only): BF16 Auto at PROBE_LONE 1 (the rule as it is) and 0.7, alternated twice, on the 35
# products (of 1341) whose BF16 pick 0.7 changes, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/w5.txz -C /tmp/b
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="bf16:nn:121x239x1648 bf16:nn:128x4096x4096 bf16:nn:2048x64x8192 bf16:nn:225x1627x3711 bf16:nn:256x1024x4096 bf16:nn:32x1024x1024 bf16:nn:32x784x1024 bf16:nn:512x512x8192 bf16:nn:512x784x4096 bf16:nt:1024x10x1024 bf16:nt:107x462x1307 bf16:nt:128x10x1024 bf16:nt:128x4096x4096 bf16:nt:12x98x828 bf16:nt:180x200x3917 bf16:nt:2048x10x1024 bf16:nt:2048x10x4096 bf16:nt:2048x64x8192 bf16:nt:256x1024x4096 bf16:nt:256x10x1024 bf16:nt:32x1024x1024 bf16:nt:4096x10x1024 bf16:nt:512x10x1024 bf16:nt:512x512x8192 bf16:nt:64x10x1024 bf16:nt:89x4118x5637 bf16:tn:10x1024x1024 bf16:tn:10x4096x1024 bf16:tn:10x4096x2048 bf16:tn:17x32x663 bf16:tn:2048x64x8192 bf16:tn:256x1024x4096 bf16:tn:3239x14x5434 bf16:tn:512x512x8192 bf16:tt:189x16x832 "
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,v7"; done) > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for t in 1 0.7; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$t-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    PROBE_LONE=$t timeout 10 /tmp/b/w5/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err.log | tail -n +2 >> $L/auto-$t-$rep.csv
  done; el "auto $t $rep"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

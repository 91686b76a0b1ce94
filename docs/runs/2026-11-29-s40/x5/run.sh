#!/usr/bin/env bash
# Session 40, call x5 (bundles x2: gemm_plans of 6ddc338; x5: x4 (the CUDA-core tiles' per-split
# costs as x3 measured them) + Tf32x3Split in one cluster at most (8 splits)): Auto of both
# builds alternated twice on the 64 products of 2723 whose pick it changes and on 6 controls,
# beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in x2 x5; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="f32:nn:11x6007x2003 f32:nn:121x239x1648 f32:nn:128x784x1024 f32:nn:128x784x4096 f32:nn:17x20x5587 f32:nn:32x4096x4096 f32:nn:4096x16x4096 f32:nn:64x1024x1024 f32:nn:64x1024x784 f32:nn:64x784x1024 f32:nn:64x784x4096 f32:nt:11x6007x2003 f32:nt:16x4096x4096 f32:nt:180x200x3917 f32:nt:18x90x4894 f32:nt:294x52x1699 f32:nt:32x4096x4096 f32:nt:4096x10x4096 f32:nt:4096x16x4096 f32:nt:6462x17x326 f32:nt:9x35x4991 f32:tn:11x20x3284 f32:tn:11x6007x2003 f32:tn:14x887x1990 f32:tn:218x51x2859 f32:tn:24x238x4476 f32:tn:3239x14x5434 f32:tn:67x377x938 f32:tn:80x78x7054 f32:tt:118x33x2544 f32:tt:11x6007x2003 f32:tt:233x18x2176 f32:tt:79x101x4453 tf32:nn:11x6007x2003 tf32:nn:121x214x1214 tf32:nn:121x239x1648 tf32:nn:17x20x5587 tf32:nn:21x16x2261 tf32:nn:300x22x7002 tf32:nn:418x13x1950 tf32:nn:759x9x1591 tf32:nt:11x6007x2003 tf32:nt:15x16x7822 tf32:nt:15x83x5721 tf32:nt:17x492x3597 tf32:nt:18x90x4894 tf32:nt:294x52x1699 tf32:nt:4350x50x3502 tf32:nt:6462x17x326 tf32:nt:9x35x4991 tf32:tn:11x20x3284 tf32:tn:11x6007x2003 tf32:tn:14x887x1990 tf32:tn:218x51x2859 tf32:tn:24x238x4476 tf32:tn:3239x14x5434 tf32:tn:67x377x938 tf32:tn:80x78x7054 tf32:tt:118x33x2544 tf32:tt:11x6007x2003 tf32:tt:233x18x2176 tf32:tt:3445x55x5395 tf32:tt:79x101x4453 tf32:tt:84x76x1478  f32:nn:1024x1024x1024 f32:nt:256x1024x1024 f32:nn:64x4096x4096 tf32:nt:64x64x16384 f32:tt:2048x2048x2048 f32:nn:256x1024x784"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,x4"; done) > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for b in x2 x5; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$b-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 10 /tmp/b/$b/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err.log | tail -n +2 >> $L/auto-$b-$rep.csv
  done; el "auto $b $rep"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

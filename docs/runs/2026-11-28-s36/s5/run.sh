#!/usr/bin/env bash
# Session 36, call s5 (bundle s3: the code of 2c2b143): every plan gemm_plans has, timed on the
# random products of s4 that fell below 0.70 of cuBLAS (>= 1 MFLOP) or behind PyTorch
# (launch-bound), beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s3.txz -C /tmp/b; B=/tmp/b/s3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="tf32:tn:4286x69x6540 tf32:nn:6998x40x3170 tf32:nt:89x4118x5637 tf32:nt:9x35x4991 tf32:nt:18x90x4894 tf32:nn:55x8109x533 tf32:nn:121x239x1648 tf32:nt:107x462x1307 tf32:nn:77x1323x181 tf32:tn:3239x14x5434 f32:nt:89x4118x5637 f32:tn:11x20x3284 f32:nn:5907x240x24 f32:nn:6304x1234x22 f32:nt:18x90x4894 bf16:nn:6x3177x80 bf16:nt:18x90x4894 bf16:nn:6998x40x3170 bf16:tn:3239x14x5434 f32:nt:1x3861x67 bf16:nt:1x1004x325 f32:nt:1x1004x325 bf16:nt:9x28x194 f32:nt:3x6269x3 bf16:nn:6x11x41 f32:tn:64x2x34 f32:tn:1391x8x41 tf32:tt:45x15x44 f32:tn:17x32x663 f32:tn:8x2x55 f32:tn:5x188x46"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,s5"; done) > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 60 $B/gemm_plans --precisions $p --layouts $l --shapes $s 2>> $L/plans-err.log | tail -n +2 >> $L/plans.csv
  el "$x"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

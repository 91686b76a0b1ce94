#!/usr/bin/env bash
# Session 39, call v4 (bundle w2: 5740de1's kernels, gemm_plans with TF32_STAGED_MIN_FLOPS read
# from PROBE_TF32_STAGED_MIN, probe only): TF32 Auto on the 24 products (random groups, sweep,
# v3's) whose pick changes when FP32's plan is no longer taken below 100 MFLOP for products whose
# operands are staged first, with the threshold at 100 M (the rule as it is), 30 M, 10 M and 0,
# alternated twice, beside PyTorch; then every TF32 plan of them.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/w2.txz -C /tmp/b
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="tf32:nn:67x4643x114 tf32:nn:77x1323x181 tf32:nn:93x1814x78 tf32:nn:105x5847x59 tf32:nn:121x214x1214 tf32:nn:121x239x1648 tf32:nn:124x109x282 tf32:nn:263x255x345 tf32:nn:330x426x79 tf32:nn:4100x156x65 tf32:nt:88x1221x375 tf32:nt:394x325x75 tf32:tn:10x1024x128 tf32:tn:10x1024x256 tf32:tn:10x1024x512 tf32:tn:10x4096x128 tf32:tn:11x20x3284 tf32:tn:128x128x128 tf32:tn:256x256x256 tf32:tn:7240x49x70 tf32:tt:84x76x1478 tf32:tt:147x945x74 tf32:tt:187x91x218 tf32:tt:1902x138x73 "
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,v4"; done) > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for t in 100000000 30000000 10000000 0; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$t-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    PROBE_TF32_STAGED_MIN=$t timeout 10 /tmp/b/w2/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err.log | tail -n +2 >> $L/auto-$t-$rep.csv
  done; el "auto $t $rep"
done; done
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 10 /tmp/b/w2/gemm_plans --precisions $p --layouts $l --shapes $s 2>> $L/err.log | tail -n +2 >> $L/plans.csv
done; el "plans"
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 40, call x8 (bundles x8: gemm_plans of 95b7026; x9: x8 + the warp-per-column kernel's
# full-grid rule only from k = 128, WARPDOT_T_MIN_K): Auto of both builds alternated twice on
# the products it moves (nt 1x3861x67 of the random groups and made-up few-row products with a
# k under 128 and a full grid) and 2 controls, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in x8 x9; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="f32:nt:1x3861x67 bf16:nt:1x3861x67 tf32:nt:1x3861x67 f32:nt:2x5000x100 bf16:nt:2x5000x100 f32:nt:4x8000x64 bf16:nt:4x8000x64 f32:nt:3x2500x120 bf16:nt:3x2500x120 f32:tt:1x6000x90 bf16:tt:1x6000x90 f32:nt:1x1200x40 f32:nt:1x1004x325"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,x8"; done) > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for b in x8 x9; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$b-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 10 /tmp/b/$b/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err.log | tail -n +2 >> $L/auto-$b-$rep.csv
  done; el "auto $b $rep"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

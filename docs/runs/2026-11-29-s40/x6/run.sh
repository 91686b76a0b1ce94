#!/usr/bin/env bash
# Session 40, call x6 (bundle y1, the final rules 78a12a4): every plan of the launch-bound
# products (under 1 MFLOP) of the random groups at session 36's seeds that ran slower than
# PyTorch in y2, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/y1.txz -C /tmp/b; B=/tmp/b/y1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="f32:nt:3x6269x3 f32:tn:5x188x46 f32:nt:1x1004x325 f32:tn:396x7x174 f32:nt:1x3861x67 f32:nt:9x28x194 f32:nt:67x1x12 f32:nn:6x11x41 f32:tt:45x15x44 f32:tn:17x32x663 f32:tt:2x3330x29 f32:tn:1391x8x41 f32:tt:530x7x51 f32:tt:1x146x245 tf32:tt:530x7x51 tf32:tn:396x7x174 tf32:nt:9x28x194 bf16:nt:3x6269x3 bf16:nt:1x1004x325 bf16:tt:1x146x245 bf16:nt:9x28x194"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,x6"; done) > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for x in $CASES; do IFS=: read p l s <<< "$x"
  [ $(( $(date +%s) - T0 )) -gt 400 ] && { el "stopped before $x"; break; }
  timeout 40 $B/benches/gemm_plans --precisions $p --layouts $l --shapes $s 2>> $L/err.log | tail -n +2 >> $L/plans.csv; el "plans $x"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

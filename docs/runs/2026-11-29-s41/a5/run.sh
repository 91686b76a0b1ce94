#!/usr/bin/env bash
# Session 41, call a5 (bundles a5: gemm_plans of main + the warp-per-column kernel short of a full
# grid up to k = 1023; z2old: gemm_plans of 0b7a880, the rules before): Auto of both builds
# alternated twice on the 21 products of 2819 (sweep, random groups, plan files of sessions
# 22-40) whose pick the rule changes, 30 more few-row products it changes, and 7 controls,
# beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in a5 z2old; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="bf16:nt:1x1004x325 bf16:nt:1x786x921 bf16:nt:1x929x583 bf16:nt:4x1000x777 bf16:nt:4x636x862 bf16:tt:1x786x921 bf16:tt:4x1000x777 f32:nt:1x1004x325 f32:nt:1x786x921 f32:nt:1x929x583 f32:nt:4x1000x777 f32:nt:4x636x862 f32:tt:1x786x921 f32:tt:4x1000x777 tf32:nt:1x1004x325 tf32:nt:1x786x921 tf32:nt:1x929x583 tf32:nt:4x1000x777 tf32:nt:4x636x862 tf32:tt:1x786x921 tf32:tt:4x1000x777 f32:nt:1x500x325 f32:nt:4x900x700 f32:nt:1x700x1023 f32:nt:2x600x512 f32:nt:3x800x400 f32:tt:1x500x325 f32:tt:4x900x700 f32:tt:1x700x1023 f32:tt:2x600x512 f32:tt:3x800x400 tf32:nt:1x500x325 tf32:nt:4x900x700 tf32:nt:1x700x1023 tf32:nt:2x600x512 tf32:nt:3x800x400 tf32:tt:1x500x325 tf32:tt:4x900x700 tf32:tt:1x700x1023 tf32:tt:2x600x512 tf32:tt:3x800x400 bf16:nt:1x500x325 bf16:nt:4x900x700 bf16:nt:1x700x1023 bf16:nt:2x600x512 bf16:nt:3x800x400 bf16:tt:1x500x325 bf16:tt:4x900x700 bf16:tt:1x700x1023 bf16:tt:2x600x512 bf16:tt:3x800x400 f32:nt:1x4096x4096 bf16:nt:4x8000x64 f32:nt:1x165x7552 tf32:tt:4x500x2000 f32:nt:1x3861x67 bf16:nt:1x1050x700 f32:nn:64x1024x1024"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,a5"; done) > $L/cases.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for b in z2old a5; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$b-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 20 /tmp/b/$b/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err-$b.log | tail -n +2 >> $L/auto-$b-$rep.csv
  done; el "auto $b $rep $(wc -l < $L/auto-$b-$rep.csv)"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 36, call s2 (bundle r8gp: gemm_plans of session 35's final code): few-column products
# with a long k (n = 1 to 4, k = 8192 to 65536) in every layout, every narrow plan at every
# split count beside Auto (f32 and bf16; TF32's Auto too), and PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r8gp.txz -C /tmp/b; B=/tmp/b/r8gp/gemm_plans
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH="1024x1x16384 512x1x32768 2048x1x16384 1000x1x20000 4096x1x8192 256x2x65536 1024x4x16384 1536x3x10000 768x1x12288"
CASES=""; for s in $SH; do for l in nn nt tn tt; do for p in f32 tf32 bf16; do CASES="$CASES $p:$l:$s"; done; done; done
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,s2"; done) > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for x in $CASES; do IFS=: read p l s <<< "$x"
  if [ $p = tf32 ]; then P=Auto; else P=Auto,RowDot,NarrowK,NarrowMn,WarpDot; fi
  timeout 60 $B --precisions $p --layouts $l --shapes $s --plans $P 2>> $L/plans-err.log | tail -n +2 >> $L/plans.csv
done; el "plans done"
(cd $L && tar czf $OUT/logs.tgz .)
el done

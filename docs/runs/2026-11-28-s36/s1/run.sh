#!/usr/bin/env bash
# Session 36, call s1 (bundle s1: the working tree with the starved consumer's early release;
# r8gp = gemm_plans of session 35s final bundle r8): the op tests of the new build; Auto, old and new alternated
# twice, on the lone-block family and BF16/TF32 products from small to large, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s1.txz -C /tmp/b && tar xJf .gpu/r8gp.txz -C /tmp/b
NEW=/tmp/b/s1/gemm_plans; OLD=/tmp/b/r8gp/gemm_plans
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH_BF="nn:1024x784x4096 tn:1024x784x4096 nt:1024x784x4096 tn:1024x1024x4096 tn:1024x784x2048 nn:256x4096x4096 nt:4096x64x4096 nn:512x784x1024 tn:1536x1536x1536 nn:768x768x6000 nt:2048x2048x2048 nt:4096x4096x4096 nn:3000x3000x3000 tt:1000x1000x1000 nt:256x1024x784 nt:1024x1024x784 tn:1024x1024x256 nt:600x1400x5000 nn:1280x1024x3000 nt:8192x8192x4096"
SH_TF="nt:1024x1024x4096 nn:1024x784x4096 tn:1024x784x4096 nt:4096x4096x4096 nn:2048x2048x2048 tt:335x160x2025 nt:1024x1024x784 nt:256x4096x4096 nn:3000x3000x3000 tn:1536x1536x1536"
CASES=""; for x in $SH_BF; do CASES="$CASES bf16:$x"; done; for x in $SH_TF; do CASES="$CASES tf32:$x"; done
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,s1"; done) > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "tag,precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto.csv
for rep in 1 2; do
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 30 $NEW --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/new$rep,/" >> $L/auto.csv
    timeout 30 $OLD --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/old$rep,/" >> $L/auto.csv
  done; el "auto rep $rep done"
  (cd $L && tar czf $OUT/logs.tgz .)
done
(timeout 240 /tmp/b/s1/ops > $L/ops.log 2>&1; echo "ops rc=$?" >> $L/ops.log); el "$(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops.log | head
xz -9 $L/ops.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

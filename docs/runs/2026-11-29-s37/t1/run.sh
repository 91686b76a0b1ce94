#!/usr/bin/env bash
# Session 37, call t1 (bundle s7: the code of c7880d4, the plans of the final code): every plan
# on the random groups' TF32/FP32 misses whose operand rows are off 16 bytes, each beside a twin
# whose rows are 16-byte aligned (k or the outer side rounded up to a multiple of 4), and PyTorch
# on both: how much of each miss is the copy path for rows off 16 bytes.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s7.txz -C /tmp/b; B=/tmp/b/s7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="tf32:nn:6998x40x3170 tf32:nn:6998x40x3172 tf32:tn:4286x69x6540 tf32:tn:4288x72x6540 tf32:nt:89x4118x5637 tf32:nt:89x4118x5640 tf32:nt:18x90x4894 tf32:nt:18x90x4896 tf32:tn:3239x14x5434 tf32:tn:3240x16x5436 tf32:nn:55x8109x533 tf32:nn:55x8112x536 tf32:nn:121x239x1648 tf32:nn:121x240x1648 tf32:nt:107x462x1307 tf32:nt:107x462x1308 tf32:nt:9x35x4991 tf32:nt:9x35x4992 f32:nt:89x4118x5637 f32:nt:89x4118x5640 f32:nn:6998x40x3170 f32:nn:6998x40x3172"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,t1"; done) > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 60 $B/gemm_plans --precisions $p --layouts $l --shapes $s 2>> $L/plans-err.log | tail -n +2 >> $L/plans.csv
  el "$x"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 37, call t7 (bundle t7: the padded-row staging copy, its price in the TF32 model and in
# FP32's Tf32x3Split pricing; s7 = c7880d4, the code before): the op and nn tests; Auto, old and
# new alternated twice, on t5's TF32 products and the FP32 products whose pick the new pricing
# changes (6 of 1500 drawn at random, plan_replay --pick) with the FP32 misses, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/t7.txz -C /tmp/b && tar xJf .gpu/s7.txz -C /tmp/b
NEW=/tmp/b/t7/gemm_plans; OLD=/tmp/b/s7/gemm_plans; B=/tmp/b/t7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do (timeout 200 $B/$t > $L/$t.log 2>&1; echo "$t rc=$?" >> $L/$t.log); el "$(grep -E '^test result|rc=' $L/$t.log | tr '\n' ' ')"; grep -E "FAILED|panicked" $L/$t.log | head; xz -9 $L/$t.log; done
(cd $L && tar czf $OUT/logs.tgz .)
MIS="tf32:nn:6998x40x3170 tf32:nt:89x4118x5637 tf32:nt:18x90x4894 tf32:nn:55x8109x533 tf32:nn:121x239x1648 tf32:nt:107x462x1307 tf32:nt:9x35x4991 tf32:tn:4286x69x6540 tf32:tn:3239x14x5434"
RND="tf32:nt:2144x618x214 tf32:nt:5956x1466x18 tf32:nn:112x1041x5862 tf32:tt:819x74x1750 tf32:tt:1204x156x7045 tf32:nn:137x3603x154 tf32:nt:204x3615x2866 tf32:tt:3356x193x905 tf32:nt:170x673x854 tf32:nt:610x1446x971 tf32:nn:4831x4273x227 tf32:tt:1211x4099x75 tf32:tt:2767x178x3486 tf32:nt:1422x3230x181 tf32:tt:4996x417x47 tf32:tt:42x5783x6414"
F32="f32:nt:34x4484x950 f32:nt:39x1438x1258 f32:tt:11x41x2531 f32:nt:183x1984x113 f32:tt:45x2130x521 f32:tt:54x3393x269 f32:nt:89x4118x5637 f32:nn:6998x40x3170 f32:nt:18x90x4894"
CTL="tf32:nt:1024x1024x1024 tf32:nn:256x1024x784 tf32:tt:1000x1000x1000 f32:nt:1000x1000x1000 f32:nn:256x1024x784"
CASES="$MIS $RND $F32 $CTL"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,t7"; done) > $L/cases-auto.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases-auto.csv > $L/torch-auto.csv 2> $L/torch-auto-err.log; el "torch auto rc=$?"
echo "tag,precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto.csv
for rep in 1 2; do
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 30 $NEW --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/new$rep,/" >> $L/auto.csv
    timeout 30 $OLD --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/old$rep,/" >> $L/auto.csv
  done; el "auto rep $rep done"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

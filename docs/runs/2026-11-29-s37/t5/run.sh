#!/usr/bin/env bash
# Session 37, call t5 (bundle t5: the working tree with k-contiguous TF32 operands whose rows
# break 16-byte alignment staged by a plain padded-row copy, gemm_stage_pad_f32, instead of the
# transposing 32x32 tiles; s7 = c7880d4, the code before): the op tests; every plan (new build)
# on t1's products with rows off 16 bytes; Auto, old and new alternated twice, on those, 40
# random TF32 products with k off a multiple of 4 (seed 37112901, sides log-uniform in [8,
# 8192], >= 1 MFLOP) and aligned controls, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/t5.txz -C /tmp/b && tar xJf .gpu/s7.txz -C /tmp/b
NEW=/tmp/b/t5/gemm_plans; OLD=/tmp/b/s7/gemm_plans; B=/tmp/b/t5
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 240 $B/ops > $L/ops.log 2>&1; echo "ops rc=$?" >> $L/ops.log); el "$(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"; grep -E "FAILED|panicked|failed" $L/ops.log | head -20; xz -9 $L/ops.log
(cd $L && tar czf $OUT/logs.tgz .)
MIS="tf32:nn:6998x40x3170 tf32:nt:89x4118x5637 tf32:nt:18x90x4894 tf32:nn:55x8109x533 tf32:nn:121x239x1648 tf32:nt:107x462x1307 tf32:nt:9x35x4991 tf32:tn:4286x69x6540 tf32:tn:3239x14x5434"
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for x in $MIS; do IFS=: read p l s <<< "$x"
  timeout 60 $NEW --precisions $p --layouts $l --shapes $s 2>> $L/plans-err.log | tail -n +2 >> $L/plans.csv
done; el "plans done"
(cd $L && tar czf $OUT/logs.tgz .)
RND="tf32:nn:38x1603x55 tf32:nt:2144x618x214 tf32:nn:105x5847x59 tf32:nt:5956x1466x18 tf32:nn:112x1041x5862 tf32:tt:819x74x1750 tf32:nt:88x1221x375 tf32:tt:1204x156x7045 tf32:nn:137x3603x154 tf32:nt:204x3615x2866 tf32:nn:124x109x282 tf32:tn:1961x396x2509 tf32:nt:15x16x7822 tf32:tn:512x54x319 tf32:tn:37x217x1022 tf32:tt:3356x193x905 tf32:tn:446x18x1697 tf32:tt:7545x16x99 tf32:tt:207x39x1529 tf32:nt:170x673x854 tf32:tn:159x520x39 tf32:nn:4100x156x65 tf32:nt:991x97x62 tf32:tn:1258x3842x45 tf32:nt:127x33x541 tf32:tt:84x76x1478 tf32:tn:62x388x43 tf32:nt:735x18x5215 tf32:tt:1211x4099x75 tf32:tt:33x5555x3747 tf32:nt:394x325x75 tf32:nn:3656x11x303 tf32:nn:67x4643x114 tf32:tn:65x3901x26 tf32:nn:21x16x2261 tf32:nt:610x1446x971 tf32:tn:125x1491x3009 tf32:tn:2023x1181x7306 tf32:tn:1169x235x2049 tf32:nn:4831x4273x227"
CTL="tf32:nt:1024x1024x1024 tf32:nn:256x1024x784 tf32:nt:4096x4096x4096 tf32:tt:1000x1000x1000 tf32:nt:1000x1000x1000 tf32:nn:3000x3000x3000"
CASES="$MIS $RND $CTL"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,t5"; done) > $L/cases-auto.csv
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

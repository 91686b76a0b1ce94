#!/usr/bin/env bash
# Session 42, call ab2 (bundles b6: b5 with TF32_STAGED_MIN_FLOPS 25 M instead of 100 M; b5:
# ae7a502): Auto of both builds alternated twice on the 19 products of 2819 whose pick changes
# (TF32 products of 25-100 MFLOP whose wgmma plans stage an operand: the cost model's TF32
# plan instead of FP32's) and 4 controls, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in b6 b5; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="tf32:nn:105x5847x59 tf32:nn:121x214x1214 tf32:nn:121x239x1648 tf32:nn:229x129x894 tf32:nn:263x255x345 tf32:nn:4100x156x65 tf32:nn:67x4643x114 tf32:nn:77x1323x181 tf32:nn:93x1814x78 tf32:nt:145x690x202 tf32:nt:88x1221x375 tf32:tn:256x256x256 tf32:tn:67x377x938 tf32:tn:7240x49x70 tf32:tn:80x78x7054 tf32:tt:110x1959x98 tf32:tt:14x499x6896 tf32:tt:1902x138x73 tf32:tt:79x101x4453 tf32:nn:1001x1001x1001 tf32:nt:1024x1024x1024 tf32:nn:6998x40x3170 f32:nn:121x239x1648"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,ab2"; done) > $L/cases.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for b in b5 b6; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$b-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 20 /tmp/b/$b/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err-$b.log | tail -n +2 >> $L/auto-$b-$rep.csv
  done; el "auto $b $rep $(wc -l < $L/auto-$b-$rep.csv)"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

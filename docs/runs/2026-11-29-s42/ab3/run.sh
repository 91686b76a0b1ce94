#!/usr/bin/env bash
# Session 42, call ab3 (bundles b7: the cp.async-fed tiles' register-operand copies with an L2
# prefetch hint of 256 bytes, an experiment; b5: ae7a502): Auto of both alternated twice on
# ab1's products (23 on the new tiles, 7 controls), beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in b7 b5; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="tf32:nn:112x1041x5862 tf32:nn:169x1861x6669 tf32:nn:216x2162x2275 tf32:nn:225x1627x3711 tf32:nn:2653x33x8115 tf32:nn:5023x38x915 tf32:nn:55x8109x533 tf32:nn:66x7490x1919 tf32:nn:6998x40x3170 tf32:nt:4350x50x3502 tf32:nt:89x4118x5637 tf32:tn:1186x47x7488 tf32:tn:1268x214x6640 tf32:tn:2087x68x3358 tf32:tn:4286x69x6540 tf32:tn:90x3527x2207 tf32:tt:1204x156x7045 tf32:tt:2649x70x2828 tf32:tt:2767x178x3486 tf32:tt:3250x70x7693 tf32:tt:33x5555x3747 tf32:tt:3445x55x5395 tf32:tt:42x5783x6414 tf32:nn:1001x1001x1001 tf32:nt:2603x3916x386 tf32:tn:3905x2697x47 tf32:tt:333x4097x777 tf32:nt:1024x1024x1024 tf32:nn:2047x2047x2047 f32:nn:6998x40x3170"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,ab3"; done) > $L/cases.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for b in b5 b7; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$b-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 20 /tmp/b/$b/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err-$b.log | tail -n +2 >> $L/auto-$b-$rep.csv
  done; el "auto $b $rep $(wc -l < $L/auto-$b-$rep.csv)"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

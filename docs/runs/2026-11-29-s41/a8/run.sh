#!/usr/bin/env bash
# Session 41, call a8 (bundles a8: gemm_plans of c342403 + no narrow-kernel split below k = 256
# (plan::NARROW_MIN_SPLIT_K); a7: c342403): Auto of both builds alternated twice on the 148
# few-row products of a6's family (three precisions) and 3 of 2819 whose pick the rule changes,
# and 6 controls (narrow plans with k = 256-4096 that keep their splits), beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in a7 a8; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="bf16:nn:3x1500x130 bf16:nn:3x1500x200 bf16:nn:3x3177x80 bf16:nn:3x3177x130 bf16:nn:3x3177x200 bf16:nn:3x6000x80 bf16:nn:3x6000x130 bf16:nn:3x6000x200 bf16:nn:3x12000x80 bf16:nn:3x12000x130 bf16:nn:3x12000x200 bf16:nn:6x1500x130 bf16:nn:6x1500x200 bf16:nn:6x3177x80 bf16:nn:6x3177x130 bf16:nn:6x3177x200 bf16:nn:6x6000x80 bf16:nn:6x6000x130 bf16:nn:6x6000x200 bf16:nn:6x12000x80 bf16:nn:6x12000x130 bf16:nn:6x12000x200 bf16:nt:6x1500x200 bf16:nt:6x3177x200 bf16:tn:3x1500x130 bf16:tn:3x1500x200 bf16:tn:3x3177x80 bf16:tn:3x3177x130 bf16:tn:3x3177x200 bf16:tn:3x6000x80 bf16:tn:3x6000x130 bf16:tn:3x6000x200 bf16:tn:3x12000x80 bf16:tn:3x12000x130 bf16:tn:3x12000x200 bf16:tn:6x1500x130 bf16:tn:6x1500x200 bf16:tn:6x3177x80 bf16:tn:6x3177x130 bf16:tn:6x3177x200 bf16:tn:6x6000x80 bf16:tn:6x6000x130 bf16:tn:6x6000x200 bf16:tn:6x12000x80 bf16:tn:6x12000x130 bf16:tn:6x12000x200 bf16:tt:6x1500x200 bf16:tt:6x3177x200 f32:nn:3x1500x130 f32:nn:3x1500x200 f32:nn:3x3177x80 f32:nn:3x3177x130 f32:nn:3x3177x200 f32:nn:3x6000x80 f32:nn:3x6000x130 f32:nn:3x6000x200 f32:nn:3x12000x80 f32:nn:3x12000x130 f32:nn:3x12000x200 f32:nn:6x1500x130 f32:nn:6x1500x200 f32:nn:6x3177x80 f32:nn:6x3177x130 f32:nn:6x3177x200 f32:nn:6x6000x80 f32:nn:6x6000x130 f32:nn:6x6000x200 f32:nn:6x12000x80 f32:nn:6x12000x130 f32:nn:6x12000x200 f32:nn:12x6000x200 f32:nt:6x1500x200 f32:nt:6x3177x200 f32:nt:12x1500x200 f32:tn:3x1500x130 f32:tn:3x1500x200 f32:tn:3x3177x80 f32:tn:3x3177x130 f32:tn:3x3177x200 f32:tn:3x6000x80 f32:tn:3x6000x130 f32:tn:3x6000x200 f32:tn:3x12000x80 f32:tn:3x12000x130 f32:tn:3x12000x200 f32:tn:6x1500x130 f32:tn:6x1500x200 f32:tn:6x3177x80 f32:tn:6x3177x130 f32:tn:6x3177x200 f32:tn:6x6000x80 f32:tn:6x6000x130 f32:tn:6x6000x200 f32:tn:6x12000x80 f32:tn:6x12000x130 f32:tn:6x12000x200 f32:tn:12x6000x200 f32:tt:6x1500x200 f32:tt:6x3177x200 f32:tt:12x1500x200 tf32:nn:3x1500x130 tf32:nn:3x1500x200 tf32:nn:3x3177x80 tf32:nn:3x3177x130 tf32:nn:3x3177x200 tf32:nn:3x6000x80 tf32:nn:3x6000x130 tf32:nn:3x6000x200 tf32:nn:3x12000x80 tf32:nn:3x12000x130 tf32:nn:3x12000x200 tf32:nn:6x1500x130 tf32:nn:6x1500x200 tf32:nn:6x3177x80 tf32:nn:6x3177x130 tf32:nn:6x3177x200 tf32:nn:6x6000x80 tf32:nn:6x6000x130 tf32:nn:6x6000x200 tf32:nn:6x12000x80 tf32:nn:6x12000x130 tf32:nn:6x12000x200 tf32:nn:12x6000x200 tf32:tn:3x1500x130 tf32:tn:3x1500x200 tf32:tn:3x3177x80 tf32:tn:3x3177x130 tf32:tn:3x3177x200 tf32:tn:3x6000x80 tf32:tn:3x6000x130 tf32:tn:3x6000x200 tf32:tn:3x12000x80 tf32:tn:3x12000x130 tf32:tn:3x12000x200 tf32:tn:6x1500x130 tf32:tn:6x1500x200 tf32:tn:6x3177x80 tf32:tn:6x3177x130 tf32:tn:6x3177x200 tf32:tn:6x6000x80 tf32:tn:6x6000x130 tf32:tn:6x6000x200 tf32:tn:6x12000x80 tf32:tn:6x12000x130 tf32:tn:6x12000x200 tf32:tn:12x6000x200 tf32:tt:6x1500x200 tf32:tt:6x3177x200 bf16:tt:7723x6x92 f32:tt:7723x6x92 tf32:tt:7723x6x92 f32:tn:10x4096x256 bf16:tt:1770x8x468 f32:nt:1057x4x478 f32:nt:1x4096x4096 bf16:nt:3x3177x80 f32:nn:2x1804x379"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,a8"; done) > $L/cases.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for b in a7 a8; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$b-$rep.csv
  for p in f32 tf32 bf16; do for l in nn nt tn tt; do
    S=$(for x in $CASES; do IFS=: read pp ll s <<< "$x"; [ $pp = $p ] && [ $ll = $l ] && echo -n "$s,"; done | sed 's/,$//')
    [ -n "$S" ] && timeout 60 /tmp/b/$b/gemm_plans --precisions $p --layouts $l --shapes $S --plans Auto 2>> $L/err-$b.log | tail -n +2 >> $L/auto-$b-$rep.csv
  done; done; el "auto $b $rep $(wc -l < $L/auto-$b-$rep.csv)"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

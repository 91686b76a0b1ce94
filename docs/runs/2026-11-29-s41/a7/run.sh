#!/usr/bin/env bash
# Session 41, call a7 (bundles a7: gemm_plans of 5d1c342 + BF16 products of 3-16 rows or columns
# with k <= 64 and a wide operand of at most 2^19 elements on the short-k tensor-core tile first
# (shortk_mma_few_rows); a5: 5d1c342): BF16 Auto of both builds alternated twice on the 11
# products of 2819 whose pick the rule changes, 24 more it changes, 6 controls, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in a5 a7; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="bf16:nn:9x5173x39 bf16:nt:3x524x56 bf16:nt:4x261x26 bf16:nt:9x5173x39 bf16:tn:10x4096x32 bf16:tn:10x4096x64 bf16:tn:9x5173x39 bf16:tt:4x63x40 bf16:tt:5069x5x50 bf16:tt:5721x3x17 bf16:tt:9x5173x39 bf16:nn:5x2000x40 bf16:nn:16x3000x60 bf16:nn:8x8000x32 bf16:nn:4x700x20 bf16:nn:7x4500x64 bf16:nn:2000x13x30 bf16:nt:5x2000x40 bf16:nt:16x3000x60 bf16:nt:8x8000x32 bf16:nt:4x700x20 bf16:nt:7x4500x64 bf16:nt:2000x13x30 bf16:tn:5x2000x40 bf16:tn:16x3000x60 bf16:tn:8x8000x32 bf16:tn:4x700x20 bf16:tn:7x4500x64 bf16:tn:2000x13x30 bf16:tt:5x2000x40 bf16:tt:16x3000x60 bf16:tt:8x8000x32 bf16:tt:4x700x20 bf16:tt:7x4500x64 bf16:tt:2000x13x30 bf16:nn:6x3177x80 bf16:nt:3x3177x80 bf16:nt:1x1004x325 bf16:tn:3x12000x48 bf16:nn:64x1024x1024 bf16:nt:2x600x512"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,a7"; done) > $L/cases.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for b in a5 a7; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$b-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 20 /tmp/b/$b/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err-$b.log | tail -n +2 >> $L/auto-$b-$rep.csv
  done; el "auto $b $rep $(wc -l < $L/auto-$b-$rep.csv)"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

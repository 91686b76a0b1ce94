#!/usr/bin/env bash
# Session 36, call s9 (bundle s9: the working tree with warpdot_crowded; s7 = c7880d4): the op
# and nn tests; Auto, old (s7) and new alternated twice, on products with at most 4 rows or
# columns and a short k over more than a wave of the warp-per-column kernel's blocks, and on
# those it keeps, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s9.txz -C /tmp/b && tar xJf .gpu/s7.txz -C /tmp/b
NEW=/tmp/b/s9/gemm_plans; OLD=/tmp/b/s7/gemm_plans; B=/tmp/b/s9
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do (timeout 200 $B/$t > $L/$t.log 2>&1; echo "$t rc=$?" >> $L/$t.log); el "$(grep -E '^test result|rc=' $L/$t.log | tr '\n' ' ')"; grep -E "FAILED|panicked" $L/$t.log | head; xz -9 $L/$t.log; done
(cd $L && tar czf $OUT/logs.tgz .)
SH="nt:1x3861x67 nt:3x6269x3 nt:2x1080x7 nt:1x2000x100 nt:4x1500x64 nn:3000x1x40 nt:3000x1x40 tt:3000x1x40 nt:2x5000x30 tn:6000x3x50 nt:1200x1x120 nn:1x4000x90 nt:2x979x70 nt:1x687x18 nt:1130x1x248 nt:300x1x50"
CASES=""; for x in $SH; do for p in f32 bf16; do CASES="$CASES $p:$x"; done; done
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,s9"; done) > $L/cases-auto.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-auto.csv > $L/torch-auto.csv 2> $L/torch-auto-err.log; el "torch auto rc=$?"
echo "tag,precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto.csv
for rep in 1 2; do
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 30 $NEW --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/new$rep,/" >> $L/auto.csv
    timeout 30 $OLD --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/old$rep,/" >> $L/auto.csv
  done; el "auto rep $rep done"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

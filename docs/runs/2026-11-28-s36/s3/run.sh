#!/usr/bin/env bash
# Session 36, call s3 (bundle s3: the rule rowdot_rows_too_long; r8gp = gemm_plans of session
# 35's final code): the op and nn tests; Auto, old and new alternated twice, on few-column
# products (s2's, r5's nt set, narrow output layers) beside PyTorch; the row-per-warp and narrow
# kernels at every split on 8 to 16 columns with a long k; the sweep at session 27's seed.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s3.txz -C /tmp/b && tar xJf .gpu/r8gp.txz -C /tmp/b
NEW=/tmp/b/s3/gemm_plans; OLD=/tmp/b/r8gp/gemm_plans; B=/tmp/b/s3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do (timeout 200 $B/$t > $L/$t.log 2>&1; echo "$t rc=$?" >> $L/$t.log); el "$(grep -E '^test result|rc=' $L/$t.log | tr '\n' ' ')"; grep -E "FAILED|panicked" $L/$t.log | head; xz -9 $L/$t.log; done
(cd $L && tar czf $OUT/logs.tgz .)
SH="nt:1024x1x16384 nt:512x1x32768 nt:2048x1x16384 nt:1000x1x20000 nt:256x2x65536 nt:1024x4x16384 nt:1536x3x10000 nt:768x1x12288 nt:50x2x7000 nt:65x3x4099 nt:394x4x1426 nt:454x1x1813 nt:4096x4x4096 nt:16384x1x1024 nt:256x10x1024 nt:1024x10x1024 nt:4096x10x1024 nn:1024x1x16384 tn:1024x1x16384 tt:1024x1x16384 nn:256x2x65536 tt:1024x4x16384"
CASES=""; for x in $SH; do for p in f32 tf32; do CASES="$CASES $p:$x"; done; done
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,s3"; done) > $L/cases-auto.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases-auto.csv > $L/torch-auto.csv 2> $L/torch-auto-err.log; el "torch auto rc=$?"
echo "tag,precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto.csv
for rep in 1 2; do
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 30 $NEW --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/new$rep,/" >> $L/auto.csv
    timeout 30 $OLD --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/old$rep,/" >> $L/auto.csv
  done; el "auto rep $rep done"
done
(cd $L && tar czf $OUT/logs.tgz .)
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans-wide.csv
for s in 1024x10x16384 512x8x32768 1024x16x16384 300x12x20000; do
  timeout 60 $NEW --precisions f32 --layouts nt --shapes $s --plans Auto,RowDot,NarrowK 2>> $L/plans-err.log | tail -n +2 >> $L/plans-wide.csv
done; el "plans wide done"
(cd $L && tar czf $OUT/logs.tgz .)
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 110 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

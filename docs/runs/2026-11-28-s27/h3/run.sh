#!/usr/bin/env bash
# Session 27, call h3 (bundle h3 = h2 + the 4x4-output FP32 tiles (Tile32x64, Tile64x32,
# Tile64Fine) keeping two k-slices in flight): op and nn tests; those tiles at every split in
# h3 and h2 on h1's FP32 products and on larger ones; Auto of h3 and h2 on h1's 53 products;
# the sweep beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in h3 h2; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/h3
L=/tmp/logs; rm -rf $L; mkdir -p $L
D=docs/runs/2026-11-28-s27
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do timeout 200 $B/$t > $L/test-$t.log 2>&1; echo "rc=$?" >> $L/test-$t.log; el "$t: $(grep -E '^test result' $L/test-$t.log | tail -1) $(tail -1 $L/test-$t.log)"; done
grep -E "FAILED|panicked|failed:" $L/test-*.log | head -20
T=Tile32x64,Tile64x32,Tile64Fine
for v in h3 h2; do
  grep -v '^#' $D/h1/cases.csv | tail -n +2 | grep -v '^bf16' | while IFS=, read p l m n k g; do
    /tmp/b/$v/gemm_plans --precisions f32 --layouts $l --shapes ${m}x${n}x${k} --plans $T 2>/dev/null | grep -v '^precision' >> $L/tiles-$v.csv
  done
  /tmp/b/$v/gemm_plans --precisions f32 --layouts nn,tn,tt --shapes 768x768x768,1024x1024x256,512x512x512,256x1024x784,32x4096x4096,4096x32x1024,1000x1000x333 --plans $T 2>/dev/null | grep -v '^precision' >> $L/tiles-$v.csv
done; el "tiles done"
for v in h3 h2; do
  grep -v '^#' $D/h1/cases.csv | tail -n +2 | while IFS=, read p l m n k g; do
    /tmp/b/$v/gemm_plans --precisions $p --layouts $l --shapes ${m}x${n}x${k} --plans Auto 2>/dev/null | grep -v '^precision' >> $L/auto-$v.csv
  done
done; el "A/B done"
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 220 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
for t in ops nn; do xz -9 $L/test-$t.log; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

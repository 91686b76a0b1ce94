#!/usr/bin/env bash
# Session 30, call k4 (bundle k4 = the op tests, gemm_sweep and gemm_plans of 9f4dd9e: k3's code
# with TF32 tn transposing op(B) only up to k = 384): the op tests; the sweep (all three
# precisions) beside PyTorch at session 27's seed; TF32 tn plans at k = 384-768; the random
# group of TF32 and BF16 at k2's seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/k4.txz -C /tmp/b; B=/tmp/b/k4
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops > $L/ops-tests.log 2>&1; echo "ops rc=$?" >> $L/ops-tests.log); el "$(grep -E '^test result|rc=' $L/ops-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops-tests.log | head
xz -9 $L/ops-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 80 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
timeout 60 $B/benches/gemm_plans --precisions tf32 --layouts tn --shapes 384x384x384,512x512x512,640x640x640,768x768x768,1024x784x512 --plans Auto,Tf32WgmmaRegA,Tf32Wgmma64x128,Tf32Wgmma64x64 > $L/plans-tn.csv 2> $L/plans-tn-err.log; el "tn plans rc=$?"
for s in 30112801 30112802; do
  $B/benches/gemm_sweep --list --groups random --precisions tf32,bf16 --seed $s > $L/cases-$s.csv
  timeout 50 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 70 $B/benches/gemm_sweep --groups random --precisions tf32,bf16 --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "seed $s rc=$?"; grep -E "^tf32 all|^bf16 all" $L/sweep-$s.log
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

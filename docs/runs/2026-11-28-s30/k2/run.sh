#!/usr/bin/env bash
# Session 30, call k2 (bundle k2 = scripts/gpu-bundle of 3f8f47e: BF16 Auto runs few tiles with a
# short k unsplit on the 64x32 tile, TF32 Auto runs FP32's plan on short k past one block of
# 32x32 tiles per SM): the sweep (all three precisions) beside PyTorch at session 27's seed;
# the random group of BF16 and TF32 at two new seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/k2.txz -C /tmp/b; B=/tmp/b/k2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 80 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
for s in 30112801 30112802; do
  $B/benches/gemm_sweep --list --groups random --precisions tf32,bf16 --seed $s > $L/cases-$s.csv
  timeout 50 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 70 $B/benches/gemm_sweep --groups random --precisions tf32,bf16 --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "seed $s rc=$?"; grep -E "^tf32 all|^bf16 all" $L/sweep-$s.log
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

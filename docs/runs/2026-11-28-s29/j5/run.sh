#!/usr/bin/env bash
# Session 29, call j5 (bundle j4, the final code): the sweep (all three precisions) beside
# PyTorch at session 27's seed, and the BF16 random group at j4's two seeds, on an H200.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/j4.txz -C /tmp/b; B=/tmp/b/j4
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 70 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 170 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
for s in 29112801 29112802; do
  $B/benches/gemm_sweep --list --groups random --precisions bf16 --seed $s > $L/cases-$s.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 60 $B/benches/gemm_sweep --groups random --precisions bf16 --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "seed $s rc=$?"; grep -E "^bf16 all" $L/sweep-$s.log
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

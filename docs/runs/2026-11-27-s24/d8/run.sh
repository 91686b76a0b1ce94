#!/usr/bin/env bash
# Session 24, call d8 (bundle s7 = ca0faad, the final code): the full sweep (seed 589266001)
# against one PyTorch run, and two new random seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s7.txz -C /tmp/b; B=/tmp/b/s7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 180 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep.log
for s in 24112701 24112702; do
  $B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 50 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 50 $B/benches/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

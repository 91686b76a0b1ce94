#!/usr/bin/env bash
# Session 42, call c2 (bundle c1, the final code ae7a502): the log-uniform random groups at
# session 36's seeds (36112801-04) and the uniform group at s40 x1's seeds (4001-4003), each
# beside PyTorch in the same call.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/c1.txz -C /tmp/b; B=/tmp/b/c1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for gs in random:36112801 random:36112802 random:36112803 random:36112804 uniform:4001 uniform:4002 uniform:4003; do IFS=: read g s <<< "$gs"
  [ $(( $(date +%s) - T0 )) -gt 420 ] && { el "stopped before $g $s"; break; }
  $B/benches/gemm_sweep --list --groups $g --seed $s > $L/cases-$g-$s.csv
  timeout 90 python3 benches/torch/gemm_sweep.py $L/cases-$g-$s.csv > $L/torch-$g-$s.csv 2> $L/torch-$g-$s-err.log
  timeout 120 $B/benches/gemm_sweep --groups $g --seed $s --torch $L/torch-$g-$s.csv --csv $L/sweep-$g-$s.csv > $L/sweep-$g-$s.log 2>&1; el "$g $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$g-$s.log
  (cd $L && tar czf $OUT/logs.tgz .)
done
el done

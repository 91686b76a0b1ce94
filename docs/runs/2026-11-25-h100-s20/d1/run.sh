#!/usr/bin/env bash
# Session 20, call d1 (HEAD 35d7f6f; the r4s18 bundle is the same code): where random shapes
# fall. Ten new seeds of the sweep's random group (32 log-uniform shapes each, one layout per
# shape) against PyTorch, then every plan of gemm_plans on the shapes below 0.70 in earlier
# random runs (s18 r2/r4, s19 r1), to see whether a plan we have is fast enough (a rule to fix)
# or none is (a kernel to build).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r4s18.txz -C /tmp/b && B=/tmp/b/r4s18
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for s in 20261201 20261202 20261203 20261204 20261205 20261206 20261207 20261208 20261209 20261210; do
  $B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 40 $B/benches/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
done
P() { timeout 60 $B/benches/gemm_plans --precisions $1 --layouts $2 --shapes $3 >> $L/plans.csv 2>> $L/plans-err.log; el "plans $1 $2 $3 rc=$?"; }
P bf16 tt 6609x12x2773,108x1111x57
P bf16 nn 4929x10x7330,128x1024x1024,537x3707x37
P bf16 tn 116x7122x3188,1429x2363x10,118x1233x48
P bf16 nt 387x4330x23,1652x264x31,63x462x772,18x200x254,158x24x134,64x1024x784
P f32 nt 1175x1x835
P tf32 tn 4096x784x32,10x4096x256
(cd $L && tar czf $OUT/logs.tgz .)
el done

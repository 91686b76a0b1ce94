#!/usr/bin/env bash
# Session 27, call h1 (bundle g9 = session 26's kernels, as the final commit 4f574fd): every
# plan of gemm_plans on the 53 products of g9's six random seeds below 0.72 of cuBLAS, each in
# its own precision and layout, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/g9.txz -C /tmp/b; B=/tmp/b/g9
L=/tmp/logs; rm -rf $L; mkdir -p $L
D=docs/runs/2026-11-28-s27/h1
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 python3 benches/torch/gemm_sweep.py $D/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
grep -v '^#' $D/cases.csv | tail -n +2 | while IFS=, read p l m n k g; do
  timeout 60 $B/gemm_plans --precisions $p --layouts $l --shapes ${m}x${n}x${k} >> $L/plans.csv 2>>$L/plans-err.log
done; el "plans done"
(cd $L && tar czf $OUT/logs.tgz .)
el done

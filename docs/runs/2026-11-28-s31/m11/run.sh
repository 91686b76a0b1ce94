#!/usr/bin/env bash
# Session 31, call m11 (bundle m11 = the op tests, gemm_sweep and gemm_plans of the working
# tree: the TF32 streaming rule's register-A tile in workspace splits up to 32 rows or columns;
# old = m7's gemm_sweep, b49b336): every op test; the TF32 skinny group of the sweep, new and
# old against one PyTorch run.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/m11.txz -C /tmp/b && tar xJf .gpu/m7.txz -C /tmp/b; B=/tmp/b/m11
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 150 $B/ops > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops $(grep -E '^test result|rc=' $L/ops.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops.log | head
xz -9 $L/ops.log
(cd $L && tar czf $OUT/logs.tgz .)
$B/gemm_sweep --list --groups skinny --precisions tf32 --seed 589266001 > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 60 $B/gemm_sweep --groups skinny --precisions tf32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-new.csv > $L/sweep-new.log 2>&1; el "new rc=$?"; grep "^tf32 all" $L/sweep-new.log
timeout 60 /tmp/b/m7/benches/gemm_sweep --groups skinny --precisions tf32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-old.csv > $L/sweep-old.log 2>&1; el "old rc=$?"; grep "^tf32 all" $L/sweep-old.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

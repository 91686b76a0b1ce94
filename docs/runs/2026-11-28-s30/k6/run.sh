#!/usr/bin/env bash
# Session 30, call k6 (bundle k6 = scripts/gpu-bundle of f74537b, the final code: k4's and TF32
# FP32's plan where the wgmma tiles would stage the long operand up to 64 rows or columns):
# every test binary; the MLP training step beside PyTorch's CUDA-graph step; the TF32 random
# group at seed 30112801 (tn 1186x47x7488, the product the last change moves).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/k6.txz -C /tmp/b; B=/tmp/b/k6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 90 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(cd $L && tar czf $OUT/logs.tgz .)
s=30112801
$B/benches/gemm_sweep --list --groups random --precisions tf32 --seed $s > $L/cases-$s.csv
timeout 50 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
timeout 70 $B/benches/gemm_sweep --groups random --precisions tf32 --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "seed $s rc=$?"; grep -E "^tf32 all" $L/sweep-$s.log; grep "1186,47,7488" $L/sweep-$s.csv
(cd $L && tar czf $OUT/logs.tgz .)
el done

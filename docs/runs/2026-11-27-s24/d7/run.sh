#!/usr/bin/env bash
# Session 24, call d7 (bundle s7 = ca0faad, the final code): every test binary; TF32 `Auto` on
# d6's products (the 128-row tiles' new fixed cost); the MLP training step against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s7.txz -C /tmp/b; B=/tmp/b/s7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
S=8192x8192x64,8192x4096x32,4096x4096x32,4096x784x32,16384x1024x128,1024x784x64,10x4096x256,1024x784x128
timeout 60 $B/benches/gemm_plans --precisions tf32 --layouts nn,nt,tn --shapes $S --plans Auto > $L/plans-auto.csv 2>> $L/plans-err.log; el "plans rc=$?"
cat $L/plans-auto.csv | grep Auto
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 90 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(cd $L && tar czf $OUT/logs.tgz .)
el done

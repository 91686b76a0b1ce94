#!/usr/bin/env bash
# Session 15, call e9: TF32 `Auto` runs products of up to 2^30 FLOPs with an MN-major operand on
# the register-A kernel (TF32_REGA_ALWAYS_FLOPS, from e7 and e8): the TF32 ops tests, `Auto`
# on e7's and e8's small products, and the full sweep against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e9s15.txz -C /tmp/b && B=/tmp/b/e9s15
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 150 $B/tests/ops-test Tf32 > $L/ops-tf32.log 2>&1; echo "rc=$?" >> $L/ops-tf32.log); el "ops Tf32 $(grep -E '^test result|rc=' $L/ops-tf32.log | tr '\n' ' ')"
timeout 100 $B/benches/gemm_plans --precisions tf32 --layouts tn,tt,nn --shapes 128x128x128,256x256x256,384x384x384,512x512x512,768x768x768,1024x784x128,1024x784x64,4096x784x32,4096x784x64,1024x1024x128,128x1024x1024,256x1024x1024,512x1024x1024,2048x784x128 --plans Auto > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 130 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
$B/benches/gemm_sweep --list --groups random --seed 20261124 > $L/cases-r2.csv
timeout 30 python3 benches/torch/gemm_sweep.py $L/cases-r2.csv > $L/torch-r2.csv 2> $L/torch-r2-err.log; el "torch r2 rc=$?"
timeout 30 $B/benches/gemm_sweep --groups random --seed 20261124 --torch $L/torch-r2.csv --csv $L/sweep-r2.csv > $L/sweep-r2.log 2>&1; el "sweep r2 rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-r2.log
tar czf $OUT/logs.tgz -C /tmp logs

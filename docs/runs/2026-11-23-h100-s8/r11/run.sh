#!/usr/bin/env bash
# Session 8, call 11 (HEAD): the TF32 128×208 tile (K-major, staged operands) in Tf32Auto where
# it saves columns: the GEMM tests, memcheck on its splits, TF32 plans at n = 784, and the TF32
# sweep (seed 589266001) against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r11.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 90 $B/tests/ops-test gemm > $L/ops-gemm.log 2>&1; el "ops gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"; grep -E "FAILED|panicked" $L/ops-gemm.log | head -5
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 60 $CS --tool memcheck $B/tests/ops-test "Tf32Wgmma128x208::split" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
timeout 40 $B/benches/gemm_plans --precisions tf32 --layouts nn,tn,nt --shapes 4096x784x4096,1024x784x4096,4096x784x1024 --plans Auto,Tf32Wgmma,Tf32Wgmma128x208 > $L/plans-tf32.csv 2> $L/plans-tf32.err; el "plans rc=$?"
$B/benches/gemm_sweep --list --seed 589266001 --precisions tf32 > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 90 $B/benches/gemm_sweep --seed 589266001 --precisions tf32 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^tf32|^  [a-z]|^RESULT" $L/sweep.log | tail -8
tar czf $OUT/logs.tgz -C /tmp logs

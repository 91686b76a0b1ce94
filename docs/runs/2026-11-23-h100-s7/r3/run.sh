#!/usr/bin/env bash
# Session 7, call 3: TF32 wgmma kernels that transpose MN-major operands in shared memory
# (nn, tn, tt without a staging pass): their tests in every layout, memcheck on the split
# tests, every TF32 plan on the staged layouts' shapes, and the TF32 sweep against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r3.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 90 $B/tests/ops-test Tf32 > $L/ops-tf32.log 2>&1; el "ops Tf32 rc=$? $(grep '^test result' $L/ops-tf32.log)"; grep -E "FAILED|panicked" $L/ops-tf32.log | head -12
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/ops-test 'Tf32Wgmma64x128::split' > $L/san-memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test result' $L/san-memcheck.log | tr '\n' ' ')"
$B/benches/gemm_sweep --list --seed 589266001 --precisions tf32 > $L/cases.csv
timeout 40 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 80 $B/benches/gemm_sweep --precisions tf32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-tf32.csv > $L/sweep-tf32.log 2>&1; el "sweep tf32 rc=$?"; grep -E "^tf32|^  |^RESULT" $L/sweep-tf32.log
S=32x1024x1024,128x784x1024,256x1024x1024,1024x1024x1024,256x4096x4096,1024x4096x4096,4096x4096x4096,2048x2048x2048,10x4096x4096,1024x784x4096,4096x784x1024,64x64x16384,8x8192x8192,777x555x332,1000x3000x700,3000x3000x3000
timeout 150 $B/benches/gemm_plans --precisions tf32 --layouts nn,tn --shapes $S > $L/plans-tf32.csv 2> $L/plans-tf32.err; el "plans tf32 rc=$? $(wc -l < $L/plans-tf32.csv) rows"
tar czf $OUT/logs.tgz -C /tmp logs

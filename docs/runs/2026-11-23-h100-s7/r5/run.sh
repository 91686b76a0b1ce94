#!/usr/bin/env bash
# Session 7, call 5 (review): the wgmma kernels' pipeline addresses from one `Ring`, the
# staged tile's rows computed once, the TF32 transpose-or-stage choice made once in the launch,
# the plan rules through one `cheapest`: the GEMM and nn tests, and the TF32 and BF16 sweep
# (same seed) against PyTorch, to check nothing moved.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r5.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $B/tests/ops-test gemm > $L/ops-gemm.log 2>&1; el "ops gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"; grep -E "FAILED|panicked" $L/ops-gemm.log | head -8
timeout 90 $B/tests/nn-test > $L/nn.log 2>&1; el "nn rc=$? $(grep '^test result' $L/nn.log)"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/ops-test 'Wgmma64x64::split' > $L/san-memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/san-memcheck.log | tr '\n' ' ')"
$B/benches/gemm_sweep --list --seed 589266001 --precisions tf32,bf16 > $L/cases.csv
timeout 80 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 150 $B/benches/gemm_sweep --precisions tf32,bf16 --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^tf32|^bf16|^RESULT" $L/sweep.log
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 6, call 3: Tile64Fine in Auto with the refitted constants, and the tile kernels'
# 4-byte-load main loop in place of the bounds-checked one (odd strides and sizes): the GEMM
# and MLP tests, memcheck over the odd-size split tests, the FP32 sweep against cuBLAS (same
# seed as session 5), every FP32 plan on call 1's small shapes again, and the MLP step.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r3.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 90 $B/tests/ops-test gemm > $L/ops-gemm.log 2>&1; el "ops gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"; grep -E "FAILED|panicked" $L/ops-gemm.log | head -8
timeout 60 $B/tests/nn-test > $L/nn.log 2>&1; el "nn rc=$? $(grep '^test result' $L/nn.log)"; grep -E "FAILED|panicked" $L/nn.log | head -5
CS=/usr/local/cuda/bin/compute-sanitizer
KERNELS_TEST_SCALE=sanitize timeout 90 $CS --tool memcheck --error-exitcode 99 $B/tests/ops-test --test-threads 1 131x250x9 > $L/san-odd-memcheck.log 2>&1; el "memcheck 131x250x9 rc=$? $(grep -h SUMMARY $L/san-odd-memcheck.log | tail -1) | $(grep '^test result' $L/san-odd-memcheck.log)"
$B/benches/gemm_sweep --list --seed 589266001 --precisions f32 > $L/cases.csv
timeout 40 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 150 $B/benches/gemm_sweep --precisions f32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-f32.csv > $L/sweep-f32.log 2>&1; el "sweep f32 rc=$?"; grep -E "^f32|geomean|worst" $L/sweep-f32.log | head -12
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 60 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph" $L/mlp-torch.txt
S=189x16x832,441x43x287,32x271x669,733x33x232,2x1804x379,801x134x687,322x4203x12,2267x737x1007,188x2323x3,4670x94x6,797x346x9,6308x37x20
timeout 60 $B/benches/gemm_plans --precisions f32 --layouts nn,tt --shapes $S > $L/plans-odd.csv 2> $L/plans-odd.err; el "gemm_plans odd rc=$? $(wc -l < $L/plans-odd.csv) rows"
tar czf $OUT/logs.tgz -C /tmp logs

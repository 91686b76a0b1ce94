#!/usr/bin/env bash
# Session 5, call 2: the new cp.async-fed FP32 kernel (`GemmKernel::Pipelined`): its tests in
# every layout, compute-sanitizer over it (and over ColDot / bf16 RowDot / WarpDot, which call 1
# did not reach: one filter per run), Nsight Compute at 4096×1024×1024, every FP32 plan of
# gemm_plans, the FP32 sweep (Auto with the kernel among the candidates, and the kernel forced)
# against cuBLAS in the same call, and the MLP step against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r2.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $B/tests/ops-test Pipelined > $L/ops-pipelined.log 2>&1; el "ops Pipelined rc=$? $(grep '^test result' $L/ops-pipelined.log)"; grep -E "FAILED|failed|panicked" $L/ops-pipelined.log | head -5
timeout 120 $B/tests/ops-test gemm::Auto > $L/ops-auto.log 2>&1; el "ops gemm::Auto rc=$? $(grep '^test result' $L/ops-auto.log)"; grep -E "FAILED|panicked" $L/ops-auto.log | head -5
CS=/usr/local/cuda/bin/compute-sanitizer
export KERNELS_TEST_SCALE=sanitize
for f in Pipelined ColDot RowDot WarpDot; do for tool in memcheck racecheck; do
  timeout 90 $CS --tool $tool --error-exitcode 99 --print-limit 20 $B/tests/ops-test --test-threads 1 $f > $L/san-$f-$tool.log 2>&1; el "sanitize $f $tool rc=$? $(grep -h -E 'SUMMARY' $L/san-$f-$tool.log | tail -1) | $(grep '^test result' $L/san-$f-$tool.log)"
done; done
unset KERNELS_TEST_SCALE
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout 100 $NCU --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats -c 2 -k regex:gemm_pipelined $B/benches/gemm_plans --precisions f32 --layouts nt,nn --shapes 4096x1024x1024 > $L/ncu-pipelined.txt 2>&1; el "ncu rc=$?"
grep -E "gemm_pipe|Registers|Duration|Issue Slots Busy|Executed Ipc A|Warp Cycles Per Issued|Achieved Occ" $L/ncu-pipelined.txt | head -16
timeout 170 $B/benches/gemm_plans --precisions f32 --layouts nn,nt,tn > $L/plans-f32.csv 2> $L/plans-f32.err; el "gemm_plans rc=$?"
$B/benches/gemm_sweep --list --seed 589266001 --precisions f32 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 90 $B/benches/gemm_sweep --precisions f32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-auto.csv > $L/sweep-auto.log 2>&1; el "sweep auto rc=$?"
tail -10 $L/sweep-auto.log | grep -v "^  "
timeout 90 $B/benches/gemm_sweep --precisions f32 --seed 589266001 --f32-kernel Pipelined --torch $L/torch.csv --csv $L/sweep-pipe.csv > $L/sweep-pipe.log 2>&1; el "sweep pipelined rc=$?"
tail -10 $L/sweep-pipe.log | grep -v "^  "
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph" $L/mlp-torch.txt; grep "B4096" $L/mlp-bench.log | grep gemm
tar czf $OUT/logs.tgz -C /tmp logs

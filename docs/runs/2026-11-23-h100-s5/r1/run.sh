#!/usr/bin/env bash
# Session 5, call 1: HEAD (e067dec) verified on the GPU (every test binary, examples, ladder,
# bench_report, MLP vs PyTorch), compute-sanitizer over the kernels that had not run under it
# (ColDot, bf16 RowDot/WarpDot, row-chunked column sums), and Nsight Compute launch/occupancy
# figures of our FP32 kernel beside cuBLAS's at the MLP's 4096×1024×1024.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r1.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
(cd $B/.. && ./b1/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(tail -1 $L/run-tests.log)"; grep -E "^(== |test result)" $L/run-tests.log | paste - - | awk '{print $2, $4, $5, $6, $7, $8, $9, $10, $11}'; grep -E "FAILED|panicked" $L/run-tests.log | head -8
timeout 60 $B/bin/custom-kernel > $L/custom-kernel.log 2>&1; el "custom-kernel rc=$?"
timeout 60 $B/examples/mlp > $L/mlp-example.log 2>&1; el "mlp example rc=$?"; tail -2 $L/mlp-example.log
timeout 60 $B/examples/matmul > $L/matmul-example.log 2>&1; el "matmul example rc=$?"; tail -1 $L/matmul-example.log
timeout 90 $B/bin/gemm_ladder --sizes 1024,4096 > $L/gemm-ladder.log 2>&1; el "gemm_ladder rc=$?"
timeout 120 $B/bin/bench_report --out /tmp/logs/report --ops matmul,dense > $L/bench-report.log 2>&1; el "bench_report rc=$?"
CS=/usr/local/cuda/bin/compute-sanitizer
export KERNELS_TEST_SCALE=sanitize
for tool in memcheck racecheck; do
  timeout 150 $CS --tool $tool --error-exitcode 99 --print-limit 20 $B/tests/ops-test --test-threads 1 ColDot RowDot WarpDot > $L/san-ops-$tool.log 2>&1; el "sanitize ops $tool rc=$? $(grep -h -E 'SUMMARY' $L/san-ops-$tool.log | tail -1) | $(grep '^test result' $L/san-ops-$tool.log)"
  timeout 100 $CS --tool $tool --error-exitcode 99 --print-limit 20 $B/tests/nn-test --test-threads 1 col_sum > $L/san-nn-$tool.log 2>&1; el "sanitize nn $tool rc=$? $(grep -h -E 'SUMMARY' $L/san-nn-$tool.log | tail -1) | $(grep '^test result' $L/san-nn-$tool.log)"
done
unset KERNELS_TEST_SCALE
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
cat > /tmp/t.py <<'PY'
import torch
a=torch.randn(4096,1024,device="cuda"); w=torch.randn(1024,1024,device="cuda")
torch.backends.cuda.matmul.allow_tf32=False
for _ in range(3): y=a@w.t(); y2=a@w
torch.cuda.synchronize()
PY
timeout 120 $NCU --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis -c 4 -k regex:gemm python3 /tmp/t.py > $L/ncu-cublas.txt 2>&1; el "ncu cublas rc=$?"
timeout 120 $NCU --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis -c 3 -k regex:gemm_wide $B/benches/gemm_plans --precisions f32 --layouts nt,nn --shapes 4096x1024x1024 > $L/ncu-ours.txt 2>&1; el "ncu ours rc=$?"
grep -E "gemm|Block Size|Grid Size|Registers|Shared Memory Config|Achieved Occ|Theoretical Occ|Duration|SM Busy|Issue Slots Busy|Executed Ipc A|Warp Cycles Per Issued|SM Frequency|Compute \(SM\) Thr" $L/ncu-cublas.txt | head -60
grep -E "gemm|Block Size|Grid Size|Registers|Achieved Occ|Duration|Issue Slots Busy|Executed Ipc A|Warp Cycles Per Issued|SM Frequency|Compute \(SM\) Thr" $L/ncu-ours.txt | head -40
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep -v "^mlp_part," $L/mlp-bench.log | grep "train_step,\|infer," | head -12; grep "graph\|infer," $L/mlp-torch.txt
tar czf $OUT/logs.tgz -C /tmp logs

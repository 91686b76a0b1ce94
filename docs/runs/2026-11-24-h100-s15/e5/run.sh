#!/usr/bin/env bash
# Session 15, call e5: FP32 `Auto` with the split form among its plans (constants fitted on e4):
# the ops tests of `Auto` and FP32 on TF32, the nn tests, memcheck on the split form's split
# tests, the full sweep and the second random group against PyTorch, the FP32 MLP step.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e5s15.txz -C /tmp/b && B=/tmp/b/e5s15
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 100 $B/tests/ops-test Auto > $L/ops-auto.log 2>&1; echo "rc=$?" >> $L/ops-auto.log); el "ops Auto $(grep -E '^test result|rc=' $L/ops-auto.log | tr '\n' ' ')"
(timeout 100 $B/tests/ops-test Tf32x3 > $L/ops-x3.log 2>&1; echo "rc=$?" >> $L/ops-x3.log); el "ops x3 $(grep -E '^test result|rc=' $L/ops-x3.log | tr '\n' ' ')"
(timeout 100 $B/tests/nn-test > $L/nn.log 2>&1; echo "rc=$?" >> $L/nn.log); el "nn $(grep -E '^test result|rc=' $L/nn.log | tr '\n' ' ')"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 60 $CS --tool memcheck $B/tests/ops-test "Tf32x3Split::split" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 130 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
$B/benches/gemm_sweep --list --groups random --seed 20261124 > $L/cases-r2.csv
timeout 30 python3 benches/torch/gemm_sweep.py $L/cases-r2.csv > $L/torch-r2.csv 2> $L/torch-r2-err.log; el "torch r2 rc=$?"
timeout 30 $B/benches/gemm_sweep --groups random --seed 20261124 --torch $L/torch-r2.csv --csv $L/sweep-r2.csv > $L/sweep-r2.log 2>&1; el "sweep r2 rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-r2.log
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 40 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -12; grep "graph\|infer," $L/mlp-torch.txt
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 16, call r2 (HEAD c07d0b3: the refitted BF16 constants and the FP32 small-product rules): every test binary, memcheck on the wgmma split
# tests, the full sweep and two random groups against PyTorch (seed 20261124 and 20261125, no rule fitted on either), the FP32 MLP step, the README's main job (--example mlp).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r2s16.txz -C /tmp/b && B=/tmp/b/r2s16
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 250 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 60 $CS --tool memcheck $B/tests/ops-test "split::ta1" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
timeout 60 $CS --tool memcheck $B/tests/ops-test "Tf32x3Split::split" > $L/memcheck-split.log 2>&1; el "memcheck split rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-split.log | tr "\n" " ")"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 130 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
$B/benches/gemm_sweep --list --groups random --seed 20261124 > $L/cases-r2.csv
timeout 30 python3 benches/torch/gemm_sweep.py $L/cases-r2.csv > $L/torch-r2.csv 2> $L/torch-r2-err.log; el "torch r2 rc=$?"
timeout 30 $B/benches/gemm_sweep --groups random --seed 20261124 --torch $L/torch-r2.csv --csv $L/sweep-r2.csv > $L/sweep-r2.log 2>&1; el "sweep r2 rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-r2.log
$B/benches/gemm_sweep --list --groups random --seed 20261125 > $L/cases-r3.csv
timeout 30 python3 benches/torch/gemm_sweep.py $L/cases-r3.csv > $L/torch-r3.csv 2> $L/torch-r3-err.log; el "torch r3 rc=$?"
timeout 30 $B/benches/gemm_sweep --groups random --seed 20261125 --torch $L/torch-r3.csv --csv $L/sweep-r3.csv > $L/sweep-r3.log 2>&1; el "sweep r3 rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-r3.log
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 40 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(timeout 120 $B/examples/mlp > $L/mlp-default.log 2>&1; echo "rc=$?" >> $L/mlp-default.log); el "example mlp: $(grep -E 'test accuracy|time per epoch|rc=' $L/mlp-default.log | tr '\n' ' ' | cut -c1-200)"
tar czf $OUT/logs.tgz -C /tmp logs

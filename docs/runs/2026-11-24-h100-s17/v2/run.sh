#!/usr/bin/env bash
# Session 17, call v2 (HEAD 7300f81, the review commits: the 64×32 kernels through the shared
# macros, step_desc taking the tile width, choose_tf32 as a fold): every test binary, memcheck on
# the 64×32 tiles, the full sweep against PyTorch in the same call, the random groups, the MLP
# step and --example mlp.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/v2s17.txz -C /tmp/b && B=/tmp/b/v2s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 90 $CS --tool memcheck $B/tests/ops-test "Wgmma64x32" > $L/memcheck-slim.log 2>&1; el "memcheck slim rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-slim.log | tr "\n" " ")"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 130 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
for s in 20261124 20261125 20261126; do
$B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
timeout 30 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
timeout 30 $B/benches/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32|^tf32|^bf16" $L/sweep-$s.log
done
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 40 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(timeout 120 $B/examples/mlp > $L/mlp-default.log 2>&1; echo "rc=$?" >> $L/mlp-default.log); el "example mlp: $(grep -E 'test accuracy|time per epoch|rc=' $L/mlp-default.log | tr '\n' ' ' | cut -c1-200)"
xz -9 $L/run-tests.log
tar czf $OUT/logs.tgz -C /tmp logs

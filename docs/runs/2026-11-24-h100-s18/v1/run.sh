#!/usr/bin/env bash
# Session 18, call v1 (HEAD 41f8eaa, recommitted as 12f7e9c and reverted in e7b9142; the review commit: one staged-tile store loop for the
# shared-memory tiles and the wgmma kernels): every test binary, memcheck on the 64x32 tiles,
# the full sweep with this HEAD (new) and with d85c251 (old: r4's binary, the same rules)
# against one PyTorch run, the MLP step and --example mlp.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/v1s18.txz -C /tmp/b && B=/tmp/b/v1s18
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
xz -9 $L/run-tests.log
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for f in "gemm::Tile64x32::" "gemm_bf16::Wgmma64x32"; do
  timeout 90 $CS --tool memcheck $B/tests/ops-test "$f" > $L/memcheck-${f//:/_}.log 2>&1; el "memcheck $f rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-${f//:/_}.log | tr "\n" " ")"
done
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 130 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep.log
timeout 130 $B/benches/gemm_sweep_old --seed 589266001 --torch $L/torch.csv --csv $L/sweep-old.csv > $L/sweep-old.log 2>&1; el "sweep old rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-old.log
python3 docs/runs/2026-11-24-h100-s17/compare.py $L/sweep-old.csv $L/sweep.csv > $L/compare.txt; cat $L/compare.txt
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 40 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(timeout 120 $B/examples/mlp > $L/mlp-default.log 2>&1; echo "rc=$?" >> $L/mlp-default.log); el "example mlp: $(grep -E 'test accuracy|time per epoch|rc=' $L/mlp-default.log | tr '\n' ' ' | cut -c1-200)"
tar czf $OUT/logs.tgz -C /tmp logs

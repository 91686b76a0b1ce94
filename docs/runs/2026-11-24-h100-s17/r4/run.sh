#!/usr/bin/env bash
# Session 17, call r4 (HEAD 81c2dfa: r3's rules and the 16-byte padding pass): every test
# binary, Nsight Compute times of the padding pass and the products of r3, the full sweep with
# these rules (new) and 5c4919c's (old) against one PyTorch run, the three random groups, the
# MLP step and --example mlp.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r4s17.txz -C /tmp/b && B=/tmp/b/r4s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 90 $CS --tool memcheck $B/tests/ops-test "gemm_bf16::Auto::ta1_tb0" > $L/memcheck-pad.log 2>&1; el "memcheck pad rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-pad.log | tr "\n" " ")"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for c in "bf16 tn 116x7122x3188" "bf16 tt 6609x12x2773" "bf16 tn 4066x3726x128"; do
  set -- $c
  timeout 60 $NCU --metrics gpu__time_duration.sum $B/benches/gemm_plans --precisions $1 --layouts $2 --shapes $3 --plans Auto --profile 1 > $L/ncu-$1-$2-$3.txt 2>&1
  el "ncu $c rc=$?: $(grep -E '^  [a-z_0-9]+|gpu__time_duration' $L/ncu-$1-$2-$3.txt | tr -s ' ' | tr '\n' ' ' | cut -c1-400)"
done
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 130 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
timeout 130 $B/benches/gemm_sweep_old --seed 589266001 --torch $L/torch.csv --csv $L/sweep-old.csv > $L/sweep-old.log 2>&1; el "sweep old rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-old.log
python3 docs/runs/2026-11-24-h100-s17/compare.py $L/sweep-old.csv $L/sweep.csv | grep geomean
for s in 20261124 20261125 20261126; do
$B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
timeout 30 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
timeout 30 $B/benches/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32|^tf32|^bf16" $L/sweep-$s.log
done
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 40 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(timeout 120 $B/examples/mlp > $L/mlp-default.log 2>&1; echo "rc=$?" >> $L/mlp-default.log); el "example mlp: $(grep -E 'test accuracy|time per epoch|rc=' $L/mlp-default.log | tr '\n' ' ' | cut -c1-200)"
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 16, call r3 (HEAD 314a826, the final rules: r2 plus the shared-memory tiles to k = 128
# where an operand breaks 16-byte loads): FP32 Auto tests, the full sweep and both random groups
# against PyTorch, the README's main job (--example mlp).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r3s16.txz -C /tmp/b && B=/tmp/b/r3s16
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/ops-test "gemm::" > $L/tests-gemm.log 2>&1; el "tests gemm:: rc=$? $(grep -E '^test result' $L/tests-gemm.log)"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 130 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
for s in 20261124 20261125; do
$B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
timeout 30 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log; el "torch $s rc=$?"
timeout 30 $B/benches/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-$s.log
done
(timeout 120 $B/examples/mlp > $L/mlp-default.log 2>&1; echo "rc=$?" >> $L/mlp-default.log); el "example mlp: $(grep -E 'test accuracy|time per epoch|rc=' $L/mlp-default.log | tr '\n' ' ' | cut -c1-200)"
tar czf $OUT/logs.tgz -C /tmp logs

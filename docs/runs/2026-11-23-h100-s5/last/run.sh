#!/usr/bin/env bash
# Session 5, call 6 (HEAD): the final Pipelined rule (k ≤ 16 with at least one tile per SM):
# the GEMM and precision tests, the FP32 sweep against cuBLAS and the FP32 MLP step against
# PyTorch's graph, in one call.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r6.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
timeout 60 $B/tests/ops-test gemm > $L/ops-gemm.log 2>&1; el "ops gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"
timeout 60 $B/tests/nn-test > $L/nn.log 2>&1; el "nn rc=$? $(grep '^test result' $L/nn.log)"
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 60 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph" $L/mlp-torch.txt
$B/benches/gemm_sweep --list --seed 589266001 --precisions f32 > $L/cases.csv
timeout 40 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 80 $B/benches/gemm_sweep --precisions f32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-f32.csv > $L/sweep-f32.log 2>&1; el "sweep f32 rc=$?"; grep -E "^f32 all|^  (mlp|square|random)" $L/sweep-f32.log
tar czf $OUT/logs.tgz -C /tmp logs

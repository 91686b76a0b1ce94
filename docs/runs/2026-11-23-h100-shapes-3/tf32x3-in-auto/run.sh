#!/usr/bin/env bash
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xzf .gpu/r1.tgz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
timeout 200 $B/tests/ops-test > $L/test-ops.log 2>&1; el "ops rc=$?"; grep -E "^test result" $L/test-ops.log; grep -E "FAILED|panicked|Error|error" $L/test-ops.log | head -20
timeout 100 $B/tests/nn-test > $L/test-nn.log 2>&1; el "nn rc=$?"; grep -E "^test result" $L/test-nn.log; grep -E "FAILED" $L/test-nn.log | head
timeout 60 $B/examples/mlp > $L/mlp-example.log 2>&1; el "mlp example rc=$?"; tail -2 $L/mlp-example.log
timeout 150 $B/benches/gemm_plans --precisions f32 > $L/plans-f32.csv 2> $L/plans-f32.err; el "plans rc=$?"; tail -2 $L/plans-f32.err; grep mismatch $L/plans-f32.csv | head
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep -v "^mlp_part," $L/mlp-bench.log | head -16; grep "graph\|infer," $L/mlp-torch.txt
$B/benches/gemm_sweep --list --seed 589266001 | grep -v "^bf16," > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --precisions f32,tf32 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"
tail -16 $L/sweep.log
cp $L/plans-f32.csv $OUT/; tar czf $OUT/logs.tgz -C /tmp logs

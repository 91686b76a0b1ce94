#!/usr/bin/env bash
# Round 2: tests, the MLP against PyTorch and the sweep against PyTorch, after the vector
# loads of the row-per-warp kernels (f32 and bf16) and the 16-byte row gather.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xzf .gpu/r1.tgz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
for t in nn reliability ops; do timeout 200 $B/tests/$t-test > $L/test-$t.log 2>&1; el "$t rc=$?"; grep -E "^test result" $L/test-$t.log | tail -1; grep -E "FAILED|panicked|^    .*Err" $L/test-$t.log | head -8; done
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep -v "^mlp_part," $L/mlp-bench.log | grep "train_step\|infer" | head -12; grep "graph\|infer," $L/mlp-torch.txt
grep "mlp_part,B4096\|mlp_part,B1024" $L/mlp-bench.log | grep other
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"
tail -22 $L/sweep.log
tar czf $OUT/logs.tgz -C /tmp logs

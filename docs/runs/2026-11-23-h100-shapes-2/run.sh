#!/usr/bin/env bash
# Full verification: every test binary, the sweep against PyTorch in the same call, the MLP
# against PyTorch, the MLP example. At most 8 files come back: logs are bundled in one tarball.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xzf .gpu/r1.tgz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
st() { nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,clocks_event_reasons.active --format=csv,noheader; }
st | tee $L/gpu.txt
for t in ops nn reliability leaks; do timeout 150 $B/tests/$t-test > $L/test-$t.log 2>&1; el "$t rc=$?"; grep -E "^test result" $L/test-$t.log; grep -E "FAILED" $L/test-$t.log | head -5; done
$B/benches/gemm_sweep --list > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 180 $B/benches/gemm_sweep --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; st | tee -a $L/gpu.txt
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
timeout 60 $B/examples/mlp > $L/mlp-example.log 2>&1; el "mlp example rc=$?"; tail -3 $L/mlp-example.log
timeout 60 $B/examples/matmul > $L/matmul-example.log 2>&1; el "matmul example rc=$?"
timeout 90 $B/examples/gemm_ladder --sizes 1024,4096 > $L/gemm-ladder.log 2>&1; el "gemm_ladder rc=$?"
tar czf $OUT/logs.tgz -C /tmp logs
grep -v "^mlp_part," $L/mlp-bench.log | head -16; grep "graph\|infer," $L/mlp-torch.txt
tail -22 $L/sweep.log

#!/usr/bin/env bash
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xzf .gpu/r1.tgz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
timeout 200 $B/tests/ops-test > $L/test-ops.log 2>&1; el "ops rc=$?"; grep -E "^test result" $L/test-ops.log; grep -E "FAILED|failed|panicked" $L/test-ops.log | head -20
timeout 200 $B/tests/nn-test > $L/test-nn.log 2>&1; el "nn rc=$?"; grep -E "^test result" $L/test-nn.log; grep -E "FAILED|failed" $L/test-nn.log | head
timeout 300 $B/benches/gemm_plans > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"; tail -3 $L/plans.err; grep mismatch $L/plans.csv | head
python3 - $L/plans.csv > $L/cases.csv <<'PY'
import csv,sys
seen=[]
for r in csv.DictReader(open(sys.argv[1])):
    k=(r["precision"],r["layout"],r["m"],r["n"],r["k"])
    if k not in seen: seen.append(k)
print("precision,layout,m,n,k")
for k in seen: print(",".join(k))
PY
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep -v "^mlp_part," $L/mlp-bench.log | head -16; grep "graph\|infer," $L/mlp-torch.txt
cp $L/plans.csv $L/torch.csv $OUT/ ; tar czf $OUT/logs.tgz -C /tmp logs


grep -E "gemm_|Duration|Elapsed|SM Active|Warp Cycles Per Issued|stalled" $L/ncu.txt | head -40
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 8, call 4: the sweep (all precisions, same seed as session 7) and the MLP step against
# PyTorch with the cluster split, programmatic launches and the refitted constants; the nn tests;
# and BF16 squares whose rows are not 128-byte aligned (3000, 5000) beside aligned neighbours
# (2944, 3072, 5120), ours and cuBLAS's, to test whether misaligned TMA rows cost the BF16 tile.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r4.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 90 $B/tests/nn-test > $L/nn.log 2>&1; el "nn rc=$? $(grep '^test result' $L/nn.log)"
A=2944x2944x2944,3000x3000x3000,3072x3072x3072,5000x5000x5000,5120x5120x5120,4096x784x4096,4096x800x4096,4096x768x4096
timeout 60 $B/benches/gemm_plans --precisions bf16 --layouts nt --shapes $A --plans Auto,Wgmma,Wgmma64x128 > $L/align-plans.csv 2> $L/align-plans.err; el "align plans rc=$?"
python3 - $A > $L/align-cases.csv <<'PY'
import sys
print("precision,layout,m,n,k")
for s in sys.argv[1].split(","):
    m, n, k = s.split("x"); print(f"bf16,nt,{m},{n},{k}")
PY
timeout 60 python3 benches/torch/gemm_sweep.py $L/align-cases.csv > $L/align-torch.csv 2> $L/align-torch.err; el "align torch rc=$?"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 160 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 230 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 6, last call (HEAD): after the final call, Tf32Auto / BF16 Auto got back their
# two-wave shared-memory rule and the model's split counts were limited to the measured ones:
# every test binary, the full sweep (FP32, TF32, BF16; same seed) and the FP32 MLP step
# against PyTorch's graph and eager forward.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r7.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(cd $B/.. && ./b1/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(tail -1 $L/run-tests.log)"; grep -E "^(== |test result)" $L/run-tests.log | paste - - | awk '{print $2, $4, $5, $6, $7, $8, $9, $10, $11}' | grep -v " 0 passed; 0 failed; 0 ignored"; grep -E "FAILED|panicked" $L/run-tests.log | head -8
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"
tail -24 $L/sweep.log | grep -v "^  " | grep -v "^random"
tar czf $OUT/logs.tgz -C /tmp logs

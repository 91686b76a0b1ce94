#!/usr/bin/env bash
# Session 12, call v1 (review: the bias-step entry points take Option<BiasSgd>, the bf16 loads'
# opaque move reuses `matmul::opaque`): the op and MLP GPU tests, memcheck on the short-k and
# column-sum tests, the short-k and shared-memory bf16 plans, and the MLP step beside PyTorch's.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/v1.txz -C /tmp/e && E=/tmp/e/v1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 200 $E/ops > $L/ops.log 2>&1; el "ops rc=$? $(grep -E '^test result' $L/ops.log)"; grep -E "FAILED|panicked" $L/ops.log | head -8
timeout 150 $E/nn > $L/nn.log 2>&1; el "nn rc=$? $(grep -E '^test result' $L/nn.log)"; grep -E "FAILED|panicked" $L/nn.log | head -8
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 100 $CS --tool memcheck $E/ops "ShortK" > $L/memcheck-ops.log 2>&1; el "memcheck ops rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-ops.log | tr '\n' ' ')"
timeout 100 $CS --tool memcheck $E/nn "col_sum" > $L/memcheck-nn.log 2>&1; el "memcheck nn rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-nn.log | tr '\n' ' ')"
timeout 100 $E/gemm_plans --precisions bf16 --layouts nn,tn --shapes 4096x4096x10,1024x1024x10,64x1024x10,4670x94x6,326x6x8,128x128x40 --plans Auto,ShortK,SmemTiled > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(grep -c mismatch $L/plans.csv)"; awk -F, '{print $1,$2,$3,$4,$5,$6,$8}' $L/plans.csv
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $E/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 19, call r1 (HEAD 5fc7b29: stream-K reverted; kernels, host, tests and benches as
# d85c251, whose bundle r4s18 this runs): every test binary, the full sweep against one PyTorch
# run, one random seed, the MLP step, --example mlp; and the BF16 tiles' fixed cost per block
# (1536×1536×k, k = 64 … 1536, unsplit, on the 128×256 and 64×128 tiles).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r4s18.txz -C /tmp/b && B=/tmp/b/r4s18
L=$OUT/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
xz -9 $L/run-tests.log
timeout 100 $B/benches/gemm_plans --precisions bf16 --layouts nt,nn --shapes 1536x1536x64,1536x1536x128,1536x1536x256,1536x1536x512,1536x1536x1024,1536x1536x1536 --plans Wgmma,Wgmma64x128 2>/dev/null | grep -E ",1,|precision" > $L/fixed.csv; el "fixed"; cat $L/fixed.csv
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 130 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
s=20261127
$B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
timeout 40 $B/benches/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32|^tf32|^bf16" $L/sweep-$s.log
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 40 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(timeout 120 $B/examples/mlp > $L/mlp-default.log 2>&1; echo "rc=$?" >> $L/mlp-default.log); el "example mlp: $(grep -E 'test accuracy|time per epoch|rc=' $L/mlp-default.log | tr '\n' ' ' | cut -c1-200)"

#!/usr/bin/env bash
# Session 14, call r5 (r4 with the TF32 register-A kernel at fixed cost 0 and cluster split 512): the ops
# tests of Auto and BF16, the full sweep and the second random group against PyTorch, the FP32
# MLP step.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r5s14.txz -C /tmp/b && B=/tmp/b/r5s14
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for f in Auto Tf32 RegA; do timeout 100 $B/tests/ops-test "$f" > $L/tests-ops-$f.log 2>&1; el "ops $f rc=$? $(grep '^test result' $L/tests-ops-$f.log)"; grep -E "FAILED|panicked" $L/tests-ops-$f.log | head -5; done
timeout 100 $B/tests/nn-test > $L/tests-nn.log 2>&1; el "nn rc=$? $(grep '^test result' $L/tests-nn.log)"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $B/tests/ops-test "Wgmma::split" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 150 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
$B/benches/gemm_sweep --list --groups random --seed 20261124 > $L/cases-r2.csv
timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-r2.csv > $L/torch-r2.csv 2> $L/torch-r2-err.log; el "torch r2 rc=$?"
timeout 40 $B/benches/gemm_sweep --groups random --seed 20261124 --torch $L/torch-r2.csv --csv $L/sweep-r2.csv > $L/sweep-r2.log 2>&1; el "sweep r2 rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-r2.log
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
timeout 120 $B/benches/gemm_plans --precisions tf32 --layouts tn,nn --shapes 4096x1024x1024,1024x4096x4096,4096x4096x1024,128x784x4096,256x784x4096,512x512x512 --plans Auto,Tf32WgmmaRegA,Tf32Wgmma,Tf32Wgmma64x64,Tf32Wgmma64x128 > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
awk -F, '$6=="Auto" || $7=="1"' $L/plans.csv | cut -d, -f1-8
tar czf $OUT/logs.tgz -C /tmp logs

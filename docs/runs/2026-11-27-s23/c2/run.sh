#!/usr/bin/env bash
# Session 23, call c2 (bundle c2 = HEAD + the streaming rule: stream_plan_tf32 / stream_plan_bf16
# in host/src/ops/matmul/plan.rs; gemm_sweep_old = c1's build, HEAD ba63e5d): the op and nn tests;
# the full sweep (seed 589266001, as s22's r1) with the new build against one PyTorch run; the
# skinny and mlp groups with the old build against the same PyTorch run (A/B in one call);
# every TF32 plan of the tt layout on the streaming products (a layout c1 did not time).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/c2.txz -C /tmp/b; B=/tmp/b/c2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 150 $B/ops > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=' $L/ops.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops.log | head -10
(timeout 60 $B/nn > $L/nn.log 2>&1; echo "rc=$?" >> $L/nn.log); el "nn: $(grep -E '^test result|rc=' $L/nn.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 130 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 170 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep-new.csv > $L/sweep-new.log 2>&1; el "sweep new rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep-new.log
timeout 80 $B/gemm_sweep_old --seed 589266001 --groups skinny,mlp --torch $L/torch.csv --csv $L/sweep-old.csv > $L/sweep-old.log 2>&1; el "sweep old rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-old.log
timeout 60 $B/gemm_plans --precisions tf32,bf16 --layouts tt --shapes 16x4096x4096,64x4096x4096,4096x16x4096,8x8192x8192 > $L/plans-tt.csv 2>> $L/plans-err.log; el "plans tt rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

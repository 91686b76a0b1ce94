#!/usr/bin/env bash
# Session 23, call c4 (bundle f4 = 9a366c3 + the warp-per-column kernel's aligned-quad path for
# W's rows off the quads' alignment + FP32 Auto's few-blocks rule (plan::few_blocks_plan);
# gemm_plans_old = c3's build, 9a366c3): every test binary; `Auto` of both builds on the
# warp-per-column products with odd k and on FP32 64x64x16384 (A/B in one call); the full sweep
# (seed 589266001) with the new build against one PyTorch run; the MLP step against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/f4.txz -C /tmp/b; B=/tmp/b/f4
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 240 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
WS=1x5099x6665,1x786x921,2x3001x4097,3x2049x1023,4x1000x777,1x4096x4095
for v in new old; do
  P=$B/benches/gemm_plans; [ $v = old ] && P=$B/gemm_plans_old
  timeout 40 $P --precisions f32,tf32,bf16 --layouts nt,tt --shapes $WS --plans Auto > $L/plans-wd-$v.csv 2>> $L/plans-err.log; el "plans wd $v rc=$?"
  timeout 30 $P --precisions f32 --layouts nn,nt,tn,tt --shapes 64x64x16384,32x48x20000 --plans Auto > $L/plans-fb-$v.csv 2>> $L/plans-err.log; el "plans fb $v rc=$?"
done
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 150 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep-new.csv > $L/sweep-new.log 2>&1; el "sweep new rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep-new.log
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 40 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 25, call f1 (bundle f1, scripts/gpu-bundle: e5 with op(A) loaded row by row in
# WarpDot for every row count and both precisions): every test binary; WarpDot of e4 and f1 on
# few-row products; the full sweep (seed 589266001) and two random seeds against PyTorch; the
# MLP training step against PyTorch. It landed on an H100.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in f1 e4; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/f1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
W=1x4096x4096,2x4096x4096,4x4096x4096,1x5099x6665,3x2049x1023,2x3001x4097,1x1024x784,4x1024x1024
for r in 1 2; do
  $B/benches/gemm_plans --precisions bf16,f32 --layouts nt --shapes $W --plans Auto,WarpDot > $L/warpdot-f1-$r.csv 2>>$L/plans-err.log
  /tmp/b/e4/gemm_plans --precisions bf16,f32 --layouts nt --shapes $W --plans Auto,WarpDot > $L/warpdot-e4-$r.csv 2>>$L/plans-err.log
done; el "warpdot A/B done"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep.log
for s in 24112701 24112702; do
  $B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 50 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 50 $B/benches/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
done
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 90 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(cd $L && tar czf $OUT/logs.tgz .)
el done

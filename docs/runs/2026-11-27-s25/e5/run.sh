#!/usr/bin/env bash
# Session 25, call e5 (build e5 = 51dd5d1 with the 128x192 tile's rate 0.95 in the model, and
# four bf16 quads per lane and pass in WarpDot): op and nn tests; WarpDot of e4 and e5 on
# few-row products; every TF32 plan of the TF32 products below 0.70; the sweep.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in e4 e5; do tar xJf .gpu/$x.txz -C /tmp/b; done; N=/tmp/b/e5
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
$N/ops > $L/ops.log 2>&1; el "ops rc=$?"; grep "test result" $L/ops.log
$N/nn > $L/nn.log 2>&1; el "nn rc=$?"; grep "test result" $L/nn.log
W=1x4096x4096,2x4096x4096,4x4096x4096,1x5099x6665,3x2049x1023,1x1024x784,4x1024x1024
for r in 1 2; do for b in e5 e4; do
  /tmp/b/$b/gemm_plans --precisions bf16 --layouts nt --shapes $W --plans Auto,WarpDot > $L/warpdot-$b-$r.csv 2>$L/warpdot-$b-$r.err; el "warpdot $b $r rc=$?"
done; done
$N/gemm_plans --precisions tf32 --layouts tn,tt --shapes 4096x784x32,1024x784x64,10x4096x256,6308x37x20,1024x784x128 > $L/tf32-plans.csv 2>$L/tf32-plans.err; el "tf32 plans rc=$?"
$N/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $N/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 25, call e2: the whole-tile store path of the wgmma epilogue (build e2) against the
# final code of session 24 (s10): op and nn tests, Auto of both builds alternated twice, the sweep.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in e2 s10; do tar xJf .gpu/$x.txz -C /tmp/b; done
N=/tmp/b/e2; O=/tmp/b/s10/benches
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
$N/ops > $L/ops.log 2>&1; el "ops rc=$?"; grep "test result" $L/ops.log
$N/nn > $L/nn.log 2>&1; el "nn rc=$?"; grep "test result" $L/nn.log
S=1536x1536x1536,1024x1024x1024,512x1024x1024,256x1024x1024,128x1024x784,1024x784x2048,1024x1024x4096,1000x1000x1000,2048x2048x2048,3000x3000x3000,4096x4096x4096,4096x784x64,8192x8192x64,64x4096x4096
for r in 1 2; do
  for b in new old; do
    bin=$N/gemm_plans; [ $b = old ] && bin=$O/gemm_plans
    $bin --precisions bf16,tf32,f32 --layouts nn,tn --shapes $S --plans Auto > $L/ab-$b-$r.csv 2>$L/ab-$b-$r.err; el "ab $b $r rc=$?"
  done
done
$N/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $N/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 25, call e4 (build e4: e2 + the BF16 128x192 wgmma tile, Auto weighing it): op and nn
# tests; every BF16 wgmma plan of mid-sized and large squares; the sweep.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e4.txz -C /tmp/b; N=/tmp/b/e4
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
$N/ops gemm_bf16 > $L/ops-bf16.log 2>&1; el "ops bf16 rc=$?"; grep "test result" $L/ops-bf16.log
P=Auto,Wgmma,WgmmaSwapped,Wgmma128x208,Wgmma128x192,Wgmma64x128
$N/gemm_plans --precisions bf16 --layouts nn,nt --shapes 1536x1536x1536,3000x3000x3000,5000x5000x5000,8192x8192x8192,2500x1800x3000,2048x2048x2048,4096x4096x4096,1024x1024x1024,4096x784x4096,1024x784x4096,3500x1200x2400,768x3072x2048 --plans $P > $L/plans.csv 2>$L/plans.err; el "plans rc=$?"
$N/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $N/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

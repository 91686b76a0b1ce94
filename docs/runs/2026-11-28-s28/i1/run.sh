#!/usr/bin/env bash
# Session 28, call i1 (bundle h6, the rules of HEAD 18b5d35): why BF16 `Auto` misses 0.70 at
# 3000^3, 5000^3 and the 784-wide MLP products. (1) Row alignment: each product beside one whose
# rows are 128-byte aligned with the same tile counts (3008, 5056, 832 for 784, 2048 for 2000).
# (2) The last partial round of 128x256 tiles: the product without its last strip of tiles beside
# every plan of that strip. (3) Nsight Compute L2 sectors and time of 3000^3 and 3008^3 nn. All
# beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/h6.txz -C /tmp/b; B=/tmp/b/h6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
A="3000x3000x3000 3008x3008x3008 5000x5000x5000 5056x5056x5056 2000x2000x2000 2048x2048x2048 1000x1000x1000 1024x1024x1024 512x784x4096 512x832x4096 2048x784x1024 2048x832x1024 1024x784x2048 1024x832x2048 3000x2816x3000 4992x5000x5000 5000x4864x5000"
S="3000x184x3000 8x5000x5000 5000x136x5000"
(echo "# s28 i1"; echo "precision,layout,m,n,k,group"; for s in $A $S; do for l in nn nt tn tt; do echo "bf16,$l,${s//x/,},i1"; done; done) > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
$B/gemm_plans --precisions bf16 --layouts nn,nt,tn,tt --shapes $(echo $A | tr ' ' ,) --plans Auto > $L/auto.csv 2>$L/auto-err.log; el "auto rc=$?"
$B/gemm_plans --precisions bf16 --layouts nn,tt --shapes $(echo $S | tr ' ' ,) > $L/strips.csv 2>$L/strips-err.log; el "strips rc=$?"
M=gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,dram__bytes_read.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct
for s in 3000x3000x3000 3008x3008x3008; do
  timeout 120 ncu --metrics $M $B/gemm_plans --precisions bf16 --layouts nn --shapes $s --plans Auto --profile 2 > $L/ncu-$s.log 2>&1; el "ncu $s rc=$?"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

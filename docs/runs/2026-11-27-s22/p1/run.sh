#!/usr/bin/env bash
# Session 22, call p1 (bundle n1 = HEAD 097e0c3 + the BF16 192x128 wgmma tile, Wgmma192x128):
# the op tests on it; every BF16 plan of the wide tiles (gemm_plans, nn and nt) on squares and
# MLP products whose 128x256 tiles fill the last round badly, beside PyTorch on the same cases;
# Nsight Compute on 3000^3 against 3072^3 (same tile count: does a row stride off 128 bytes cost
# the copy engine?).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/n1.txz -C /tmp/b; B=/tmp/b/n1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/tests/ops-test > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops.log | head -10
SH=1000x1000x1000,1536x1536x1536,2000x2000x2000,3000x3000x3000,3072x3072x3072,5000x5000x5000,4096x4096x4096,2048x784x1024,512x784x4096,1024x784x2048,1024x784x4096,2048x784x4096,128x1024x1024,256x1024x1024,512x4096x784,2500x1800x3000,1200x2200x900,3500x3500x700
PL=Auto,Wgmma,WgmmaSwapped,Wgmma128x208,Wgmma192x128,Wgmma64x128
{ echo precision,layout,m,n,k; for l in nn nt tn; do for s in ${SH//,/ }; do echo bf16,$l,${s//x/,}; done; done; } > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for l in nn nt tn; do
  timeout 200 $B/benches/gemm_plans --precisions bf16 --layouts $l --shapes $SH --plans $PL >> $L/plans.csv 2>> $L/plans-err.log; el "plans $l rc=$?"
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
for s in 3000x3000x3000 3072x3072x3072 1536x1536x1536; do
  for p in Wgmma Wgmma192x128; do
    timeout 60 $NCU --cache-control none --clock-control none --launch-count 1 --metrics $M $B/benches/gemm_plans --precisions bf16 --layouts nn --shapes $s --plans $p --profile 1 > $L/ncu-$p-$s.txt 2>&1
    echo "== $p $s"; grep -E "gemm_|duration|sectors|requests|pct|bytes" $L/ncu-$p-$s.txt | head -8
  done
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 22, call p2 (bundle n2 = p1's build with the 192x128 kernels in the kernel table): the
# op tests, then every BF16 plan of the wide tiles (gemm_plans, nn, nt, tn) on products whose
# 128x256 tiles fill the last round badly, squares and mid-sized random-like ones, beside
# PyTorch on the same cases.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/n2.txz -C /tmp/b; B=/tmp/b/n2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/tests/ops-test > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops.log | head -10
SH=1000x1000x1000,1536x1536x1536,2000x2000x2000,3000x3000x3000,3072x3072x3072,5000x5000x5000,2048x784x1024,1024x784x2048,1024x784x4096,2048x784x4096,512x4096x784,2500x1800x3000,1800x2504x3000,1304x1704x2000,2904x1104x1504,6000x2000x1000,4504x4504x2000,768x768x768,1024x1024x1024,4096x1024x1024
PL=Auto,Wgmma,WgmmaSwapped,Wgmma128x208,Wgmma192x128,Wgmma64x128
{ echo precision,layout,m,n,k; for l in nn nt tn; do for s in ${SH//,/ }; do echo bf16,$l,${s//x/,}; done; done; } > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for l in nn nt tn; do
  timeout 200 $B/benches/gemm_plans --precisions bf16 --layouts $l --shapes $SH --plans $PL >> $L/plans.csv 2>> $L/plans-err.log; el "plans $l rc=$?"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

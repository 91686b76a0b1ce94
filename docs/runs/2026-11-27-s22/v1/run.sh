#!/usr/bin/env bash
# Session 22, call v1 (bundle n3: HEAD f2fb31e + the BF16 128x192 wgmma tile, Wgmma128x192, at
# first-guess constants, + the warp-per-column kernel's four-step scalar passes): the op tests;
# every BF16 plan of the wide tiles (gemm_plans, nn, nt, tn) on the products of p2 and five more
# mid-sized ones; the warp-per-column products of a few rows and odd k in all three precisions;
# PyTorch on the same cases.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/n3.txz -C /tmp/b; B=/tmp/b/n3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/tests/ops-test > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops.log | head -10
SH=1000x1000x1000,1536x1536x1536,2000x2000x2000,3000x3000x3000,5000x5000x5000,2048x784x1024,1024x784x2048,1024x784x4096,2048x784x4096,512x4096x784,2500x1800x3000,1800x2504x3000,1304x1704x2000,2904x1104x1504,6000x2000x1000,4504x4504x2000,4096x4096x4096,2200x1504x2504,1704x904x3104,3704x2304x1200,904x2904x2000,8192x8192x1024
PL=Auto,Wgmma,WgmmaSwapped,Wgmma128x208,Wgmma128x192,Wgmma64x128
WD=1x786x921,1x394x1426,3x4099x65,4x1426x394,2x7000x1003
{ echo precision,layout,m,n,k
  for l in nn nt tn; do for s in ${SH//,/ }; do echo bf16,$l,${s//x/,}; done; done
  for p in f32 tf32 bf16; do for l in nn nt tn tt; do for s in ${WD//,/ }; do echo $p,$l,${s//x/,}; done; done; done; } > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for l in nn nt tn; do
  timeout 200 $B/benches/gemm_plans --precisions bf16 --layouts $l --shapes $SH --plans $PL >> $L/plans.csv 2>> $L/plans-err.log; el "plans $l rc=$?"
done
timeout 100 $B/benches/gemm_plans --precisions f32,tf32,bf16 --layouts nn,nt,tn,tt --shapes $WD --plans Auto > $L/warpdot.csv 2>> $L/plans-err.log; el "warpdot rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

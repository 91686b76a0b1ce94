#!/usr/bin/env bash
# Session 31, call m4 (bundle m2, ef1d9e3's rules): two BF16 rules re-timed on products around
# their bounds, beside PyTorch. (1) The short-k kernel in place of padding for wgmma
# (SHORTK_PADDED_OUTPUTS, 1-4 Mi outputs, k <= 32): its products of session 17 and others in
# that range, k 17-32, rows off 16 bytes, every layout. (2) Multicast pairs from k = 1024
# (MULTICAST_MIN_K): products with k of 784-1000 and op(B) rows off the 128-byte lines.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/m2.txz -C /tmp/b; B=/tmp/b/m2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SK="387x4330x23,777x1555x27,300x5000x17,2753x975x32,1500x1500x30,1000x2000x21,2501x1001x25,1301x1699x31,3001x1001x19"
MC="1000x1000x1000,900x900x900,1201x800x960,2000x1000x1000,1500x1500x900,770x1024x1000,1024x784x784,3000x700x1000"
(echo "precision,layout,m,n,k,group"
 for s in ${SK//,/ } ${MC//,/ }; do for l in nn nt tn tt; do echo "bf16,$l,${s//x/,},m4"; done; done) > $L/cases.csv
timeout 80 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
timeout 200 $B/gemm_plans --precisions bf16 --layouts nn,nt,tn,tt --shapes $SK --plans Auto,ShortK,MmaTile64,Wgmma64x64+aligned,Wgmma64x128+aligned,Wgmma128x192+aligned,Wgmma128x208+aligned,Wgmma+aligned > $L/plans-shortk.csv 2> $L/plans-shortk-err.log; el "shortk rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
timeout 200 $B/gemm_plans --precisions bf16 --layouts nn,nt,tn,tt --shapes $MC --plans Auto,Wgmma64x128,Wgmma64x128+mc,Wgmma128x192,Wgmma128x192+mc > $L/plans-mc.csv 2> $L/plans-mc-err.log; el "mc rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 29, call j1 (bundle j1: BF16 wgmma tiles with TMA multicast pairs, Bf16Plan::multicast,
# Auto unchanged): the BF16 op tests (multicast pairs in every tile and layout, and the other
# BF16 tests: the kernel changed for every BF16 wgmma plan); every BF16 wgmma plan with and
# without +mc on cases.csv, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/j1.txz -C /tmp/b; B=/tmp/b/j1
L=/tmp/logs; rm -rf $L; mkdir -p $L
D=docs/runs/2026-11-28-s29/j1
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 100 $B/ops multicast > $L/test-mc.log 2>&1; echo "rc=$?" >> $L/test-mc.log); el "mc: $(grep -E '^test result' $L/test-mc.log | tail -1) $(tail -1 $L/test-mc.log)"
grep -E "FAILED|panicked|failed:|Error|error" $L/test-mc.log | head -20
(echo "# s29 j1"; echo "precision,layout,m,n,k,group"; sed 's/$/,mc/' $D/cases.csv) > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
P=Auto; for x in Wgmma Wgmma128x208 Wgmma128x192 Wgmma64x128 Wgmma64x64 WgmmaSwapped Wgmma64x32 Wgmma64x32Swapped; do P=$P,$x,$x+mc; done
while IFS=, read p l m n k; do
  timeout 40 $B/gemm_plans --precisions $p --layouts $l --shapes ${m}x${n}x${k} --plans $P 2>>$L/plans-err.log | grep -v '^precision' >> $L/plans.csv
done < $D/cases.csv; el "plans $(wc -l < $L/plans.csv)"
(timeout 200 $B/ops gemm_bf16 > $L/test-bf16.log 2>&1; echo "rc=$?" >> $L/test-bf16.log); el "bf16: $(grep -E '^test result' $L/test-bf16.log | tail -1) $(tail -1 $L/test-bf16.log)"
grep -E "FAILED|panicked|failed:" $L/test-bf16.log | head
xz -9 $L/test-*.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

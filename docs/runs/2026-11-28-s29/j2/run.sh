#!/usr/bin/env bash
# Session 29, call j2 (bundle j2: j1 with the peer's stage release at block scope, not cluster
# scope): the multicast op tests; every BF16 wgmma plan with and without +mc on cases.csv,
# beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/j2.txz -C /tmp/b; B=/tmp/b/j2
L=/tmp/logs; rm -rf $L; mkdir -p $L
D=docs/runs/2026-11-28-s29/j2
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 100 $B/ops multicast > $L/test-mc.log 2>&1; echo "rc=$?" >> $L/test-mc.log); el "mc: $(grep -E '^test result' $L/test-mc.log | tail -1) $(tail -1 $L/test-mc.log)"
grep -E "FAILED|panicked|failed:|Error|error" $L/test-mc.log | head -20
(echo "# s29 j2"; echo "precision,layout,m,n,k,group"; sed 's/$/,mc/' $D/cases.csv) > $L/cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
P=Auto; for x in Wgmma Wgmma128x208 Wgmma128x192 Wgmma64x128 Wgmma64x64 WgmmaSwapped Wgmma64x32 Wgmma64x32Swapped; do P=$P,$x,$x+mc; done
while IFS=, read p l m n k; do
  timeout 40 $B/gemm_plans --precisions $p --layouts $l --shapes ${m}x${n}x${k} --plans $P 2>>$L/plans-err.log | grep -v '^precision' >> $L/plans.csv
done < $D/cases.csv; el "plans $(wc -l < $L/plans.csv)"
xz -9 $L/test-*.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

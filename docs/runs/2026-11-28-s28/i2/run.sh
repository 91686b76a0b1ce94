#!/usr/bin/env bash
# Session 28, call i2 (bundle i2: Bf16Plan::align_rows, Auto unchanged): the aligned-rows tests;
# every BF16 wgmma plan with and without its operands copied into 128-byte-aligned rows first
# (`+aligned`) on products whose operand rows are off 128-byte lines, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/i2.txz -C /tmp/b; B=/tmp/b/i2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $B/ops aligned_rows > $L/test-aligned.log 2>&1; echo "rc=$?" >> $L/test-aligned.log; el "aligned tests: $(grep -E '^test result' $L/test-aligned.log | tail -1)"
timeout 60 $B/ops plan_errors > $L/test-errors.log 2>&1; echo "rc=$?" >> $L/test-errors.log; el "plan errors: $(grep -E '^test result' $L/test-errors.log | tail -1)"
grep -E "FAILED|panicked|failed:" $L/test-*.log | head -20
SQ="1000x1000x1000 2000x2000x2000 3000x3000x3000 4000x4000x4000 5000x5000x5000 7000x7000x7000"
MLP="256x784x1024 1024x784x1024 2048x784x1024 4096x784x1024 512x784x4096 1024x784x2048 256x1024x784 1024x1024x784 64x1024x784"
RND="2504x1800x3000 1208x3320x2216 6008x1000x800 776x5000x5000 3000x328x3000"
P=Auto; for x in Wgmma WgmmaSwapped Wgmma128x208 Wgmma128x192 Wgmma64x128 Wgmma64x64 Wgmma64x32 Wgmma64x32Swapped; do P="$P,$x,$x+aligned"; done
(echo "# s28 i2"; echo "precision,layout,m,n,k,group"
 for s in $SQ; do for l in nn tt; do echo "bf16,$l,${s//x/,},sq"; done; done
 for s in $MLP $RND; do for l in nn tn nt; do echo "bf16,$l,${s//x/,},mlp"; done; done) > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
grep -v '^#' $L/cases.csv | grep -v '^precision' | while IFS=, read p l m n k g; do
  timeout 100 $B/gemm_plans --precisions $p --layouts $l --shapes ${m}x${n}x${k} --plans $P 2>/dev/null | grep -v '^precision' >> $L/plans.csv
done; el "plans rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

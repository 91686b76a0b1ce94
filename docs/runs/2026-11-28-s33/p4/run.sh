#!/usr/bin/env bash
# Session 33, call p4 (bundle p4 = scripts/gpu-bundle of the working tree with ptxas: bbb3d5a's
# rules, GemmParams without the multicast field (the cluster a property of the kernel the host
# launches); old = 0680516's gemm_plans): every test binary; Auto, new and old, on the products
# whose pick changed, beside PyTorch; Nsight Compute on BF16 nn 1024x784x4096 (the eight-stage
# 64x128 tile in pairs, Auto's pick): where its warps stall, by instruction.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/p4.txz -C /tmp/b && tar xJf .gpu/old.txz -C /tmp/b; B=/tmp/b/p4
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
CASES="bf16:nn:7x1x222 bf16:nn:100x1x100 bf16:tt:1130x1x248 tf32:tt:1130x1x248 bf16:tt:5069x5x50 bf16:tn:2x6x8114 tf32:tn:18x2x709 bf16:nn:6x1041x257 tf32:tn:6x1041x257 f32:tt:668x8x366 bf16:nt:1x14x412 tf32:tn:443x3365x2961 bf16:nn:3x500x900 tf32:nt:300x4x700 bf16:tt:2000x7x60 f32:nn:50x3x3000 bf16:nn:1024x784x4096 bf16:tn:1024x1024x4096 tf32:nt:256x4096x4096"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,p4"; done) > $L/cases-auto.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-auto.csv > $L/torch-auto.csv 2> $L/torch-auto-err.log; el "torch auto rc=$?"
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 30 $B/benches/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto >> $L/auto-new.csv 2>> $L/auto-err.log
  timeout 30 /tmp/b/old/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto >> $L/auto-old.csv 2>> $L/auto-err.log; done; el "auto done"
(cd $L && tar czf $OUT/logs.tgz .)
S="--section SpeedOfLight --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis"
timeout 120 ncu $S -k regex:gemm_wgmma --launch-skip 2 --launch-count 1 $B/benches/gemm_plans --precisions bf16 --layouts nn --shapes 1024x784x4096 --plans Wgmma64x128+mc --profile 4 > $L/ncu-pairs.txt 2>&1; el "ncu rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

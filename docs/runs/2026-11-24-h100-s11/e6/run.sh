#!/usr/bin/env bash
# Session 11, experiment 6: TF32 `wgmma` with the MN-major operand read into registers
# (`Tf32WgmmaRegA`: tt as is, nn as C^T = B^T A^T): its GPU tests and memcheck, and every split
# of it beside `Tf32Auto` and the staged/transposing tiles on nn and tt products.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e6.txz -C /tmp/e && E=/tmp/e/e6
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/ops "RegA" > $L/tests.log 2>&1; el "tests rc=$? $(grep -E '^test result' $L/tests.log)"; grep -E "FAILED|panicked|mismatch|differs" $L/tests.log | head -12
S=256x4096x4096,512x4096x4096,1024x4096x4096,256x784x4096,128x4096x4096,4096x4096x4096,1024x1024x1024,2048x1024x1024,4096x1024x1024,32x1024x1024,64x4096x4096,256x1024x1024,1536x1536x1536
timeout 200 $E/gemm_plans --precisions tf32 --layouts nn,tt --shapes $S --plans Auto,Tf32WgmmaRegA,Tf32Wgmma,Tf32Wgmma64x128,Tf32Wgmma64x64,Tf32Wgmma128x208 > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $E/ops "RegA::ta" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 12, experiment 9: the short-k kernel staging 8, 16 or 32 k-rows as k needs: tests and
# memcheck, and the short-k plans beside Auto's alternatives on small and large k ≤ 12 products.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e9.txz -C /tmp/e && E=/tmp/e/e9
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/ops "ShortK" > $L/tests.log 2>&1; el "tests rc=$? $(grep -E '^test result' $L/tests.log)"; grep -E "FAILED|panicked|mismatch|differs" $L/tests.log | head -12
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $E/ops "ShortK" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
S=4670x94x6,188x2323x3,797x346x9,2236x588x4,326x6x8,64x1024x10,256x4096x10,1024x1024x10,4096x4096x10,322x4203x12,4096x4096x4
timeout 200 $E/gemm_plans --precisions f32,bf16 --layouts nn,tn,tt --shapes $S --plans ShortK,Auto,Tile64Fine,SmemTiled,MmaTile64 > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
grep ShortK $L/plans.csv | awk -F, '{print $1,$2,$3,$4,$5,$8}'
tar czf $OUT/logs.tgz -C /tmp logs

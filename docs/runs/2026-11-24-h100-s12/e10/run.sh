#!/usr/bin/env bash
# Session 12, experiment 10: the 32×32 shared-memory tiles reading each operand along its
# contiguous direction (transposed operands were read one row per lane): tests and memcheck,
# every f32/TF32/BF16 plan on small squares in four layouts, and the short-k kernel at k = 16
# and 32 beside Auto.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e10.txz -C /tmp/e && E=/tmp/e/e10
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/ops "Smem" > $L/tests.log 2>&1; el "tests rc=$? $(grep -E '^test result' $L/tests.log)"; grep -E "FAILED|panicked|mismatch|differs" $L/tests.log | head -12
timeout 120 $E/ops "routes" > $L/tests-routes.log 2>&1; el "tests routes rc=$? $(grep -E '^test result' $L/tests-routes.log)"; grep -E "FAILED|panicked" $L/tests-routes.log | head -12
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $E/ops "Smem" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
timeout 250 $E/gemm_plans --precisions f32,tf32,bf16 --layouts nn,nt,tn,tt --shapes 128x128x128,256x256x256,384x384x384,512x512x512,64x1024x1024,32x1024x1024 > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
timeout 150 $E/gemm_plans --precisions f32,tf32,bf16 --layouts nn,tn --shapes 4096x4096x16,1024x1024x16,4096x784x32,8192x4096x32,1024x4096x24 --plans Auto,ShortK > $L/plans-shortk.csv 2> $L/plans-shortk.err; el "plans shortk rc=$?"
cat $L/plans-shortk.csv
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 12, experiment 3: the short-k kernel rewritten (8×4 outputs per thread, 16-byte
# quads, loads batched): its GPU tests and memcheck, every plan on k ≤ 32 products in three
# layouts and three precisions, and Nsight Compute on 4096×4096×10.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e3.txz -C /tmp/e && E=/tmp/e/e3
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 120 $E/ops "ShortK" > $L/tests.log 2>&1; el "tests rc=$? $(grep -E '^test result' $L/tests.log)"; grep -E "FAILED|panicked|mismatch|differs" $L/tests.log | head -12
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $E/ops "ShortK::ta0_tb1" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
S=4096x4096x10,2048x4096x10,1024x4096x10,4096x1024x10,1024x1024x10,64x1024x10,128x4096x10,256x1024x10,64x4096x10,4096x4096x16,8192x4096x32,4096x784x32,1024x1024x32,322x4203x12,4670x94x6,797x346x9,6308x37x20,2236x588x4,8192x8192x16,1024x784x16
timeout 300 $E/gemm_plans --precisions f32,tf32,bf16 --layouts nn,tn,tt --shapes $S > $L/plans.csv 2> $L/plans.err; el "plans rc=$? $(wc -l < $L/plans.csv) $(grep -c mismatch $L/plans.csv)"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__bytes_write.sum,launch__grid_size,smsp__inst_executed.sum
for s in 64x1024x10 4096x4096x10; do
timeout 60 $NCU --metrics $M $E/gemm_plans --precisions bf16 --layouts nn --shapes $s --plans ShortK --profile 2 > $L/ncu-$s.txt 2>&1; el "ncu $s rc=$?"
grep -E "^  [a-z_0-9]+ \(|duration|throughput|warps|regis|bytes|grid|inst" $L/ncu-$s.txt | head -8
done
tar czf $OUT/logs.tgz -C /tmp logs

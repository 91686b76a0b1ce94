#!/usr/bin/env bash
# Session 17, call e2: the 64×32 tile in every layout (an MN-major 32-wide operand in 64-byte
# swizzled rows): its op tests and memcheck; every BF16 plan on few-row and few-column products
# in all four layouts (gemm_plans); then BF16 Auto with the 64×32 tiles (new) against HEAD
# 5c4919c (old) over the BF16 sweep, alternated twice, against one PyTorch run.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e2s17.txz -C /tmp/b && B=/tmp/b/e2s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/ops-test "gemm_bf16::" > $L/tests-bf16.log 2>&1; el "tests gemm_bf16:: rc=$? $(grep -E '^test result' $L/tests-bf16.log)"
grep -E "FAILED|failed|panicked" $L/tests-bf16.log | head -20
for t in "gemm_bf16::Wgmma64x32::split::ta1_tb0" "gemm_bf16::Wgmma64x32Swapped::split::ta1_tb1" "gemm_bf16::Wgmma64x32::split::ta0_tb0"; do
timeout 100 compute-sanitizer --tool memcheck $B/ops-test "$t" > $L/memcheck-$t.log 2>&1; el "memcheck $t rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-$t.log | tr '\n' ' ')"
done
SH="32x4096x4096,16x4096x4096,8x8192x8192,32x1024x16384,10x1024x4096,4096x16x4096,4096x32x4096,1024x32x16384,2048x10x4096,4096x10x1024,20x777x3008,1x4096x4096,24x3000x2000"
timeout 200 $B/gemm_plans --precisions bf16 --layouts nn,nt,tn,tt --shapes $SH > $L/plans.csv 2> $L/plans-err.log; el "plans rc=$? $(wc -l < $L/plans.csv) rows, $(grep -c mismatch $L/plans.csv) mismatches"
$B/gemm_sweep --list --precisions bf16 --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for i in 1 2; do
  for v in old new; do
    bin=$B/gemm_sweep; [ $v = old ] && bin=$B/gemm_sweep_old
    timeout 100 $bin --precisions bf16 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-$v-$i.csv > $L/sweep-$v-$i.log 2>&1; el "sweep $v $i rc=$? $(grep -E '^bf16 all' $L/sweep-$v-$i.log)"
  done
done
python3 docs/runs/2026-11-24-h100-s17/compare.py $L/sweep-old-1.csv,$L/sweep-old-2.csv $L/sweep-new-1.csv,$L/sweep-new-2.csv
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 17, call e3: TF32 with op(A) from registers on a 128×192 tile (GemmKernel::
# Tf32WgmmaRegAWide): its op tests and memcheck, then every TF32 plan (gemm_plans) on products
# with an MN-major operand (nn, tn, tt), the data its model constants are fitted to; and the
# TF32 sweep with the guessed constants (new) against HEAD 5c4919c (old), once each.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e3s17.txz -C /tmp/b && B=/tmp/b/e3s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/ops-test "gemm::Tf32WgmmaRegA" > $L/tests-rega.log 2>&1; el "tests rega rc=$? $(grep -E '^test result' $L/tests-rega.log)"
grep -E "FAILED|failed|panicked" $L/tests-rega.log | head -20
timeout 100 compute-sanitizer --tool memcheck $B/ops-test "gemm::Tf32WgmmaRegAWide::ta0_tb0::264x4096x520" > $L/memcheck-rega-wide.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-rega-wide.log | tr '\n' ' ')"
SH="1024x4096x4096,2048x4096x4096,4096x4096x4096,512x4096x4096,256x4096x4096,1536x1536x1536,2048x2048x2048,3000x3000x3000,4096x1024x1024,1024x784x4096,4096x784x1024,8192x8192x64,4096x784x32,1024x784x128"
timeout 330 $B/gemm_plans --precisions tf32 --layouts nn,tn,tt --shapes $SH --plans Auto,Tf32Wgmma,Tf32Wgmma64x128,Tf32Wgmma128x208,Tf32WgmmaRegA,Tf32WgmmaRegAWide > $L/plans.csv 2> $L/plans-err.log; el "plans rc=$? $(wc -l < $L/plans.csv) rows, $(grep -c mismatch $L/plans.csv) mismatches"
$B/gemm_sweep --list --precisions tf32 --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for v in old new; do
  bin=$B/gemm_sweep; [ $v = old ] && bin=$B/gemm_sweep_old
  timeout 100 $bin --precisions tf32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-$v-1.csv > $L/sweep-$v-1.log 2>&1; el "sweep $v rc=$? $(grep -E '^tf32 all' $L/sweep-$v-1.log)"
done
python3 docs/runs/2026-11-24-h100-s17/compare.py $L/sweep-old-1.csv $L/sweep-new-1.csv
tar czf $OUT/logs.tgz -C /tmp logs

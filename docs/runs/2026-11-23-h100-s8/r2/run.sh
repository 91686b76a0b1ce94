#!/usr/bin/env bash
# Session 8, call 2: split-K of the wgmma kernels in a thread-block cluster (up to 8 splits add
# their partial tiles through distributed shared memory): the GEMM tests, memcheck on the split
# tests, then every BF16 and TF32 plan on small and mid products, to fit the cluster split's cost.
set -u
mkdir -p /tmp/b && tar xJf .gpu/r2.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/tests/ops-test gemm > $L/ops-gemm.log 2>&1; el "ops gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"; grep -E "FAILED|panicked|failed" $L/ops-gemm.log | head -8
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 120 $CS --tool memcheck $B/tests/ops-test "Wgmma64x64::split" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
S=32x1024x1024,64x1024x784,128x784x1024,256x1024x1024,512x1024x1024,32x4096x4096,128x4096x4096,512x4096x4096,32x10x4096,1024x10x1024,4096x10x4096,10x1024x4096,1024x784x4096,4096x784x1024,4096x784x4096,1024x1024x1024,4096x4096x4096,2048x2048x2048,64x64x16384,4096x16x4096,16x4096x4096,777x555x333,33x2000x5000,1000x3000x700,3000x3000x3000,256x784x4096
timeout 170 $B/benches/gemm_plans --precisions bf16 --layouts nn,nt,tn --shapes $S > $L/plans-bf16.csv 2> $L/plans-bf16.err; el "plans bf16 rc=$? $(wc -l < $L/plans-bf16.csv) rows"
timeout 130 $B/benches/gemm_plans --precisions tf32 --layouts nt,nn --shapes $S > $L/plans-tf32.csv 2> $L/plans-tf32.err; el "plans tf32 rc=$? $(wc -l < $L/plans-tf32.csv) rows"
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 8, call 8: the BF16 128×208 wgmma tile (n = 784 in four tiles): its tests in every
# layout (plain and split), memcheck, and every BF16 plan on the 54 shapes of call 6 to fit its
# constants.
set -u
mkdir -p /tmp/b && tar xJf .gpu/r8.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 100 $B/tests/ops-test gemm_bf16 > $L/ops-bf16.log 2>&1; el "ops gemm_bf16 rc=$? $(grep '^test result' $L/ops-bf16.log)"; grep -E "FAILED|panicked|failed" $L/ops-bf16.log | head -8
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 100 $CS --tool memcheck $B/tests/ops-test "Wgmma128x208" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
S=32x1024x1024,64x1024x784,128x784x1024,256x1024x1024,512x1024x1024,32x4096x4096,128x4096x4096,512x4096x4096,32x10x4096,1024x10x1024,4096x10x4096,10x1024x4096,1024x784x4096,4096x784x1024,4096x784x4096,1024x1024x1024,4096x4096x4096,2048x2048x2048,64x64x16384,4096x16x4096,16x4096x4096,777x555x333,33x2000x5000,1000x3000x700,3000x3000x3000,256x784x4096
X=768x768x768,1536x1536x1536,384x384x384,256x4096x4096,64x4096x4096,2048x784x4096,512x784x4096,128x784x4096,4096x1024x4096,1024x4096x1024,256x784x1024,2048x1024x1024
R=1183x3043x611,23x1737x14,2269x104x27,609x13x132,48x16x1637,51x175x69,4277x1209x11,1850x1201x5283,29x2941x188,17x542x1592,116x92x2810,598x128x963,280x1933x247,61x18x71,109x687x851,47x1585x2591
timeout 230 $B/benches/gemm_plans --precisions bf16 --layouts nn,nt,tn --shapes $S,$X,$R > $L/plans-bf16.csv 2> $L/plans-bf16.err; el "plans bf16 rc=$? $(wc -l < $L/plans-bf16.csv) rows $(grep -c mismatch $L/plans-bf16.csv) mismatches"
tar czf $OUT/logs.tgz -C /tmp logs

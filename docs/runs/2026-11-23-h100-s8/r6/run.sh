#!/usr/bin/env bash
# Session 8, call 6: L2 promotion 128 B for rows not on 256-byte boundaries; every BF16 and TF32
# plan on the 26 shapes of call 3 plus 12 more MLP and square shapes and 16 log-uniform random
# ones (seed 20261123, [8, 6000]³), in three layouts each, to refit the constants on a broader
# set; then the GEMM tests.
set -u
mkdir -p /tmp/b && tar xJf .gpu/r6.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=32x1024x1024,64x1024x784,128x784x1024,256x1024x1024,512x1024x1024,32x4096x4096,128x4096x4096,512x4096x4096,32x10x4096,1024x10x1024,4096x10x4096,10x1024x4096,1024x784x4096,4096x784x1024,4096x784x4096,1024x1024x1024,4096x4096x4096,2048x2048x2048,64x64x16384,4096x16x4096,16x4096x4096,777x555x333,33x2000x5000,1000x3000x700,3000x3000x3000,256x784x4096
X=768x768x768,1536x1536x1536,384x384x384,256x4096x4096,64x4096x4096,2048x784x4096,512x784x4096,128x784x4096,4096x1024x4096,1024x4096x1024,256x784x1024,2048x1024x1024
R=1183x3043x611,23x1737x14,2269x104x27,609x13x132,48x16x1637,51x175x69,4277x1209x11,1850x1201x5283,29x2941x188,17x542x1592,116x92x2810,598x128x963,280x1933x247,61x18x71,109x687x851,47x1585x2591
timeout 230 $B/benches/gemm_plans --precisions bf16 --layouts nn,nt,tn --shapes $S,$X,$R > $L/plans-bf16.csv 2> $L/plans-bf16.err; el "plans bf16 rc=$? $(wc -l < $L/plans-bf16.csv) rows"
timeout 230 $B/benches/gemm_plans --precisions tf32 --layouts nn,nt,tn --shapes $S,$X,$R > $L/plans-tf32.csv 2> $L/plans-tf32.err; el "plans tf32 rc=$? $(wc -l < $L/plans-tf32.csv) rows"
timeout 100 $B/tests/ops-test gemm > $L/ops-gemm.log 2>&1; el "ops gemm rc=$? $(grep '^test result' $L/ops-gemm.log)"; grep -E "FAILED|panicked|failed" $L/ops-gemm.log | head -8
tar czf $OUT/logs.tgz -C /tmp logs

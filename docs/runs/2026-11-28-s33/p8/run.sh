#!/usr/bin/env bash
# Session 33, call p8 (bundle p5, the final code): Nsight Compute's per-instruction warp stall
# sampling (source page, SASS) of the eight-stage 64x128 pairs at BF16 nn 1024x784x4096 (Auto's
# pick): where a lone block's consumer warpgroup spends its ~500 cycles per k-slice.
set -u
mkdir -p /tmp/b && tar xJf .gpu/p5.txz -C /tmp/b; B=/tmp/b/p5
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
ncu --version > $L/ncu-version.txt 2>&1
timeout 150 ncu --section WarpStateStats --section SourceCounters --page source --print-source sass --csv -k regex:gemm_wgmma --launch-skip 2 --launch-count 1 $B/benches/gemm_plans --precisions bf16 --layouts nn --shapes 1024x784x4096 --plans Wgmma64x128+mc --profile 4 > $L/ncu-source.csv 2> $L/ncu-source-err.log; el "ncu source rc=$? $(wc -l < $L/ncu-source.csv) lines"
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 38, call u1 (bundle t10 = fa31399, the current code): where the clustered split-K of
# the BF16 wgmma tiles loses its time. (1) every 128x256, 128x192 and 64x128 plan on tn
# 1024x1024xk for k = 512..4096 (time against k and splits gives the split's fixed cost);
# (2) every BF16 plan of nt 4096x64x4096; (3) Nsight Compute's per-instruction stall sampling
# of the 128x256 tile in 3 splits at tn 1024x1024x4096 and of its lone-block form at k = 1365.
set -u
mkdir -p /tmp/b && tar xJf .gpu/t10.txz -C /tmp/b; B=/tmp/b/t10
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
GP=$B/gemm_plans
timeout 200 $GP --precisions bf16 --layouts tn --shapes 1024x1024x512,1024x1024x1024,1024x1024x1365,1024x1024x2048,1024x1024x4096,1024x784x4096,2048x2048x1024 --plans Wgmma,Wgmma128x192,Wgmma64x128,Wgmma128x208 > $L/plans-k.csv 2> $L/plans-k-err.log; el "plans-k rc=$? $(wc -l < $L/plans-k.csv)"
timeout 100 $GP --precisions bf16 --layouts nt,nn --shapes 4096x64x4096 > $L/plans-skinny.csv 2> $L/plans-skinny-err.log; el "plans-skinny rc=$? $(wc -l < $L/plans-skinny.csv)"
$GP --precisions bf16 --layouts tn --shapes 1024x1024x4096 --plans Wgmma --profile 1 > $L/rows-x3.csv 2> $L/rows-x3-err.log
cat $L/rows-x3.csv
# the row index (0-based) of splits 3 among the gemm rows
SKIP=$(awk -F, '/^bf16/ {if ($7=="3" || $0 ~ /Wgmma x3/) {print 2*i+1; exit}; i++}' $L/rows-x3.csv)
el "rows: $(wc -l < $L/rows-x3.csv) skip=$SKIP"
timeout 200 ncu --section WarpStateStats --section SourceCounters --section SpeedOfLight --section MemoryWorkloadAnalysis --page source --print-source sass --csv -k regex:gemm_wgmma --launch-skip ${SKIP:-5} --launch-count 1 $GP --precisions bf16 --layouts tn --shapes 1024x1024x4096 --plans Wgmma --profile 1 > $L/ncu-x3-source.csv 2> $L/ncu-x3-err.log; el "ncu x3 rc=$? $(wc -l < $L/ncu-x3-source.csv)"
timeout 120 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section Occupancy -k regex:gemm_wgmma $GP --precisions bf16 --layouts tn --shapes 1024x1024x4096,1024x1024x1365 --plans Wgmma --profile 1 > $L/ncu-details.txt 2> $L/ncu-details-err.log; el "ncu details rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 38, call u2 (bundle u2 = fa31399 + probe.patch, gemm_plans only): where the fixed cost
# of the BF16 wgmma tiles' epilogue and clustered split-K goes. PROBE_ALPHA picks what runs after
# the main loop: 1 = everything; 11 = stop once the accumulators are staged in shared memory;
# 9 = the split's distributed-shared-memory sums but no stores; 7 = each split sums only its own
# share (no distributed loads) and stores it.
set -u
mkdir -p /tmp/b && tar xJf .gpu/u2.txz -C /tmp/b; GP=/tmp/b/u2/gemm_plans
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
echo "alpha,precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/probe.csv
for rep in 1 2; do
for a in 1 11 9 7; do
  for x in tn:1024x1024x4096:Wgmma,Wgmma64x128,Wgmma64x128+mc,Wgmma128x192 tn:1024x1024x1365:Wgmma,Wgmma64x128 tn:1024x1024x512:Wgmma,Wgmma64x128 tn:1024x784x4096:Wgmma128x208,Wgmma nt:4096x64x4096:Wgmma64x64 tn:2048x2048x1024:Wgmma,Wgmma64x128; do
    IFS=: read l s pl <<< "$x"
    PROBE_ALPHA=$a timeout 60 $GP --precisions bf16 --layouts $l --shapes $s --plans $pl 2>> $L/err.log | tail -n +2 | sed "s/^/$a,/" >> $L/probe.csv
  done
  el "rep $rep alpha $a"
done
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 39, call v1 (bundle st1 = 5740de1 + stamps probe, not kept): per-block %globaltimer
# stamps of the BF16 wgmma kernels' phases (entry, after the grid wait, main loop end, staged,
# after the split's cluster barrier, after its sums and stores, after the closing barrier).
set -u
mkdir -p /tmp/b && tar xJf .gpu/st1.txz -C /tmp/b; S=/tmp/b/st1/stamps
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
for rep in 1 2; do
timeout 300 $S tn:1024x1024x4096:Wgmma:1 tn:1024x1024x4096:Wgmma:2 tn:1024x1024x4096:Wgmma:3 tn:1024x1024x4096:Wgmma:4 \
  tn:1024x1024x1365:Wgmma:1 tn:1024x1024x2048:Wgmma:1 tn:1024x1024x1024:Wgmma:1 tn:1024x1024x64:Wgmma:1 \
  tn:1024x1024x4096:Wgmma64x128:1 tn:1024x1024x4096:Wgmma64x128:2 tn:1024x1024x4096:Wgmma64x128:1:mc tn:1024x1024x4096:Wgmma64x128:2:mc \
  nn:1024x784x4096:WgmmaSwapped:4 nn:1024x784x4096:WgmmaSwapped:1 nn:1024x784x4096:Wgmma64x128:1:mc \
  nt:4096x64x4096:Wgmma64x64:3 nt:4096x64x4096:Wgmma64x64:1 tn:2048x2048x1024:Wgmma:1 tn:1024x1024x4096:Wgmma128x192:2 2>&1 | tee -a $L/stamps.txt
done
(cd $L && tar czf $OUT/logs.tgz .)

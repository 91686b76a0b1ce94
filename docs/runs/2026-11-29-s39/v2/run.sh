#!/usr/bin/env bash
# Session 39, call v2 (bundle st2 = st1 + two store probes, not kept): the unsplit wgmma tiles'
# store of a whole staged tile three ways, each timed and stamped: alpha 1/3 as it is (four
# 16-byte loads in flight per thread, then their stores), 5/7 one bulk copy per staged row
# (cp.async.bulk shared::cta -> global, no epilogue), 9/11 eight loads in flight.
set -u
mkdir -p /tmp/b && tar xJf .gpu/st2.txz -C /tmp/b; S=/tmp/b/st2/stamps
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
for rep in 1 2; do
PROBE=1/3,5/7,9/11 timeout 250 $S tn:1024x1024x64:Wgmma:1 tn:1024x1024x1024:Wgmma:1 tn:1024x1024x1365:Wgmma:1 tn:2048x2048x1024:Wgmma:1 \
  tn:1024x1024x1024:Wgmma64x128:1 tn:1024x1024x4096:Wgmma64x128:1:mc nn:1024x784x4096:WgmmaSwapped:1 \
  tn:8192x8192x64:Wgmma:1 tn:8192x8192x64:Wgmma64x128:1 tn:3072x3072x1024:Wgmma:1 2>&1 | tee -a $L/stamps.txt
done
(cd $L && tar czf $OUT/logs.tgz .)

#!/usr/bin/env bash
# Session 40, call x3 (bundle x2): what a CUDA-core split plan's reduction costs. One tile (nt
# 64x32, 64x64, 128x64: one tile of Tile64x32, Tile64Fine and Tile64, Tile128x64) with k = 64
# per split (4 slices of 16) for every split count: the time over the split count is the last
# block's summing of the partial tiles plus the blocks' launch; k = 1024 per split alongside.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/x2.txz -C /tmp/b; B=/tmp/b/x2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/red.csv
for per in 64 1024; do for s in 1 2 4 8 16 32 64; do k=$((per * s))
  for x in Tile64x32:64x32 Tile64Fine:64x64 Tile64:64x64 Tile128x64:128x64; do IFS=: read pl mn <<< "$x"
    timeout 20 $B/gemm_plans --precisions f32 --layouts nt --shapes ${mn}x$k --plans $pl 2>> $L/err.log | tail -n +2 | awk -F, -v s=$s '$7==s' >> $L/red.csv
  done
done; el "per $per"; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

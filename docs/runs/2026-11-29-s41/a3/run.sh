#!/usr/bin/env bash
# Session 41, call a3 (bundle p1: gemm_plans of the grouped-k-rows WIP branch, 5ca09e9, with two
# throwaway overrides: PROBE_FORCE_TRANSPOSE makes every TF32 wgmma plan transpose its MN-major
# operands in the kernel, PROBE_FORCE_GROUP=g groups their k rows by g even where aligned): which
# copy-engine boxes fault. E1 aligned class starts inside the map; E2 class starts off 16 bytes
# inside the map; E3 aligned class starts, boxes starting past the map's columns; E4/E5 the same
# without grouping.
set -u
mkdir -p /tmp/b && tar xJf .gpu/p1.txz -C /tmp/b; GP=/tmp/b/p1/gemm_plans
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
run() { echo "== $*"; env PROBE_FORCE_TRANSPOSE=1 "$@" 2>&1 | grep -v DeviceInfo | head -4 | cut -c1-160; }
for pl in Tf32Wgmma64x128 Tf32Wgmma64x64; do
run PROBE_FORCE_GROUP=2 $GP --precisions tf32 --layouts tn --shapes 64x4096x1024 --plans $pl
run $GP --precisions tf32 --layouts tn --shapes 62x4096x1024 --plans $pl
run PROBE_FORCE_GROUP=2 $GP --precisions tf32 --layouts tn --shapes 12x4096x1024 --plans $pl
run $GP --precisions tf32 --layouts tn --shapes 64x4096x1024 --plans $pl
run $GP --precisions tf32 --layouts tn --shapes 12x4096x1024 --plans $pl
run $GP --precisions tf32 --layouts nn --shapes 64x62x1024 --plans $pl
run PROBE_FORCE_GROUP=2 $GP --precisions tf32 --layouts nn --shapes 64x64x1024 --plans $pl
done | tee $L/probe.log
(cd $L && tar czf $OUT/logs.tgz .)

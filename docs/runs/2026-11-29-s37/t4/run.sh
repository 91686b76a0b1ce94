#!/usr/bin/env bash
# Session 37, call t4 (bundle t2): which interleaved reads fault: 2 matrices (k = 2 mod 4) or 4
# (k odd), one tile or several, each product in its own process.
set -u
mkdir -p /tmp/b && tar xJf .gpu/t2.txz -C /tmp/b; B=/tmp/b/t2
for x in nt:64x64x8:Tf32Wgmma64x64 nt:64x64x6:Tf32Wgmma64x64 nt:64x64x5:Tf32Wgmma64x64 nt:64x64x1030:Tf32Wgmma64x64 nt:256x256x1030:Tf32Wgmma nt:256x256x1029:Tf32Wgmma64x128 nn:64x64x6:Tf32WgmmaRegA nn:64x64x5:Tf32WgmmaRegA nt:64x8x6:Tf32Wgmma64x64 nt:8x64x6:Tf32Wgmma64x64; do
  IFS=: read l s p <<< "$x"
  timeout 30 $B/gemm_plans --precisions tf32 --layouts $l --shapes $s --plans $p 2>&1 | tail -n +2 | head -3 | sed "s/^/$x: /"
done
timeout 60 compute-sanitizer --print-limit 2 $B/gemm_plans --precisions tf32 --layouts nt --shapes 64x64x6 --plans Tf32Wgmma64x64 2>&1 | grep -E "Illegal|at gemm|Invalid|error" | head -5

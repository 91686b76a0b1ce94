#!/usr/bin/env bash
# Session 14, call e6: FP32 (on TF32, x3) and TF32 products timed by the build of HEAD 72d06e3
# (e1's binaries) and of r3's, alternated in one call: is r3's slower FP32 4096^3 the kernels?
set -u
mkdir -p /tmp/b && tar xJf .gpu/e1s14.txz -C /tmp/b && tar xJf .gpu/r3s14.txz -C /tmp/b
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH=4096x4096x4096,4096x1024x1024,2000x2000x2000
for i in 1 2; do
  /tmp/b/e1s14/gemm_plans --precisions f32,tf32 --layouts nt --shapes $SH --plans Auto,Tf32x3Wgmma128x128,Tf32Wgmma > $L/old-$i.csv 2>> $L/err.log
  /tmp/b/r3s14/benches/gemm_plans --precisions f32,tf32 --layouts nt --shapes $SH --plans Auto,Tf32x3Wgmma128x128,Tf32Wgmma > $L/new-$i.csv 2>> $L/err.log
done
for f in $L/old-1.csv $L/new-1.csv $L/old-2.csv $L/new-2.csv; do echo "== $f"; awk -F, '$7=="1" || $6=="Auto" {printf "%s %s %sx%sx%s %s/%s %.1f\n", $1,$2,$3,$4,$5,$6,$7,$8*1000}' $f; done
tar czf $OUT/logs.tgz -C /tmp logs

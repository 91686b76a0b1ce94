#!/usr/bin/env bash
# Session 25, call e3: every wgmma plan of the products e2 found slower or unchanged, build e2
# against s7 (session 24's final kernels), alternated twice.
set -u
mkdir -p /tmp/b && for x in e2 s7p; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
P=Auto,Wgmma,WgmmaSwapped,Wgmma128x208,Wgmma64x128,Wgmma64x64,Tf32Wgmma,Tf32Wgmma128x208,Tf32Wgmma64x128,Tf32Wgmma64x64,Tf32WgmmaRegA,Tf32WgmmaRegAWide
for r in 1 2; do
  for b in new old; do
    bin=/tmp/b/e2/gemm_plans; [ $b = old ] && bin=/tmp/b/s7/benches/gemm_plans
    $bin --precisions bf16 --layouts nn,nt --shapes 3000x3000x3000,1536x1536x1536,1024x1024x1024,8192x8192x64,512x1024x1024 --plans $P > $L/bf16-$b-$r.csv 2>$L/bf16-$b-$r.err; el "bf16 $b $r rc=$?"
    $bin --precisions tf32 --layouts nt --shapes 128x4096x4096,3000x3000x3000,1024x1024x1024 --plans $P > $L/tf32-$b-$r.csv 2>$L/tf32-$b-$r.err; el "tf32 $b $r rc=$?"
  done
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

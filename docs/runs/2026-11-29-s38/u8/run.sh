#!/usr/bin/env bash
# Session 38, call u8 (bundles: u8 = gemm_plans of the 128x256 tile's measured cluster cost,
# 400 k-steps; old = u5, 64bdd1d): BF16 `Auto` of both builds, alternated twice, on the products
# whose pick it changes (2048x1024x2048, three layouts) and on controls whose pick stays.
set -u
mkdir -p /tmp/b && tar xJf .gpu/u8.txz -C /tmp/b && tar xJf .gpu/u5.txz -C /tmp/b
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=2048x1024x2048,1024x1024x4096,1024x784x4096,2048x2048x1024,3000x3000x3000,512x512x8192,768x768x6000,4096x4096x4096
for rep in 1 2; do
  timeout 60 /tmp/b/u5/benches/gemm_plans --precisions bf16 --layouts nn,nt,tn --shapes $S --plans Auto > $L/old-$rep.csv 2>> $L/err.log; el "old $rep rc=$?"
  timeout 60 /tmp/b/u8/gemm_plans --precisions bf16 --layouts nn,nt,tn --shapes $S --plans Auto > $L/new-$rep.csv 2>> $L/err.log; el "new $rep rc=$?"
done
paste -d, $L/old-1.csv $L/new-1.csv | cut -d, -f2-5,8,18 | column -t -s,
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 38, call u4 (bundles: u4 = fa31399 + the common epilogue's own summing loop in the
# clustered split-K; u4b = u4 + a relaxed closing cluster barrier (gemm_plans only); old = t10,
# fa31399): the op and nn tests of u4; every BF16 plan of split-bound products with the three
# builds, alternated twice; every TF32 plan (nn) of a few split-bound products with the three.
set -u
mkdir -p /tmp/b && for x in u4 u4b t10; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do (timeout 200 /tmp/b/u4/$t > $L/$t.log 2>&1; echo "$t rc=$?" >> $L/$t.log); el "$(grep -E '^test result|rc=' $L/$t.log | tr '\n' ' ')"; grep -E "FAILED|panicked" $L/$t.log | head; xz -9 $L/$t.log; done
X=1024x1024x4096,1024x784x4096,1024x1024x1365,768x768x6000,512x784x1024,256x1024x4096,512x512x8192,4096x64x4096,2048x64x8192,384x384x12288
T=1024x1024x4096,256x1024x4096,512x512x8192,4096x64x4096,768x768x6000
for rep in 1 2; do
  for b in t10 u4 u4b; do
    timeout 100 /tmp/b/$b/gemm_plans --precisions bf16 --layouts nn,tn,nt --shapes $X > $L/$b-x-$rep.csv 2>> $L/err.log; el "$b bf16 $rep rc=$?"
    timeout 60 /tmp/b/$b/gemm_plans --precisions tf32 --layouts nn --shapes $T > $L/$b-t-$rep.csv 2>> $L/err.log; el "$b tf32 $rep rc=$?"
  done
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 38, call u3 (bundle u3: the clustered split-K exchanges its partial tiles through the
# workspace in L2 instead of distributed shared memory; old = t10, fa31399): the op and nn tests;
# every BF16 plan of gemm_plans' shapes (nn, tn) and of split-bound products with the new build,
# the same split-bound products with the old build; every TF32 plan (nn) of the default shapes.
set -u
mkdir -p /tmp/b && for x in u3 t10; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/u3; O=/tmp/b/t10
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do (timeout 200 $B/$t > $L/$t.log 2>&1; echo "$t rc=$?" >> $L/$t.log); el "$(grep -E '^test result|rc=' $L/$t.log | tr '\n' ' ')"; grep -E "FAILED|panicked" $L/$t.log | head; xz -9 $L/$t.log; done
X=1024x1024x4096,1024x784x4096,1024x1024x1365,1024x1024x2048,768x768x6000,512x784x1024,256x1024x4096,256x4096x4096,512x512x8192,2048x1024x2048,1536x1536x1536,4096x64x4096,2048x64x8192,384x384x12288
for rep in 1 2; do
  timeout 150 $B/gemm_plans --precisions bf16 --layouts nn,tn,nt --shapes $X > $L/new-x-$rep.csv 2>> $L/err.log; el "new x $rep rc=$?"
  timeout 150 $O/gemm_plans --precisions bf16 --layouts nn,tn,nt --shapes $X > $L/old-x-$rep.csv 2>> $L/err.log; el "old x $rep rc=$?"
done
timeout 200 $B/gemm_plans --precisions bf16 --layouts nn,tn > $L/new-default.csv 2>> $L/err.log; el "new default rc=$?"
timeout 150 $B/gemm_plans --precisions tf32 --layouts nn > $L/new-tf32.csv 2>> $L/err.log; el "new tf32 rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

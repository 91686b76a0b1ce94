#!/usr/bin/env bash
# Session 35, call r4: how many wgmma groups a consumer leaves in flight before it waits and
# releases a stage. Bundles (gemm_plans only): r3 = one (the code before; r3's column clusters
# do not touch these plans), r4a = two (WG_GROUPS_IN_FLIGHT = 2), r4b = three. Auto and the
# 64x128 / 64x64 plans on the lone-block family, Auto on mid and large BF16 and TF32 products,
# the three builds alternated twice, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in r3 r4a r4b; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
FAM="bf16:tn:1024x1024x4096 bf16:nn:1024x784x4096 bf16:tn:1024x784x4096 bf16:tn:1024x784x2048 bf16:nt:4096x64x4096 bf16:nn:256x4096x4096 bf16:nn:512x784x4096"
WIDE="bf16:nt:1024x1024x1024 bf16:tn:1536x1536x1536 bf16:nt:2048x2048x2048 bf16:nn:3000x3000x3000 bf16:nt:4096x4096x4096 bf16:tn:4096x784x4096 bf16:nn:256x1024x784 bf16:tn:1024x784x256 bf16:nt:64x4096x4096 bf16:nn:768x768x6000 bf16:nt:8192x8192x8192 tf32:nt:1024x1024x4096 tf32:nt:4096x4096x4096 tf32:nn:2048x2048x2048 tf32:tn:1024x784x4096 tf32:nt:256x1024x784 f32:nn:1024x1024x1024 f32:nt:4096x4096x4096"
(echo "precision,layout,m,n,k,group"
 for x in $FAM $WIDE; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,r4"; done) > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "tag,precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for rep in 1 2; do for x in r3 r4a r4b; do
  for c in $FAM; do IFS=: read p l s <<< "$c"
    timeout 60 /tmp/b/$x/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto,Wgmma64x128,Wgmma64x128+mc,Wgmma64x64 2>> $L/plans-err.log | tail -n +2 | sed "s/^/$x,/" >> $L/plans.csv
  done
  for c in $WIDE; do IFS=: read p l s <<< "$c"
    timeout 60 /tmp/b/$x/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/plans-err.log | tail -n +2 | sed "s/^/$x,/" >> $L/plans.csv
  done; el "$x rep $rep"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

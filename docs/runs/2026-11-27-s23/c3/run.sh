#!/usr/bin/env bash
# Session 23, call c3 (bundle c3 = 9a43da1 + the clustered split-K reduction with four quads per
# thread in flight, kernels::matmul::CLUSTER_QUADS; old = c2's build, 9a43da1): op and nn tests;
# every wgmma plan of both builds on mid-sized BF16 and TF32 products (A/B in one call); the full
# sweep (seed 589266001) with the new build against one PyTorch run.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/c3.txz -C /tmp/b; B=/tmp/b/c3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 150 $B/ops > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=' $L/ops.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops.log | head -10
(timeout 60 $B/nn > $L/nn.log 2>&1; echo "rc=$?" >> $L/nn.log); el "nn: $(grep -E '^test result|rc=' $L/nn.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
BS=1024x1024x4096,512x784x4096,1024x784x2048,256x1024x1024,128x1024x784,256x4096x4096,2048x784x1024,1536x1536x1536,64x4096x4096
TS=16x4096x4096,1024x1024x4096,256x1024x1024,512x784x4096
for v in new old; do
  P=$B/gemm_plans; [ $v = old ] && P=$B/gemm_plans_old
  timeout 100 $P --precisions bf16 --layouts nn,tn --shapes $BS --plans Auto,Wgmma,WgmmaSwapped,Wgmma64x128,Wgmma64x64,Wgmma128x208 > $L/plans-bf16-$v.csv 2>> $L/plans-err.log; el "plans bf16 $v rc=$?"
  timeout 60 $P --precisions tf32 --layouts nt --shapes $TS --plans Auto,Tf32Wgmma,Tf32Wgmma64x128,Tf32Wgmma64x64 > $L/plans-tf32-$v.csv 2>> $L/plans-err.log; el "plans tf32 $v rc=$?"
done
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 130 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 170 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep-new.csv > $L/sweep-new.log 2>&1; el "sweep new rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep-new.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

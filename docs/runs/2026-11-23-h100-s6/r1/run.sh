#!/usr/bin/env bash
# Session 6, call 1: HEAD 3c5108e as committed. Issue 12: the precision tests (the wide TF32/BF16
# gradient check has never run), the two PyTorch timing scripts after their helpers moved to
# cuda_timing.py, and the three precisions' loss curves at a lower learning rate over seeds.
# Issue 11: every FP32 plan timed on the sweep's worst small products (the split Tile64 plans
# took 3-4x cuBLAS's time there), and Nsight Compute on one of them.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r1.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 90 $B/tests/nn-test precision --nocapture > $L/precision-tests.log 2>&1; el "precision tests rc=$? $(grep '^test result' $L/precision-tests.log)"; grep -E "gradient check|FAILED|panicked" $L/precision-tests.log | head -14
S=189x16x832,441x43x287,32x271x669,733x33x232,2x1804x379,64x64x16384,6x6898x548,801x134x687,10x4096x4096,322x4203x12,128x128x128,1024x1024x128,32x1024x1024,1024x784x128,64x784x1024,256x256x256,1024x784x512,128x4096x10,188x2323x3,4670x94x6,512x512x512
timeout 170 $B/benches/gemm_plans --precisions f32 --layouts nn,nt,tn,tt --shapes $S > $L/plans-small.csv 2> $L/plans-small.err; el "gemm_plans rc=$? $(wc -l < $L/plans-small.csv) rows"; tail -2 $L/plans-small.err
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout 60 $NCU --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats -k regex:tile64 -c 2 $B/benches/gemm_plans --precisions f32 --layouts tt --shapes 189x16x832 > $L/ncu-tile64.txt 2>&1; el "ncu rc=$?"
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp_step.py rc=$?"; grep graph $L/mlp-torch.txt | head -4
timeout 80 python3 benches/torch/mlp_amp.py > $L/amp-torch.csv 2> $L/amp-torch.err; el "mlp_amp.py rc=$? $(wc -l < $L/amp-torch.csv) rows"; tail -2 $L/amp-torch.err
rm -f $L/loss.csv
for seed in 1 2; do for p in f32 tf32 bf16; do
  timeout 40 $B/examples/mlp --synthetic 60000 --learnable --hidden 1024,1024 --batch 256 --epochs 2 --log-every 20 --lr 0.01 \
    --precision $p --seed $seed --loss-csv $L/loss.csv > $L/loss-$p-$seed.log 2>&1; el "loss $p seed $seed rc=$? $(tail -1 $L/loss-$p-$seed.log)"
done; done
tar czf $OUT/logs.tgz -C /tmp logs

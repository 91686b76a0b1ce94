#!/usr/bin/env bash
# Session 27, call h4 (bundle h2, the current rules): every plan of gemm_plans on the shapes of
# two new random seeds (the sweep's random group, each case in its precision and layout),
# beside PyTorch: data to score Auto's rules offline against the fastest plan of each product.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/h2.txz -C /tmp/b; B=/tmp/b/h2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for s in 27112801 27112802; do
  $B/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log; el "torch $s rc=$?"
  grep -v '^#' $L/cases-$s.csv | tail -n +2 | while IFS=, read p l m n k g; do
    timeout 30 $B/gemm_plans --precisions $p --layouts $l --shapes ${m}x${n}x${k} 2>/dev/null | grep -v '^precision' >> $L/plans-$s.csv
    # TF32 Auto falls back to FP32's tiles: time those too.
    [ $p = tf32 ] && timeout 30 $B/gemm_plans --precisions f32 --layouts $l --shapes ${m}x${n}x${k} --plans Tile32x64,Tile64x32,Tile64Fine,Tile64,Tile128x64,Tile64x128,WarpTiledFast,SmemTiled,ShortK,NarrowMn,NarrowK 2>/dev/null | grep -v '^precision' >> $L/plans-$s.csv
  done; el "plans $s"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

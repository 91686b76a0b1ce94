#!/usr/bin/env bash
# Session 32, call n6 (bundle n6 = scripts/gpu-bundle of the working tree with ptxas: the BF16
# cluster kernels with the cluster a constant of each, the 2x2 cluster kernels, the 64x128 tile
# with eight stages where its blocks fit one per multiprocessor and k per split >= 2048): every
# test binary; the sweep (all three precisions) beside PyTorch at session 27's seed; the random
# group of TF32 and BF16 at session 30's seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/n6.txz -C /tmp/b; B=/tmp/b/n6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 100 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
for s in 30112801 30112802; do
  $B/benches/gemm_sweep --list --groups random --precisions tf32,bf16 --seed $s > $L/cases-$s.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 45 $B/benches/gemm_sweep --groups random --precisions tf32,bf16 --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "seed $s rc=$?"; grep -E "^tf32 all|^bf16 all" $L/sweep-$s.log
  (cd $L && tar czf $OUT/logs.tgz .)
done
el done

#!/usr/bin/env bash
# Session 30, call k3 (bundle k3 = scripts/gpu-bundle of 8fa0bfb: k2's rules, and small TF32 tn
# products on the 64x128 register-A tile with op(B) transposed in shared memory): every test
# binary; the sweep (all three precisions) beside PyTorch at session 27's seed; every TF32 and
# FP32 plan of tn products up to 2^30 FLOPs and of six random products below 0.70 in k2; the random group of TF32 and BF16 at k2's seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/k3.txz -C /tmp/b; B=/tmp/b/k3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 80 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
TN="1024x784x64,384x384x384,4096x784x32,1024x784x128,2048x784x128,1024x784x512,256x256x256,128x128x128,1024x1024x256"
timeout 90 $B/benches/gemm_plans --precisions tf32,f32 --layouts tn --shapes $TN > $L/plans-tn.csv 2> $L/plans-tn-err.log; el "tn plans rc=$?"
# The random products of k2's seeds below 0.70 with rows off 16 bytes or a long k, every plan.
for x in tn:1186x47x7488 nt:294x52x1699 tn:80x78x7054 tt:335x160x2025 nn:14x499x6896 nn:4152x10x5877; do
  timeout 40 $B/benches/gemm_plans --precisions tf32,f32 --layouts ${x%%:*} --shapes ${x#*:} >> $L/plans-random.csv 2>> $L/plans-random-err.log; el "plans $x rc=$?"
done
(cd $L && tar czf $OUT/logs.tgz .)
for s in 30112801 30112802; do
  $B/benches/gemm_sweep --list --groups random --precisions tf32,bf16 --seed $s > $L/cases-$s.csv
  timeout 50 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 70 $B/benches/gemm_sweep --groups random --precisions tf32,bf16 --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "seed $s rc=$?"; grep -E "^tf32 all|^bf16 all" $L/sweep-$s.log
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

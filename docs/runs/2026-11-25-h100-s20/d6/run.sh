#!/usr/bin/env bash
# Session 20, call d6: bundle d6s20 (new: the tile epilogues store C whose rows break 16-byte
# alignment as 16-byte quads shifted to C's boundaries, partial quads at each row's ends)
# against r4s18 (old, 35d7f6f) and d4s20 (b5e0885, the session's previous build). Every op
# test and memcheck on the new build; d5's aligned / unaligned pairs on all three builds; then
# five fresh random seeds, new against d4s20 (old = b5e0885) against one PyTorch run each.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/d6both.txz -C /tmp/b
B=/tmp/b/d6s20; O=/tmp/b/d4s20
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/tests/ops-test > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops.log | head -10
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for f in "gemm_bf16::Wgmma64x64::" "gemm_bf16::Wgmma::ta0_tb1" "gemm::Tile64x32::" "gemm::Tf32::"; do
  n=$(echo "$f" | tr -c 'A-Za-z0-9_\n' '_')
  timeout 100 $CS --tool memcheck $B/tests/ops-test "$f" > $L/memcheck-$n.log 2>&1; el "memcheck $f rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-$n.log | tr "\n" " ")"
done
for v in new old; do
  bin=$B/benches/gemm_plans; [ $v = old ] && bin=$O/benches/gemm_plans
  for p in f32 tf32 bf16; do
    timeout 100 $bin --precisions $p --layouts nt --shapes 1248x6184x40,1248x6186x40,2048x4096x64,2048x4098x64,4096x1024x32,4096x1026x32 --plans Auto >> $L/pairs-$v.csv 2>> $L/err.log
  done
  el "pairs $v"
done
for s in 20261211 20261212 20261213 20261214 20261215; do
  $B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  for v in new old; do
    bin=$B/benches/gemm_sweep; [ $v = old ] && bin=$O/benches/gemm_sweep
    timeout 40 $bin --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$v-$s.csv > $L/sweep-$v-$s.log 2>&1; el "sweep $v $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$v-$s.log
  done
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

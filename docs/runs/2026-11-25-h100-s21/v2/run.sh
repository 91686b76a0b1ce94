#!/usr/bin/env bash
# Session 21, call v2 (bundle v2 = 097e0c3: v1 plus the BF16 padding and shared-memory-tile rules,
# TF32 staged products before the shared-memory tiles, FP32 narrow tiles at short k with 4-byte
# loads; old = 1a07552, s20's r1s20 gemm_sweep). `run.sh seeds`: every op test on the
# new build, then six fresh random seeds (not used in any fit) with both builds against one
# PyTorch run each. `run.sh sweep`: the full sweep (seed 589266001) with both builds against
# one PyTorch run.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/v2.txz -C /tmp/b
B=/tmp/b/v2; L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
if [ "${1:-}" = seeds ]; then
  (timeout 240 $B/tests/ops > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"
  grep -E "FAILED|panicked" $L/ops.log | head -10
  for s in 20288076 20285355 20282460 20285164 20289156 20280979; do
    $B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
    timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
    for v in new old; do
      bin=$B/benches/gemm_sweep; [ $v = old ] && bin=$B/old/gemm_sweep
      timeout 40 $bin --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$v-$s.csv > $L/sweep-$v-$s.log 2>&1; el "sweep $v $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$v-$s.log
    done
  done
else
  $B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
  timeout 110 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
  for v in new old; do
    bin=$B/benches/gemm_sweep; [ $v = old ] && bin=$B/old/gemm_sweep
    timeout 150 $bin --seed 589266001 --torch $L/torch.csv --csv $L/sweep-$v-1.csv > $L/sweep-$v-1.log 2>&1; el "sweep $v rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep-$v-1.log
  done
fi
(cd $L && tar czf $OUT/logs.tgz .)
el done

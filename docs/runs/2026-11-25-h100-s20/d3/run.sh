#!/usr/bin/env bash
# Session 20, call d3: bundle d3s20 (new: the tensor-core pipeline copies operands without
# 16-byte rows by 4-byte cp.async; Auto's RowDot only on its vector path) against r4s18 (old,
# 35d7f6f). Every op test on the new build; gemm_plans old and new on d2's TF32 cases and the
# few-column products RowDot took; five random seeds of the sweep, old and new against one
# PyTorch run each.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/d3both.txz -C /tmp/b
B=/tmp/b/d3s20; O=/tmp/b/r4s18
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/tests/ops-test > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops.log | head -10
for v in old new; do
  bin=$B/benches/gemm_plans; [ $v = old ] && bin=$O/benches/gemm_plans
  P() { timeout 120 $bin --precisions $1 --layouts $2 --shapes $3 >> $L/plans-$v.csv 2>> $L/plans-err.log; }
  P tf32 nn 46x5166x9,1032x8161x43,313x10x5936,118x15x6287,102x6554x570,129x2335x218,410x18x710,87x21x3073,2090x12x1209,527x772x32,7298x200x373
  P tf32 nt 3290x935x27,109x142x885,407x22x5982,155x27x1509,3524x36x38,64x217x2146,309x90x4233,14x6941x293,5307x213x22,278x92x5838,5x117x7224
  P tf32 tn 744x11x1211,45x139x172,38x6692x127,27x7542x263,621x106x4106,452x443x197,1021x36x5932,2591x222x1010,253x5729x688,6314x176x45,3491x160x18,4493x178x67,3241x36x159,177x3281x1186,381x426x7284
  P tf32 tt 501x724x53,86x51x2701,2339x152x43,2624x236x3586,759x6x190,169x67x165,79x17x1685,1318x10x3907,3241x11x2874,479x11x703,110x1055x5145,3718x42x162,2447x204x3873,282x1888x82,127x4187x210,1249x6186x40,1415x1367x46,12x4487x1719
  P f32 nn 2090x12x1209,118x15x6287,313x10x5936,1024x10x1024,256x10x4096,2048x16x1024,500x12x777
  P f32 nt 1000x10x1001,500x12x777,2048x10x1024
  P bf16 tt 501x724x53,2339x152x43,55x3323x7028
  P bf16 nt 3290x935x27,5307x213x22,527x772x32
  el "plans $v"
done
for s in 20261201 20261202 20261203 20261204 20261205; do
  $B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  for v in new old; do
    bin=$B/benches/gemm_sweep; [ $v = old ] && bin=$O/benches/gemm_sweep
    timeout 40 $bin --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$v-$s.csv > $L/sweep-$v-$s.log 2>&1; el "sweep $v $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$v-$s.log
  done
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

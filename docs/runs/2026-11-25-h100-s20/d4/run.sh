#!/usr/bin/env bash
# Session 20, call d4: bundle d4s20 (new: d3's 4-byte cp.async for TF32 rows without 16-byte
# alignment, the BF16 path as before; Auto's RowDot where it streams k: its vector path, or
# k <= 512) against r4s18 (old, 35d7f6f). Every op test on the new build; five fresh random
# seeds of the sweep, old and new against one PyTorch run each; then gemm_plans (new) on 90
# log-uniform random shapes (>= 1 MFLOP, m and n >= 17, generator seed 20261125 in
# docs/runs/2026-11-25-h100-s20/README.md), FP32 and TF32, to fit the cost model's constants
# for operands without 16-byte rows.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/d4both.txz -C /tmp/b
B=/tmp/b/d4s20; O=/tmp/b/r4s18
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/tests/ops-test > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops.log | head -10
for s in 20261206 20261207 20261208 20261209 20261210; do
  $B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  for v in new old; do
    bin=$B/benches/gemm_sweep; [ $v = old ] && bin=$O/benches/gemm_sweep
    timeout 40 $bin --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$v-$s.csv > $L/sweep-$v-$s.log 2>&1; el "sweep $v $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$v-$s.log
  done
done
P() { timeout 150 $B/benches/gemm_plans --precisions $1 --layouts $2 --shapes $3 >> $L/plans.csv 2>> $L/plans-err.log; el "plans $1 $2 rc=$?"; }
for p in f32 tf32; do
  P $p nn 3808x368x4,58x877x243,17x309x1266,72x4534x22,73x1684x94,170x107x50,21x2693x4766,2091x6973x4,3776x3059x31,138x579x6882,357x5840x2,361x330x841,1004x450x39,4594x1388x26,962x79x12,564x1034x3,41x6746x1995,345x701x742,294x51x2986,1571x436x70,93x35x428,323x3464x4,4253x5808x55,4737x1248x1,115x218x4846,152x3453x70,46x947x1929
  P $p nt 51x243x4139,19x1167x1200,66x407x7902,51x198x846,3193x146x382,47x338x64,1632x233x1421,321x1279x341,55x2125x76,968x23x100,336x35x3346,75x177x7129,115x5489x1524,2322x5621x1,4005x76x23,96x288x1482,458x55x77,2512x384x1971,712x1403x51,24x1357x2159,1143x103x19,41x2276x1534,55x173x5841
  P $p tn 1121x28x535,279x1027x7,144x103x1986,7898x52x1205,2371x352x1,3899x372x335,7287x1441x5,2652x1423x1,471x65x410,7506x563x21,1502x2937x7,34x501x137,1980x231x411,142x19x327,33x117x683,140x3343x948,3664x3518x114,129x1616x7536,2480x3723x20,5345x117x40,506x77x164
  P $p tt 414x983x3,260x53x64,8178x533x53,118x216x665,345x2026x83,2693x612x252,85x3507x827,87x137x339,859x44x35,42x1201x41,388x39x404,114x3504x198,441x1958x119,748x215x1992,25x5846x253,36x884x317,4171x77x67,78x29x761,2317x885x5
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

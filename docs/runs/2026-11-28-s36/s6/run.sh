#!/usr/bin/env bash
# Session 36, call s6 (bundle s3: the code of 2c2b143): launch-bound products with a narrow side
# (at most 16 rows or columns, below NARROW_AUTO_MIN = 2^17 elements of the wide operand), 64 of
# them drawn log-uniformly (seed 36112806: side from {1..16}, wide side 2..6000, k 3..700, a
# random layout, f32/bf16/tf32 in turn): every plan gemm_plans has, beside PyTorch, and the s5
# launch-bound products again.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s3.txz -C /tmp/b; B=/tmp/b/s3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="f32:tt:4x850x3 bf16:nt:11x223x4 tf32:nt:139x2x490 f32:nt:2x979x70 bf16:nt:1x687x18 tf32:nn:5x2624x44 f32:nn:291x1x7 bf16:nt:2x1080x7 tf32:nt:52x3x8 f32:nt:736x1x176 bf16:nt:4x261x26 tf32:nt:843x4x4 f32:tn:1x48x3 bf16:tt:20x2x5 tf32:tt:13x108x31 f32:tn:18x4x24 bf16:tt:3x4x3 tf32:tn:8x173x670 f32:nn:16x16x22 bf16:nt:39x13x7 tf32:nn:8x3558x8 f32:nn:3x180x12 bf16:tt:11x145x44 tf32:nt:5x1677x4 f32:tt:3x160x36 bf16:nn:6x9x20 tf32:tt:117x5x10 f32:tn:233x1x4 bf16:nn:13x72x18 tf32:nn:3744x5x4 f32:tt:3x401x266 bf16:tn:3x119x4 tf32:tt:16x336x6 f32:nn:466x13x11 bf16:nn:766x8x25 tf32:tt:6x6x377 f32:tn:8x1198x15 bf16:tn:6x38x33 tf32:tt:1036x8x86 f32:nn:3x133x306 bf16:nt:27x5x273 tf32:tt:4826x16x12 f32:nn:6x467x6 bf16:tt:1205x1x9 tf32:nt:68x13x59 f32:nn:10x3x513 bf16:tn:98x4x375 tf32:nn:46x16x11 f32:tn:3x6x333 bf16:tn:830x11x113 tf32:tt:5x4x156 f32:nn:873x13x9 bf16:tt:1945x11x19 tf32:nn:399x16x6 f32:nn:254x13x8 bf16:tt:780x13x167 tf32:tt:3882x6x15 f32:tt:25x1x57 bf16:tn:4x290x134 tf32:tn:4x7x32 f32:nn:3995x8x9 bf16:tt:211x3x550 tf32:nt:37x13x23 f32:nn:242x16x9"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,s6"; done) > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 60 $B/gemm_plans --precisions $p --layouts $l --shapes $s 2>> $L/plans-err.log | tail -n +2 >> $L/plans.csv
done; el "plans done"
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 20, call d5 (bundle d4s20 = b5e0885): does C's row alignment cost the epilogue? The
# same products with n a multiple of 4 (C rows 16-byte aligned) and n = 2 mod 4, operands'
# alignment unchanged (nt: A m×k, B n×k, k = 40 or 64; tt: A stored k×m with m odd), every
# plan of gemm_plans, FP32, TF32 and BF16.
set -u
mkdir -p /tmp/b && tar xJf .gpu/d4both.txz -C /tmp/b
B=/tmp/b/d4s20
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
for p in f32 tf32 bf16; do
  timeout 120 $B/benches/gemm_plans --precisions $p --layouts nt --shapes 1248x6184x40,1248x6186x40,1248x6185x40,2048x4096x64,2048x4098x64,4096x1024x32,4096x1026x32 >> $L/plans.csv 2>> $L/err.log; el "plans $p nt"
  timeout 120 $B/benches/gemm_plans --precisions $p --layouts tt --shapes 1249x6184x40,1249x6186x40 >> $L/plans.csv 2>> $L/err.log; el "plans $p tt"
done
(cd $L && tar czf $OUT/logs.tgz .)

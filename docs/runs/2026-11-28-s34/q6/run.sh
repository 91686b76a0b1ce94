#!/usr/bin/env bash
# Session 34, call q6 (bundle q6 = scripts/gpu-bundle of the working tree with ptxas, the final
# code: ShortKMma on 32x32 tiles below one and a half waves of 64x64 ones, and BF16 Auto's rule
# for it; base = p5's gemm_plans, e88c926's rules): every test binary; Auto, new and old, on
# q5's 94 BF16 products of k 9..128 beside PyTorch; the sweep (all three precisions) at session
# 27's seed; the random groups at session 30's seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/q6.txz -C /tmp/b && tar xJf .gpu/base.txz -C /tmp/b; B=/tmp/b/q6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
CASES="bf16:tn:322x4203x12 bf16:tn:2729x547x16 bf16:tt:6308x37x20 bf16:nn:1484x340x20 bf16:nt:1484x340x20 bf16:tn:3000x300x25 bf16:tt:6099x74x27 bf16:nn:6000x50x30 bf16:nn:1652x264x31 bf16:tn:2753x975x32 bf16:nn:203x796x43 bf16:nn:293x1584x44 bf16:nt:2248x170x50 bf16:tt:3068x412x54 bf16:nn:1964x126x67 bf16:tt:193x4861x74 bf16:nn:884x189x92 bf16:nn:387x4330x23 bf16:tt:387x4330x23 bf16:nn:300x5000x17 bf16:tt:300x5000x17 bf16:nn:2501x1001x25 bf16:tt:2501x1001x25 bf16:nn:1301x1699x31 bf16:tt:1301x1699x31 bf16:nn:634x1519x56 bf16:nn:129x1867x77 bf16:tt:8112x233x22 bf16:nn:9402x185x58 bf16:nn:7999x389x54 bf16:nt:59x5398x52 bf16:tt:323x831x15 bf16:tt:65x5120x26 bf16:nt:254x1353x38 bf16:tn:143x13368x80 bf16:nn:372x1355x79 bf16:nn:1380x539x91 bf16:nn:4312x90x93 bf16:tn:81x4029x62 bf16:tn:641x676x89 bf16:nt:438x5399x84 bf16:tt:3192x891x43 bf16:nn:832x1309x67 bf16:nt:3182x1181x18 bf16:nt:172x8544x74 bf16:nt:8544x201x18 bf16:nt:996x2476x26 bf16:tn:513x6617x92 bf16:tt:2205x650x33 bf16:nn:797x346x9 bf16:nn:32x1024x10 bf16:nn:64x1024x10 bf16:nn:128x1024x10 bf16:nn:32x4096x10 bf16:nn:256x1024x10 bf16:nn:64x4096x10 bf16:nn:512x1024x10 bf16:nn:128x4096x10 bf16:nn:1024x1024x10 bf16:nn:256x4096x10 bf16:nn:2048x1024x10 bf16:nn:512x4096x10 bf16:nt:1008x71x15 bf16:tt:4000x40x16 bf16:nn:24x137x22 bf16:tt:71x155x22 bf16:tt:111x791x22 bf16:tt:442x68x24 bf16:nn:54x89x32 bf16:tn:1024x784x32 bf16:tn:1024x1024x32 bf16:tn:4096x784x32 bf16:tn:227x138x45 bf16:nt:800x700x48 bf16:nn:673x159x57 bf16:tt:2155x24x59 bf16:nt:2024x17x64 bf16:tn:1024x784x64 bf16:tn:1024x1024x64 bf16:tn:4096x784x64 bf16:nn:462x32x66 bf16:tn:52x173x71 bf16:tn:388x236x84 bf16:tt:125x22x91 bf16:tt:502x89x109 bf16:nn:404x136x109 bf16:nt:719x4288x123 bf16:nn:128x128x128 bf16:nt:128x128x128 bf16:tn:128x128x128 bf16:tt:128x128x128 bf16:tn:1024x784x128 bf16:tn:1024x1024x128 bf16:tn:4096x784x128"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,q6"; done) > $L/cases-auto.csv
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases-auto.csv > $L/torch-auto.csv 2> $L/torch-auto-err.log; el "torch auto rc=$?"
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 30 $B/benches/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto >> $L/auto-new.csv 2>> $L/auto-err.log
  timeout 30 /tmp/b/base/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto >> $L/auto-old.csv 2>> $L/auto-err.log; done; el "auto done"
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

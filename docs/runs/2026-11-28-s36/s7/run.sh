#!/usr/bin/env bash
# Session 36, call s7 (bundle s7: the working tree with warpdot_tiny and the narrow ShortKMma
# band; s3 = 2c2b143): the op and nn tests; Auto, old (s3) and new alternated twice, on s5's and
# s6's products and a few long-k tiny ones beside PyTorch; s4's random groups again; the sweep.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/s7.txz -C /tmp/b && tar xJf .gpu/s3.txz -C /tmp/b
NEW=/tmp/b/s7/gemm_plans; OLD=/tmp/b/s3/gemm_plans; B=/tmp/b/s7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do (timeout 200 $B/$t > $L/$t.log 2>&1; echo "$t rc=$?" >> $L/$t.log); el "$(grep -E '^test result|rc=' $L/$t.log | tr '\n' ' ')"; grep -E "FAILED|panicked" $L/$t.log | head; xz -9 $L/$t.log; done
(cd $L && tar czf $OUT/logs.tgz .)
CASES="tf32:tn:4286x69x6540 tf32:nn:6998x40x3170 tf32:nt:89x4118x5637 tf32:nt:9x35x4991 tf32:nt:18x90x4894 tf32:nn:55x8109x533 tf32:nn:121x239x1648 tf32:nt:107x462x1307 tf32:nn:77x1323x181 tf32:tn:3239x14x5434 f32:nt:89x4118x5637 f32:tn:11x20x3284 f32:nn:5907x240x24 f32:nn:6304x1234x22 f32:nt:18x90x4894 bf16:nn:6x3177x80 bf16:nt:18x90x4894 bf16:nn:6998x40x3170 bf16:tn:3239x14x5434 f32:nt:1x3861x67 bf16:nt:1x1004x325 f32:nt:1x1004x325 bf16:nt:9x28x194 f32:nt:3x6269x3 bf16:nn:6x11x41 f32:tn:64x2x34 f32:tn:1391x8x41 tf32:tt:45x15x44 f32:tn:17x32x663 f32:tn:8x2x55 f32:tn:5x188x46 f32:tt:4x850x3 bf16:nt:11x223x4 tf32:nt:139x2x490 f32:nt:2x979x70 bf16:nt:1x687x18 tf32:nn:5x2624x44 f32:nn:291x1x7 bf16:nt:2x1080x7 tf32:nt:52x3x8 f32:nt:736x1x176 bf16:nt:4x261x26 tf32:nt:843x4x4 f32:tn:1x48x3 bf16:tt:20x2x5 tf32:tt:13x108x31 f32:tn:18x4x24 bf16:tt:3x4x3 tf32:tn:8x173x670 f32:nn:16x16x22 bf16:nt:39x13x7 tf32:nn:8x3558x8 f32:nn:3x180x12 bf16:tt:11x145x44 tf32:nt:5x1677x4 f32:tt:3x160x36 bf16:nn:6x9x20 tf32:tt:117x5x10 f32:tn:233x1x4 bf16:nn:13x72x18 tf32:nn:3744x5x4 f32:tt:3x401x266 bf16:tn:3x119x4 tf32:tt:16x336x6 f32:nn:466x13x11 bf16:nn:766x8x25 tf32:tt:6x6x377 f32:tn:8x1198x15 bf16:tn:6x38x33 tf32:tt:1036x8x86 f32:nn:3x133x306 bf16:nt:27x5x273 tf32:tt:4826x16x12 f32:nn:6x467x6 bf16:tt:1205x1x9 tf32:nt:68x13x59 f32:nn:10x3x513 bf16:tn:98x4x375 tf32:nn:46x16x11 f32:tn:3x6x333 bf16:tn:830x11x113 tf32:tt:5x4x156 f32:nn:873x13x9 bf16:tt:1945x11x19 tf32:nn:399x16x6 f32:nn:254x13x8 bf16:tt:780x13x167 tf32:tt:3882x6x15 f32:tt:25x1x57 bf16:tn:4x290x134 tf32:tn:4x7x32 f32:nn:3995x8x9 bf16:tt:211x3x550 tf32:nt:37x13x23 f32:nn:242x16x9 f32:nt:367x2x329 tf32:tn:18x2x709 f32:tn:18x2x709 f32:tt:1x2x5936 f32:tn:7x2x2226 bf16:nt:367x2x329 tf32:nn:10x3x513 bf16:tt:356x11x19 bf16:nn:356x11x19"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,s7"; done) > $L/cases-auto.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases-auto.csv > $L/torch-auto.csv 2> $L/torch-auto-err.log; el "torch auto rc=$?"
echo "tag,precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto.csv
for rep in 1 2; do
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 30 $NEW --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/new$rep,/" >> $L/auto.csv
    timeout 30 $OLD --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/old$rep,/" >> $L/auto.csv
  done; el "auto rep $rep done"
done
(cd $L && tar czf $OUT/logs.tgz .)
for s in 36112801 36112802 36112803 36112804; do
  $B/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 70 $B/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "seed $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
done
(cd $L && tar czf $OUT/logs.tgz .)
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 110 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

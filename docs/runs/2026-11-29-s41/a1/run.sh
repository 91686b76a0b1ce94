#!/usr/bin/env bash
# Session 41, call a1 (bundles a1: scripts/gpu-bundle of the TF32 grouped k rows (MN-major operands
# whose k rows break 16-byte alignment read in groups of 2 or 4 k rows by the transposing kernels);
# z2old: gemm_plans of 0b7a880, session 40's final picks): every test binary; TF32 Auto of both
# builds alternated twice on the TF32 products of y2's sweep and z2's random groups with such an
# operand (and 11 more: 5 named by unit tests, 6 controls), beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in a1 z2old; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 /tmp/b/a1/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked|^    [a-z_:]+$" $L/run-tests.log | head -20
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
CASES="tf32:tn:10x1024x32 tf32:tn:10x1024x64 tf32:tn:10x1024x128 tf32:tn:10x1024x256 tf32:tn:10x1024x512 tf32:tn:10x1024x1024 tf32:tn:10x1024x2048 tf32:tn:10x1024x4096 tf32:tn:10x4096x32 tf32:tn:10x4096x64 tf32:tn:10x4096x128 tf32:tn:10x4096x256 tf32:tn:10x4096x512 tf32:tn:10x4096x1024 tf32:tn:10x4096x2048 tf32:tn:10x4096x4096 tf32:tn:32x271x669 tf32:nn:326x6x8 tf32:tt:7x247x7 tf32:tt:2x200x2723 tf32:nn:24x137x22 tf32:tt:189x16x832 tf32:nn:673x159x57 tf32:tt:2267x737x1007 tf32:tt:5721x3x17 tf32:tt:441x43x287 tf32:nn:88x75x8 tf32:tn:6x6898x548 tf32:nn:4670x94x6 tf32:tn:322x4203x12 tf32:tn:762x3x114 tf32:nn:4x7337x2921 tf32:nn:797x346x9 tf32:tt:801x134x687 tf32:tn:6854x3460x6053 tf32:tn:660x4697x4010 tf32:nn:1169x3698x5932 tf32:tt:3930x6235x4532 tf32:tt:2926x5941x3058 tf32:nn:5001x3943x6357 tf32:nn:3547x3413x678 tf32:tt:3367x4947x50 tf32:nn:3009x2561x2906 tf32:nn:2730x717x6318 tf32:tt:1154x2112x1555 tf32:tt:6045x1497x722 tf32:tn:325x5509x5988 tf32:tt:3510x2076x5874 tf32:tt:753x3800x6664 tf32:tn:1950x5866x5902 tf32:nn:2320x1802x3495 tf32:tt:5934x5875x5425 tf32:nn:169x1861x6669 tf32:tn:377x7755x2436 tf32:tn:1513x1906x4914 tf32:nn:2296x3137x7075 tf32:tt:2591x7904x5046 tf32:tn:4286x69x6540 tf32:nn:6x3177x80 tf32:tn:2x5x300 tf32:tt:530x7x51 tf32:nn:6304x1234x22 tf32:nn:47x3329x37 tf32:tt:233x18x2176 tf32:tn:2059x11x41 tf32:nn:265x5398x60 tf32:tn:5x188x46 tf32:nn:6811x5x613 tf32:tn:6x267x24 tf32:tn:7240x49x70 tf32:tn:27x893x2172 tf32:nn:2306x5330x7 tf32:nn:114x682x4 tf32:nn:491x4757x39 tf32:nn:283x2x3898 tf32:tn:3x1x11 tf32:tn:3767x3x1984 tf32:tt:98x3x1360 tf32:nn:68x2545x32 tf32:tt:3x2x513 tf32:tt:13x32x18 tf32:tn:396x7x174 tf32:tn:3239x14x5434 tf32:tt:187x91x218 tf32:nn:77x1323x181 tf32:tn:741x41x27 tf32:nn:93x1814x78 tf32:tt:7x928x1397 tf32:tt:41x22x4 tf32:tn:1454x2x21 tf32:nn:1x11x5 tf32:nn:216x2162x2275 tf32:tn:16x126x17 tf32:nn:2212x3x1053 tf32:nn:6x11x41 tf32:nn:225x1627x3711 tf32:tn:1014x1x4 tf32:tt:45x15x44 tf32:tn:1137x8x1528 tf32:nn:55x8109x533 tf32:tn:64x2x34 tf32:tn:8x2x55 tf32:tn:15x1026x2507 tf32:tn:4478x1x2366 tf32:tn:26x11x4 tf32:nn:121x239x1648 tf32:tn:9x133x4 tf32:tn:2476x27x2874 tf32:tn:17x32x663 tf32:tt:7723x6x92 tf32:tn:326x778x32 tf32:nn:86x86x17 tf32:tt:301x234x8 tf32:tn:11x20x3284 tf32:tn:1342x3259x280 tf32:tt:2x3330x29 tf32:nn:5671x18x98 tf32:tn:1391x8x41 tf32:tt:1x146x245 tf32:tn:902x3x9 tf32:nn:642x3807x451 tf32:nn:5x2223x2789 tf32:nn:5x7539x3825 tf32:tt:3755x5068x57 tf32:tt:25x2069x62 tf32:tt:6609x12x2773 tf32:tn:2447x29x1049 tf32:tn:1186x47x7488 tf32:nn:256x10x1024 tf32:nn:1024x1024x1024 tf32:nt:256x1024x1024 tf32:nn:64x4096x4096 tf32:tn:1024x784x4096 tf32:tt:2048x2048x2048 tf32:nn:256x1024x784"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,a1"; done) > $L/cases.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do for b in z2old a1; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto-$b-$rep.csv
  GP=/tmp/b/$b/benches/gemm_plans; [ -x $GP ] || GP=/tmp/b/$b/gemm_plans
  for l in nn nt tn tt; do
    S=$(for x in $CASES; do IFS=: read p ll s <<< "$x"; [ $ll = $l ] && echo -n "$s,"; done | sed 's/,$//')
    [ -n "$S" ] && timeout 100 $GP --precisions tf32 --layouts $l --shapes $S --plans Auto 2>> $L/err-$b.log | tail -n +2 >> $L/auto-$b-$rep.csv
  done; el "auto $b $rep $(wc -l < $L/auto-$b-$rep.csv)"
  (cd $L && tar czf $OUT/logs.tgz .)
done; done
el done

#!/usr/bin/env bash
# Session 39, call v3 (bundle w1: 5740de1 + the TF32 mma.sync tiles copying operand rows off 16
# bytes as the 16-byte chunks that cover them, fragments read shifted; old = u8, 2f67a3b, the same
# kernels as 5740de1): the op and nn tests of w1; PyTorch and every TF32 plan of w1 on session
# 37's t6 products (a k-contiguous operand off 16 bytes) and on the random groups' TF32 products
# below 0.70 (u6); the Tf32 and Tf32Tile64 plans of both builds alternated on the same products.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in w1 u8; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do (timeout 200 /tmp/b/w1/$t > $L/$t.log 2>&1; echo "$t rc=$?" >> $L/$t.log); el "$(grep -E '^test result|rc=' $L/$t.log | tr '\n' ' ')"; grep -E "FAILED|panicked" $L/$t.log | head; xz -9 $L/$t.log; done
CASES="tf32:tn:4286x69x6540 tf32:nn:6998x40x3170 tf32:nn:121x239x1648 tf32:nn:55x8109x533 tf32:nt:107x462x1307 tf32:nt:18x90x4894 tf32:nt:89x4118x5637 tf32:nt:9x35x4991 tf32:tn:3239x14x5434 tf32:nn:77x1323x181 tf32:nn:38x1603x55 tf32:nt:2144x618x214 tf32:nn:105x5847x59 tf32:nt:5956x1466x18 tf32:nn:112x1041x5862 tf32:tt:819x74x1750 tf32:nt:88x1221x375 tf32:tt:1204x156x7045 tf32:nn:137x3603x154 tf32:nt:204x3615x2866 tf32:nn:124x109x282 tf32:nt:15x16x7822 tf32:tt:3356x193x905 tf32:tt:7545x16x99 tf32:tt:207x39x1529 tf32:nt:170x673x854 tf32:nn:4100x156x65 tf32:nt:991x97x62 tf32:nt:127x33x541 tf32:tt:84x76x1478 tf32:nt:735x18x5215 tf32:tt:1211x4099x75 tf32:tt:33x5555x3747 tf32:nt:394x325x75 tf32:nn:3656x11x303 tf32:nn:67x4643x114 tf32:nn:21x16x2261 tf32:nt:610x1446x971 tf32:nn:4831x4273x227 tf32:nn:135x4x4206 tf32:nn:263x255x345 tf32:nn:418x13x1950 tf32:tt:3445x55x5395 tf32:nn:2276x235x933 tf32:nt:1217x278x30 tf32:tt:2767x178x3486 tf32:tt:26x1391x3625 tf32:tt:53x335x414 tf32:tt:4x907x2109 tf32:tt:4857x33x159 tf32:nt:1573x18x971 tf32:nt:15x83x5721 tf32:nt:5351x25x19 tf32:tt:4996x417x47 tf32:nt:1422x3230x181 tf32:tt:108x5413x5 tf32:tt:2364x62x34 tf32:nn:2865x1709x18 tf32:nt:393x13x459 tf32:tt:50x926x57 tf32:nn:55x138x443 tf32:nt:1393x5797x33 tf32:tt:147x945x74 tf32:nn:121x214x1214 tf32:tt:29x300x519 tf32:nt:4762x13x69 tf32:tt:42x5783x6414 tf32:nt:5165x720x13 tf32:tt:2120x4x682 tf32:nn:300x22x7002 tf32:nn:67x989x39 tf32:nt:17x492x3597 tf32:nn:759x9x1591 tf32:nn:330x426x79 tf32:tt:1902x138x73"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,v3"; done) > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 8 /tmp/b/w1/gemm_plans --precisions $p --layouts $l --shapes $s 2>> $L/plans-err.log | tail -n +2 >> $L/plans.csv
  [ $(( $(date +%s) - T0 )) -gt 420 ] && { el "plans stopped at $x"; break; }
done; el "plans done"
for rep in 1 2; do for b in u8 w1; do
  echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/mma-$b-$rep.csv
  for x in $CASES; do IFS=: read p l s <<< "$x"
    timeout 4 /tmp/b/$b/gemm_plans --precisions $p --layouts $l --shapes $s --plans Tf32,Tf32Tile64 2>> $L/mma-err.log | tail -n +2 >> $L/mma-$b-$rep.csv
    [ $(( $(date +%s) - T0 )) -gt 560 ] && break
  done; el "mma $b $rep"
done; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

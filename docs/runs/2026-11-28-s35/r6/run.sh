#!/usr/bin/env bash
# Session 35, call r6 (bundle r6 = scripts/gpu-bundle of 6527e81 with ptxas, trimmed to the test
# binaries and gemm_plans/gemm_sweep; old = r3's gemm_plans: session 34's Auto rules): every test
# binary; Auto, new and old, on r5's few-column products and the random groups' matrix-vector
# products beside PyTorch; the sweep (all three precisions) at session 27's seed; the random
# groups at session 30's seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r6.txz -C /tmp/b && tar xJf .gpu/old.txz -C /tmp/b; B=/tmp/b/r6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 220 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
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
SH="7x1x222 454x1x1813 1130x1x248 3000x1x2000 4096x1x4096 786x1x921 2000x4x3000 300x1x50 4096x4x4096 16384x1x1024 10000x2x100 50x2x7000 1500x3x700 640x2x2048"
CASES=""; for s in $SH; do for l in nn nt tt; do for p in bf16 tf32 f32; do CASES="$CASES $p:$l:$s"; done; done; done
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,r6"; done) > $L/cases-auto.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases-auto.csv > $L/torch-auto.csv 2> $L/torch-auto-err.log; el "torch auto rc=$?"
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 30 $B/benches/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/new,/" >> $L/auto.csv
  timeout 30 /tmp/b/old/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/old,/" >> $L/auto.csv
done; el "auto done"
(cd $L && tar czf $OUT/logs.tgz .)
el done

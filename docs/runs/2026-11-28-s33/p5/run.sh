#!/usr/bin/env bash
# Session 33, call p5 (bundle p5 = scripts/gpu-bundle of e88c926 with ptxas, the final code: the tiny narrow
# products, clustered split, few-rows and BF16 short-k rules, GemmParams without multicast; old = 0680516 gemm_plans): every test binary; the
# sweep (all three precisions) beside PyTorch at session 27's seed; the random group of TF32 and
# BF16 at session 30's seeds; Auto, new and old, on the products whose pick changed beside
# PyTorch; the MLP step beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/p5.txz -C /tmp/b && tar xJf .gpu/old.txz -C /tmp/b; B=/tmp/b/p5
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
CASES="bf16:nt:472x1x2 bf16:nt:162x1x1 bf16:tn:679x2x1 bf16:nt:337x48x2 bf16:tn:659x33x10 bf16:nn:119x3x9 bf16:nn:7x1x222 bf16:nn:100x1x100 tf32:tn:18x2x709 f32:tn:762x3x114 bf16:nn:3x500x900 tf32:tt:1130x1x248"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,p5"; done) > $L/cases-auto.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-auto.csv > $L/torch-auto.csv 2> $L/torch-auto-err.log; el "torch auto rc=$?"
for x in $CASES; do IFS=: read p l s <<< "$x"; P=Auto
  timeout 30 $B/benches/gemm_plans --precisions $p --layouts $l --shapes $s --plans $P >> $L/auto-new.csv 2>> $L/auto-err.log
  timeout 30 /tmp/b/old/gemm_plans --precisions $p --layouts $l --shapes $s --plans $P >> $L/auto-old.csv 2>> $L/auto-err.log; done; el "auto done"
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
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 90 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 29, call j4 (bundle j4 = scripts/gpu-bundle of the commit under test: pair kernels of
# their own for the 64x128 and 128x192 tiles, Auto's pairs only where op(B)'s rows are off the
# 128-byte lines; i5p = session 28's final gemm_plans): every test binary; Auto of j4 and i5
# alternated twice on the products whose pick became a multicast plan and on single-block
# products j3 ran slower (cases.csv), beside PyTorch; the sweep (all three precisions) beside
# PyTorch at session 27's seed; the BF16 random group at two new seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in j4 i5p; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/j4
L=/tmp/logs; rm -rf $L; mkdir -p $L
D=docs/runs/2026-11-28-s29/j4
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 170 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
(echo "# s29 j4"; echo "precision,layout,m,n,k,group"; sed 's/$/,ab/' $D/cases.csv) > $L/ab-cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/ab-cases.csv > $L/ab-torch.csv 2> $L/ab-torch-err.log; el "ab torch rc=$?"
for r in 1 2; do for v in j4 i5p; do
  X=/tmp/b/$v/gemm_plans; [ -x $X ] || X=/tmp/b/$v/benches/gemm_plans
  while IFS=, read p l m n k; do
    timeout 30 $X --precisions $p --layouts $l --shapes ${m}x${n}x${k} --plans Auto 2>/dev/null | grep -v '^precision' >> $L/auto-$v-$r.csv
  done < $D/cases.csv
done; el "A/B round $r"; done
(cd $L && tar czf $OUT/logs.tgz .)
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 70 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 170 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
for s in 29112801 29112802; do
  $B/benches/gemm_sweep --list --groups random --precisions bf16 --seed $s > $L/cases-$s.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 60 $B/benches/gemm_sweep --groups random --precisions bf16 --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "seed $s rc=$?"; grep -E "^bf16 all" $L/sweep-$s.log
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

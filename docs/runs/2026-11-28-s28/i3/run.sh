#!/usr/bin/env bash
# Session 28, call i3 (bundle i3 = scripts/gpu-bundle of the commit under test: BF16 aligned rows
# on the largest products, Wgmma64x64's cluster fixed cost 192, FP32 short-k only below k = 32 on
# aligned C rows): every test binary; Auto of i3 and h6 (session 27's final rules) on the sweep
# products whose pick changed and on larger products the new rules reach (cases.csv), beside
# PyTorch; the FP32 and BF16 sweep (TF32's rules are unchanged) at session 27's seed.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in i3 h6; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/i3
L=/tmp/logs; rm -rf $L; mkdir -p $L
D=docs/runs/2026-11-28-s28/i3
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 220 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
(echo "# s28 i3"; echo "precision,layout,m,n,k,group"; sed 's/$/,ab/' $D/cases.csv) > $L/ab-cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/ab-cases.csv > $L/ab-torch.csv 2> $L/ab-torch-err.log; el "ab torch rc=$?"
for r in 1 2; do for v in i3 h6; do
  X=/tmp/b/$v/benches/gemm_plans; [ -x $X ] || X=/tmp/b/$v/gemm_plans
  while IFS=, read p l m n k; do
    timeout 30 $X --precisions $p --layouts $l --shapes ${m}x${n}x${k} --plans Auto 2>/dev/null | grep -v '^precision' >> $L/auto-$v-$r.csv
  done < $D/cases.csv
done; el "A/B round $r"; done
$B/benches/gemm_sweep --list --precisions f32,bf16 --seed 589266001 > $L/cases.csv
timeout 110 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 170 $B/benches/gemm_sweep --precisions f32,bf16 --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

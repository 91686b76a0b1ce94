#!/usr/bin/env bash
# Session 29, call j3 (bundle j3 = scripts/gpu-bundle of the multicast commit; i5p = session 28's
# final gemm_plans): every test binary; Auto of j3 and i5 alternated on the BF16 sweep products
# whose pick became a multicast plan (cases.csv), beside PyTorch; the sweep (all three
# precisions) beside PyTorch at session 27's seed.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in j3 i5p; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/j3
L=/tmp/logs; rm -rf $L; mkdir -p $L
D=docs/runs/2026-11-28-s29/j3
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 170 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
(echo "# s29 j3"; echo "precision,layout,m,n,k,group"; sed 's/$/,ab/' $D/cases.csv) > $L/ab-cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/ab-cases.csv > $L/ab-torch.csv 2> $L/ab-torch-err.log; el "ab torch rc=$?"
for r in 1 2; do for v in j3 i5p; do
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
el done

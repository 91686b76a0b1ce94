#!/usr/bin/env bash
# Session 26, call g7 (bundle g7 = the final commit: g6's kernels, 16-row short-k blocks only
# where 64-row ones leave over a quarter of the multiprocessors idle): op tests; ShortK and Auto
# of g7 and f4 on the products near the rule; the sweep and the six seeds of g6.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in g7 f4; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/g7
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 240 $B/ops > $L/test-ops.log 2>&1; echo "rc=$?" >> $L/test-ops.log; el "ops: $(grep -E '^test result' $L/test-ops.log | tail -1) $(tail -1 $L/test-ops.log)"
grep -E "FAILED|panicked|failed:" $L/test-ops.log | head; xz -9 $L/test-ops.log
for r in 1 2; do for v in g7 f4; do X=/tmp/b/$v/gemm_plans
  $X --precisions f32,bf16 --layouts tn --shapes 1024x784x32,1024x1024x32,566x339x10 --plans Auto,ShortK > $L/sk-$v-$r.csv 2>>$L/err.log
  $X --precisions f32,bf16 --layouts tt --shapes 6308x37x20,87x3243x10 --plans Auto,ShortK >> $L/sk-$v-$r.csv 2>>$L/err.log
done; done; el "A/B done"
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
for s in 26112701 26112702 26112703 26112704 26112705 26112706; do
  $B/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 60 $B/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

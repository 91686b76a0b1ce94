#!/usr/bin/env bash
# Session 28, call i4 (bundle i4 = the commit under test: BF16 aligned rows only where every
# operand ends up on the 32-byte sectors, copies always into 256-byte rows, Wgmma64x64's cluster
# cost back at 384, FP32 short-k below k = 32 on aligned C rows): the op tests; Auto of i4 and h6
# (session 27's final rules) alternated twice on BF16 products the copies reach (cases.csv:
# large ones, and strides the copy engine cannot read), beside PyTorch; the BF16 sweep.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in i4 h6; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/i4
L=/tmp/logs; rm -rf $L; mkdir -p $L
D=docs/runs/2026-11-28-s28/i4
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops > $L/test-ops.log 2>&1; echo "rc=$?" >> $L/test-ops.log); el "ops: $(grep -E '^test result' $L/test-ops.log | tail -1) $(tail -1 $L/test-ops.log)"
grep -E "FAILED|panicked|failed:" $L/test-ops.log | head
(echo "# s28 i4"; echo "precision,layout,m,n,k,group"; sed 's/$/,ab/' $D/cases.csv) > $L/ab-cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/ab-cases.csv > $L/ab-torch.csv 2> $L/ab-torch-err.log; el "ab torch rc=$?"
for r in 1 2; do for v in i4 h6; do
  X=/tmp/b/$v/gemm_plans
  while IFS=, read p l m n k; do
    timeout 30 $X --precisions $p --layouts $l --shapes ${m}x${n}x${k} --plans Auto 2>/dev/null | grep -v '^precision' >> $L/auto-$v-$r.csv
  done < $D/cases.csv
done; el "A/B round $r"; done
$B/gemm_sweep --list --precisions bf16 --seed 589266001 > $L/cases.csv
timeout 80 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 100 $B/gemm_sweep --precisions bf16 --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^bf16 all" $L/sweep.log
xz -9 $L/test-ops.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

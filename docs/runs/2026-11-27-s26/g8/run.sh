#!/usr/bin/env bash
# Session 26, call g8 (bundle g8: g7 with the BF16 padding pass priced at half the TF32 staging
# cost per element, plan::padding_cost_bf16): Auto of g7 and g8 alternated on BF16 products with
# rows the copy engine cannot read and a side of 17–64 (the picks it changes), beside PyTorch;
# the sweep and the six seeds of g6.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in g8 g7; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/g8
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
NN=3166x26x3258,3578x21x1612,30x5806x1665,63x2753x1201,50x1315x5296,3112x63x1935,51x4001x3980,5272x63x979,7266x39x586,5738x34x1810,2653x33x8115,19x3409x6261,3922x30x1481
NT=19x5976x4305,44x1272x8045,18x6130x5316,33x1692x6780,3166x26x3258,51x4001x3980
TN=20x1927x3502,27x2010x3084,7266x39x586,30x5806x1665
for r in 1 2; do for v in g8 g7; do X=/tmp/b/$v/gemm_plans
  $X --precisions bf16 --layouts nn --shapes $NN --plans Auto > $L/auto-$v-$r.csv 2>>$L/err.log
  $X --precisions bf16 --layouts nt --shapes $NT --plans Auto >> $L/auto-$v-$r.csv 2>>$L/err.log
  $X --precisions bf16 --layouts tn --shapes $TN --plans Auto >> $L/auto-$v-$r.csv 2>>$L/err.log
done; done; el "A/B done"
python3 - > $L/cases-diag.csv <<'PY'
import csv
print("precision,layout,m,n,k,group")
seen = set()
for r in csv.DictReader(open("/tmp/logs/auto-g8-1.csv")):
    key = (r["precision"], r["layout"], r["m"], r["n"], r["k"])
    if key not in seen:
        seen.add(key); print(",".join(key) + ",diag")
PY
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases-diag.csv > $L/torch-diag.csv 2> $L/torch-diag-err.log; el "torch diag rc=$?"
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
for s in 26112701 26112702 26112703 26112704 26112705 26112706; do
  $B/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 60 $B/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^bf16 all" $L/sweep-$s.log
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 40, call x1 (bundle x1: gemm_sweep and gemm_plans of 3405443 plus the sweep's new
# `uniform` group, m, n, k uniform in [1, 8192]): the uniform group at three seeds beside PyTorch
# in the same call; then every plan of the products below 0.75 of cuBLAS.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/x1.txz -C /tmp/b; B=/tmp/b/x1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for s in 4001 4002 4003; do
  [ $(( $(date +%s) - T0 )) -gt 330 ] && { el "stopped before seed $s"; break; }
  $B/gemm_sweep --list --groups uniform --seed $s > $L/cases-$s.csv
  timeout 150 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log; el "torch $s rc=$?"
  timeout 150 $B/gemm_sweep --groups uniform --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "seed $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
  (cd $L && tar czf $OUT/logs.tgz .)
done
# Every plan of the slow products (ratio < 0.75), slowest first, while time is left.
python3 - $L > $L/slow.txt <<'PY'
import csv,glob,sys
rows=[]
for f in glob.glob(sys.argv[1]+'/sweep-*.csv'):
    for r in csv.DictReader(open(f)):
        if r['ratio'] and float(r['ratio'])<0.75: rows.append((float(r['ratio']),r['precision'],r['layout'],r['m'],r['n'],r['k']))
for r in sorted(rows): print(*r)
PY
cat $L/slow.txt
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
while read r p l m n k; do
  [ $(( $(date +%s) - T0 )) -gt 540 ] && { el "stopped before $p $l ${m}x${n}x${k}"; break; }
  timeout 40 $B/gemm_plans --precisions $p --layouts $l --shapes ${m}x${n}x${k} 2>> $L/plans-err.log | tail -n +2 >> $L/plans.csv; el "plans $p $l ${m}x${n}x${k}"
done < $L/slow.txt
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 31, call m2 (bundle m2 = the op tests, gemm_plans and gemm_sweep of the working tree:
# the narrow kernels' splits may be 2 slices (64 k) long, from 4; the row-per-warp kernel's
# scalar path only up to 8 rows per multiprocessor; old = k6's gemm_plans, f74537b): the
# narrow, row-per-warp and Auto-route op tests; every narrow plan and Auto, new and old, on the
# products of the sweep, the seeds and m1 whose pick these change, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/m2.txz -C /tmp/b && tar xJf .gpu/old.txz -C /tmp/b; B=/tmp/b/m2
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for f in Narrow RowDot auto; do
  (timeout 100 $B/ops $f > $L/ops-$f.log 2>&1; echo "rc=$?" >> $L/ops-$f.log); el "$f $(grep -E '^test result|rc=' $L/ops-$f.log | tr '\n' ' ')"
  grep -E "FAILED|panicked" $L/ops-$f.log | head
done
LS="nn:2x1804x379 nn:6x1041x257 nt:1057x4x478 nt:1582x2x111 nt:62x6x1385 nt:6x1041x257 tn:2000x7x1501 tn:454x1x1813 tn:6x1041x257 tt:1130x1x248 tt:2000x7x1501 tt:2x200x2723 tt:454x1x1813 tt:4x112x2266 tt:6x1041x257 tn:10x1024x1024 tn:10x4096x256 nn:2193x10x314 nt:2193x10x314"
echo "precision,layout,m,n,k" > $L/cases.csv
for p in f32 tf32 bf16; do for x in $LS; do IFS=x read m n k <<< "${x#*:}"; echo "$p,${x%%:*},$m,$n,$k" >> $L/cases.csv; done; done
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for x in $LS; do
  timeout 30 $B/gemm_plans --precisions f32,tf32,bf16 --layouts ${x%%:*} --plans Auto,NarrowMn,NarrowK,RowDot,Tile64x32 --shapes ${x#*:} >> $L/plans-new.csv 2>> $L/plans-new-err.log
  timeout 20 /tmp/b/old/gemm_plans --precisions f32,tf32,bf16 --layouts ${x%%:*} --plans Auto --shapes ${x#*:} >> $L/plans-old.csv 2>> $L/plans-old-err.log
done; el "plans done"
(cd $L && tar czf $OUT/logs.tgz .)
el done

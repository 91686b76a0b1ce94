#!/usr/bin/env bash
# Session 31, call m1 (bundle m1 = the op tests, gemm_plans and gemm_sweep of the working tree:
# the narrow kernels read G's rows off 16 bytes with coalesced loads, 32 elements apart per lane,
# instead of one element (k form) or a lane's quad one element at a time (mn form); old = k6's
# gemm_plans, f74537b): the narrow op tests; every narrow plan and Auto on narrow products
# whose wide operand's rows are off 16 bytes in some layout, old and new, beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/m1.txz -C /tmp/b && tar xJf .gpu/old.txz -C /tmp/b; B=/tmp/b/m1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 100 $B/ops Narrow > $L/ops-narrow.log 2>&1; echo "rc=$?" >> $L/ops-narrow.log); el "$(grep -E '^test result|rc=' $L/ops-narrow.log | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops-narrow.log | head
SH="454x1x1813,6x1041x257,4152x10x5877,14x499x6896,9x5173x39,2193x10x314,12x3001x999,3x777x4097,2000x7x1501,16x2049x2049,1x4097x1023,5000x13x333,11x6007x2003,7x1500x7001"
echo "precision,layout,m,n,k" > $L/cases.csv
for p in f32 tf32 bf16; do for l in nn nt tn tt; do for s in ${SH//,/ }; do IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k" >> $L/cases.csv; done; done; done
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
timeout 150 $B/gemm_plans --precisions f32,tf32,bf16 --layouts nn,nt,tn,tt --plans Auto,NarrowMn,NarrowK --shapes $SH > $L/plans-new.csv 2> $L/plans-new-err.log; el "new rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
timeout 120 /tmp/b/old/gemm_plans --precisions f32,tf32,bf16 --layouts nn,nt,tn,tt --plans Auto,NarrowMn,NarrowK --shapes $SH > $L/plans-old.csv 2> $L/plans-old-err.log; el "old rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

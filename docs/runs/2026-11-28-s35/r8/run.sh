#!/usr/bin/env bash
# Session 35, call r8 (bundle r8 = scripts/gpu-bundle of 7edaa5e with ptxas, trimmed as r6's:
# the transposed BF16 warp-per-column launch moved to an early return, no other code change):
# every test binary; Auto on r6's BF16 few-column products beside PyTorch (the same kernel and
# plan as r6; a check that the launch is unchanged).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r8.txz -C /tmp/b; B=/tmp/b/r8
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 220 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
SH="7x1x222 454x1x1813 1130x1x248 3000x1x2000 4096x1x4096 786x1x921 2000x4x3000 16384x1x1024"
CASES=""; for s in $SH; do for l in nn nt tt; do CASES="$CASES bf16:$l:$s"; done; done
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,r8"; done) > $L/cases-auto.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases-auto.csv > $L/torch-auto.csv 2> $L/torch-auto-err.log; el "torch auto rc=$?"
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 30 $B/benches/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/auto-err.log | tail -n +2 | sed "s/^/new,/" >> $L/auto.csv
done; el "auto done"
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 42, call r1 (bundle r1: scripts/gpu-bundle with ptxas of the review's tidy-up: the
# swizzled chunk offset shared through hopper::kmajor_chunk, the cp.async-fed tiles' shared
# operand and candidate costing each in one helper; picks identical on 2819 + 46 products):
# every test binary, then Auto on ab1's products beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r1.txz -C /tmp/b; B=/tmp/b/r1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
CASES="tf32:tn:4286x69x6540 tf32:nn:6998x40x3170 tf32:nn:55x8109x533 tf32:nt:89x4118x5637 tf32:tt:3445x55x5395 tf32:nn:169x1861x6669"
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/auto.csv
for x in $CASES; do IFS=: read p l s <<< "$x"
  timeout 20 $B/benches/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto 2>> $L/err.log | tail -n +2 >> $L/auto.csv
done; el "auto $(wc -l < $L/auto.csv)"; cut -d, -f1-9 $L/auto.csv
(cd $L && tar czf $OUT/logs.tgz .)
el done

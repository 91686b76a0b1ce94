#!/usr/bin/env bash
# Session 42, call b3 (bundle b3: b2 without the proxy fence in the main loop, an experiment):
# the tests of the new tiles, then their plans (and Auto's) on b2's products.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/b3.txz -C /tmp/b; B=/tmp/b/b3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(cd $B && timeout 240 ./ops gemm::Tf32WgmmaCp > $L/tests.log 2>&1; echo "rc=$?" >> $L/tests.log)
el "tests: $(grep -E '^test result|rc=' $L/tests.log | tr '\n' ' ')"
grep -E "FAILED|failed|panicked" $L/tests.log | head -20
(cd $L && tar czf $OUT/logs.tgz .)
declare -A S
S[nn]="6998x40x3170,55x8109x533,169x1861x6669,77x1323x181,121x239x1648,216x2162x2275,1001x1001x1001,2047x2047x2047"
S[tn]="4286x69x6540,1268x214x6640,3239x14x5434,1023x777x1025"
S[nt]="89x4118x5637,6462x17x326,9x35x4991,1000x1000x1001"
S[tt]="1001x1001x1001,333x4097x777"
(echo "precision,layout,m,n,k,group"
 for l in nn tn nt tt; do for s in ${S[$l]//,/ }; do IFS=x read m n k <<< "$s"; echo "tf32,$l,$m,$n,$k,b3"; done; done) > $L/cases.csv
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for l in nn tn nt tt; do
  timeout 150 $B/gemm_plans --precisions tf32 --layouts $l --shapes ${S[$l]} --plans Auto,Tf32WgmmaCp,Tf32WgmmaCp64 2>> $L/err.log | tail -n +2 >> $L/plans.csv
  el "$l $(wc -l < $L/plans.csv)"
  (cd $L && tar czf $OUT/logs.tgz .)
done
el done

#!/usr/bin/env bash
# Session 42, call b1 (bundle b1: the ops tests, gemm_plans and gemm_sweep with the new
# cp.async-fed TF32 wgmma tiles): their correctness tests (every layout, odd strides, splits),
# memcheck on a few, then every TF32 plan of products whose rows break 16-byte alignment (and a
# few controls) beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/b1.txz -C /tmp/b; B=/tmp/b/b1
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(cd $B && timeout 240 ./ops gemm::Tf32WgmmaCp > $L/tests.log 2>&1; echo "rc=$?" >> $L/tests.log)
el "tests: $(grep -E '^test result|rc=' $L/tests.log | tr '\n' ' ')"
grep -E "FAILED|failed|panicked" $L/tests.log | head -20
for t in gemm::Tf32WgmmaCp::ta0_tb0::130x67x131 gemm::Tf32WgmmaCp64::ta1_tb1::301x1030x77 gemm::Tf32WgmmaCp::ta1_tb0::77x1030x301 gemm::Tf32WgmmaCp64::ta0_tb1::17x33x9; do
  (cd $B && timeout 120 compute-sanitizer --tool memcheck ./ops $t --exact > $L/memcheck-${t//:/_}.log 2>&1; echo "rc=$?" >> $L/memcheck-${t//:/_}.log)
  el "memcheck $t: $(grep -E 'ERROR SUMMARY|rc=' $L/memcheck-${t//:/_}.log | tr '\n' ' ')"
done
(cd $L && tar czf $OUT/logs.tgz .)
declare -A S
S[nn]="6998x40x3170,55x8109x533,169x1861x6669,77x1323x181,121x239x1648,216x2162x2275,1001x1001x1001,2047x2047x2047"
S[tn]="4286x69x6540,1268x214x6640,3239x14x5434,1023x777x1025"
S[nt]="89x4118x5637,6462x17x326,9x35x4991,1000x1000x1001"
S[tt]="1001x1001x1001,333x4097x777"
(echo "precision,layout,m,n,k,group"
 for l in nn tn nt tt; do for s in ${S[$l]//,/ }; do IFS=x read m n k <<< "$s"; echo "tf32,$l,$m,$n,$k,b1"; done; done) > $L/cases.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for l in nn tn nt tt; do
  timeout 150 $B/gemm_plans --precisions tf32 --layouts $l --shapes ${S[$l]} --plans Auto,Tf32WgmmaCp,Tf32WgmmaCp64,Tf32,Tf32Tile64,Tf32Wgmma,Tf32Wgmma64x128,Tf32Wgmma64x64,Tf32WgmmaRegA,Tf32WgmmaRegAWide 2>> $L/err.log | tail -n +2 >> $L/plans.csv
  el "$l $(wc -l < $L/plans.csv)"
  (cd $L && tar czf $OUT/logs.tgz .)
done
el done

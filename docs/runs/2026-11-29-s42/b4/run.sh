#!/usr/bin/env bash
# Session 42, call b4 (bundle b4: the cp.async-fed TF32 tiles with their shared operand staged
# k-contiguous on the host where it is not, 16-byte copies only in the kernel): their tests,
# then every TF32 plan and FP32's Auto on b2's products and 28 drawn at random (seed 42420001,
# sides log-uniform, 0.2-200 GFLOP, some operand's rows off 16 bytes), beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/b4.txz -C /tmp/b; B=/tmp/b/b4
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(cd $B && timeout 240 ./ops gemm::Tf32WgmmaCp > $L/tests.log 2>&1; echo "rc=$?" >> $L/tests.log)
el "tests: $(grep -E '^test result|rc=' $L/tests.log | tr '\n' ' ')"
grep -E "FAILED|failed|panicked" $L/tests.log | head -20
for t in gemm::Tf32WgmmaCp::ta0_tb0::130x67x131 gemm::Tf32WgmmaCp64::ta1_tb1::301x1030x77; do
  (cd $B && timeout 120 compute-sanitizer --tool memcheck ./ops $t --exact > $L/memcheck-${t//:/_}.log 2>&1; echo "rc=$?" >> $L/memcheck-${t//:/_}.log)
  el "memcheck $t: $(grep -E 'ERROR SUMMARY|rc=' $L/memcheck-${t//:/_}.log | tr '\n' ' ')"
done
(cd $L && tar czf $OUT/logs.tgz .)
declare -A S
S[nn]="6998x40x3170,55x8109x533,169x1861x6669,77x1323x181,121x239x1648,216x2162x2275,1001x1001x1001,2047x2047x2047,5023x38x915,897x4605x6422,422x281x4686,2039x173x1020"
S[tn]="4286x69x6540,1268x214x6640,3239x14x5434,1023x777x1025,505x118x1934,90x3527x2207,3905x2697x47,873x22x7834,428x1467x6697,305x6691x129,1256x7291x3357,1663x461x272,629x4387x246,2087x68x3358,2659x710x1373,355x916x2237"
S[nt]="89x4118x5637,6462x17x326,9x35x4991,1000x1000x1001,2603x3916x386,517x7512x745,6414x2322x1335,6881x2936x803,3426x400x4261,37x548x5629"
S[tt]="1001x1001x1001,333x4097x777,5067x340x6985,321x230x1825,1051x2241x4072,1441x5105x220,309x3036x779,482x2373x144"
(echo "precision,layout,m,n,k,group"
 for l in nn tn nt tt; do for s in ${S[$l]//,/ }; do IFS=x read m n k <<< "$s"; echo "tf32,$l,$m,$n,$k,b4"; done; done) > $L/cases.csv
timeout 200 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
echo "precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
for l in nn tn nt tt; do
  timeout 150 $B/gemm_plans --precisions tf32 --layouts $l --shapes ${S[$l]} --plans Auto,Tf32WgmmaCp,Tf32WgmmaCp64,Tf32,Tf32Tile64,Tf32Wgmma,Tf32Wgmma64x128,Tf32Wgmma64x64,Tf32WgmmaRegA,Tf32WgmmaRegAWide 2>> $L/err.log | tail -n +2 >> $L/plans.csv
  timeout 60 $B/gemm_plans --precisions f32 --layouts $l --shapes ${S[$l]} --plans Auto 2>> $L/err.log | tail -n +2 >> $L/plans.csv
  el "$l $(wc -l < $L/plans.csv)"
  (cd $L && tar czf $OUT/logs.tgz .)
done
el done

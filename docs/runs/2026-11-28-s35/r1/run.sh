#!/usr/bin/env bash
# Session 35, call r1: where a lone 64x128 wgmma block's time goes. Bundles (gemm_plans only):
# r1a = probe-a.patch (alpha 3: the producer copies only the first ring of stages and the
# consumers multiply whatever the stages hold, so the copies' delivery is off the path; alpha 5:
# the consumers wait for every stage and release it without multiplying, so the tensor work is
# off the path; PROBE_L2 overrides the tensor maps' L2 promotion), r1b = r1a plus
# probe-b.patch (the 64x128 tiles' 64x128 accumulator as two independent 64x64 wgmma chains).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in r1a r1b; do tar xJf .gpu/$x.txz -C /tmp/b; done
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
CASES="bf16:tn:1024x1024x4096 bf16:nn:1024x784x4096 bf16:nt:1024x784x4096 bf16:tn:1024x784x2048 bf16:nt:4096x64x4096 bf16:nn:256x4096x4096 bf16:nt:4096x4096x4096"
(echo "precision,layout,m,n,k,group"
 for x in $CASES; do IFS=: read p l s <<< "$x"; IFS=x read m n k <<< "$s"; echo "$p,$l,$m,$n,$k,r1"; done) > $L/cases.csv
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
run() { # build tag alpha l2 plans
  for x in $CASES; do IFS=: read p l s <<< "$x"
    if [ "$4" = "-" ]; then E=""; else E="PROBE_L2=$4"; fi
    env PROBE_ALPHA=$3 $E timeout 60 /tmp/b/$1/gemm_plans --precisions $p --layouts $l --shapes $s --plans $5 2>> $L/plans-err.log | tail -n +2 | sed "s/^/$2,/" >> $L/plans.csv
  done; el "$2 done"; }
echo "tag,precision,layout,m,n,k,plan,splits,ms,tflops,note" > $L/plans.csv
P=Auto,Wgmma64x128,Wgmma64x128+mc,Wgmma64x64,Wgmma64x32Swapped,Wgmma64x32
run r1a a-normal 1 - $P
run r1a a-compute 3 - $P
run r1a a-data 5 - $P
run r1b b-normal 1 - $P
run r1b b-compute 3 - $P
run r1a a-l2none 1 0 Auto,Wgmma64x128,Wgmma64x128+mc
run r1a a-l2-256 1 3 Auto,Wgmma64x128,Wgmma64x128+mc
run r1a a-l2-128 1 2 Auto,Wgmma64x128,Wgmma64x128+mc
run r1a a-normal2 1 - $P
run r1b b-normal2 1 - $P
(cd $L && tar czf $OUT/logs.tgz .)
el done

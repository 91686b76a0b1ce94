#!/usr/bin/env bash
# Session 31, call m6 (bundle m5, b49b336): the reliability tests (m5's run stopped in them at
# its time limit, after every other test binary passed); Nsight Compute on the BF16 short-k
# products where the 64x64 mma.sync tile trails cuBLAS (tt 6308x37x20, nn 1484x340x20): ours
# (MmaTile64) and cuBLAS's kernel, speed of light, launch, occupancy and warp stall sections.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/m5.txz -C /tmp/b; B=/tmp/b/m5
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(cd $B/tests && timeout 200 ./reliability-test > $L/reliability.log 2>&1; echo "rc=$?" >> $L/reliability.log); el "reliability $(grep -E '^test result|rc=' $L/reliability.log | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/reliability.log | head
(cd $L && tar czf $OUT/logs.tgz .)
S="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis"
for x in tt:6308x37x20 nn:1484x340x20; do
  l=${x%%:*}; s=${x#*:}
  timeout 60 ncu $S -k regex:gemm_mma --launch-skip 2 --launch-count 1 $B/benches/gemm_plans --precisions bf16 --layouts $l --shapes $s --plans MmaTile64 --profile 4 > $L/ncu-ours-$l-$s.txt 2>&1; el "ncu ours $x rc=$?"
  IFS=x read m n k <<< "$s"; printf "precision,layout,m,n,k,group\nbf16,$l,$m,$n,$k,m6\n" > $L/case-$l.csv
  timeout 60 ncu $S -k regex:"cutlass|nvjet|gemm|Kernel2" --launch-skip 2 --launch-count 1 python3 benches/torch/gemm_sweep.py $L/case-$l.csv --profile 4 > $L/ncu-torch-$l-$s.txt 2>&1; el "ncu torch $x rc=$?"
  (cd $L && tar czf $OUT/logs.tgz .)
done
el done

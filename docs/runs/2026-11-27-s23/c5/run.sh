#!/usr/bin/env bash
# Session 23, call c5 (bundle f5 = the final code, b792f68's kernels with the warp-per-column
# aligned-quad path kept to one row or bf16; *_old = c4's build f4): every test binary; `Auto` of
# both builds on the warp-per-column products with odd k; the full sweep (seed 589266001) against
# one PyTorch run; two new random seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/f5.txz -C /tmp/b; B=/tmp/b/f5
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 240 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
WS=1x5099x6665,1x786x921,2x3001x4097,3x2049x1023,4x1000x777,1x4096x4095
for v in new old; do
  P=$B/benches/gemm_plans; [ $v = old ] && P=$B/gemm_plans_old
  timeout 40 $P --precisions f32,tf32,bf16 --layouts nt,tt --shapes $WS --plans Auto > $L/plans-wd-$v.csv 2>> $L/plans-err.log; el "plans wd $v rc=$?"
done
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 150 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep-new.csv > $L/sweep-new.log 2>&1; el "sweep new rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep-new.log
for s in 23112701 23112702; do
  $B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 40 $B/benches/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

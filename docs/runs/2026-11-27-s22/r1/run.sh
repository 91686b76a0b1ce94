#!/usr/bin/env bash
# Session 22, call r1 (bundle f1 = the final code: f2fb31e + the warp-per-column kernel's
# four-step scalar passes and their tests; old = f2fb31e's gemm_sweep): every test binary; three
# random seeds with both builds against one PyTorch run each (the warp-per-column products of
# seed 20288076 among them); the full sweep (seed 589266001) with this build against PyTorch.
# Each part's logs go to $OUT as soon as it ends, so a cut call still returns the parts before.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for f in .gpu/f1.txz .gpu/old.txz; do tar xJf $f -C /tmp/b; done
B=/tmp/b/f1; O=/tmp/b/old
L=/tmp/logs; rm -rf $L; mkdir -p $L/ab $L/sweep
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt; cp $L/gpu.txt $OUT/
(timeout 240 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
xz -9 -c $L/run-tests.log > $OUT/run-tests.log.xz
for s in 20288076 20289156 20261301; do
  $B/benches/gemm_sweep --list --groups random --seed $s > $L/ab/cases-$s.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/ab/cases-$s.csv > $L/ab/torch-$s.csv 2> $L/ab/torch-$s-err.log
  for v in new old; do
    bin=$B/benches/gemm_sweep; [ $v = old ] && bin=$O/gemm_sweep
    timeout 40 $bin --groups random --seed $s --torch $L/ab/torch-$s.csv --csv $L/ab/sweep-$v-$s.csv > $L/ab/sweep-$v-$s.log 2>&1; el "sweep $v $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/ab/sweep-$v-$s.log
  done
done
(cd $L/ab && tar czf $OUT/ab.tgz .)
$B/benches/gemm_sweep --list --seed 589266001 > $L/sweep/cases.csv
timeout 110 python3 benches/torch/gemm_sweep.py $L/sweep/cases.csv > $L/sweep/torch.csv 2> $L/sweep/torch-err.log; el "torch rc=$?"
timeout 150 $B/benches/gemm_sweep --seed 589266001 --torch $L/sweep/torch.csv --csv $L/sweep/sweep-new-1.csv > $L/sweep/sweep-new-1.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep/sweep-new-1.log
(cd $L/sweep && tar czf $OUT/sweep.tgz .)
el done

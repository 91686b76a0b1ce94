#!/usr/bin/env bash
# Session 20, call r1 (HEAD 58238b1, bundle r1s20): every test binary; the full sweep (seed
# 589266001, 272 shapes) with this build (new) and 35d7f6f's (old, r4s18's gemm_sweep) against
# one PyTorch run; s19's random seed 20261127; the MLP step against PyTorch; --example mlp.
set -u
export PYTHONUNBUFFERED=1
# Two calls (the carried tree's cap): `run.sh tests` with .gpu/r1tests.txz, `run.sh bench`
# with .gpu/r1bench.txz.
mkdir -p /tmp/b && for f in .gpu/r1tests.txz .gpu/r1bench.txz; do [ -f $f ] && tar xJf $f -C /tmp/b; done
B=/tmp/b/r1s20; O=/tmp/b/r4s18
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
if [ "${1:-}" = tests ]; then
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .); exit 0
fi
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for v in new old; do
  bin=$B/benches/gemm_sweep; [ $v = old ] && bin=$O/benches/gemm_sweep
  timeout 130 $bin --seed 589266001 --torch $L/torch.csv --csv $L/sweep-$v-1.csv > $L/sweep-$v-1.log 2>&1; el "sweep $v rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep-$v-1.log
done
s=20261127
$B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
timeout 40 $B/benches/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 40 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(timeout 120 $B/examples/mlp > $L/mlp-default.log 2>&1; echo "rc=$?" >> $L/mlp-default.log); el "example mlp: $(grep -E 'test accuracy|time per epoch|rc=' $L/mlp-default.log | tr '\n' ' ' | cut -c1-200)"
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 17, call r3 (HEAD 75a968a: r1's rules plus BF16 short-k in place of padding): the BF16
# op tests, the BF16 sweep with these rules (new) and 5c4919c's (old) against one PyTorch run,
# the three random groups, and Nsight Compute kernel times of the worst random products.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r3s17.txz -C /tmp/b && B=/tmp/b/r3s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/ops-test "gemm_bf16::" > $L/tests-bf16.log 2>&1; el "tests gemm_bf16:: rc=$? $(grep -E '^test result' $L/tests-bf16.log)"
$B/gemm_sweep --list --precisions bf16 --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for v in new old; do
  bin=$B/gemm_sweep; [ $v = old ] && bin=$B/gemm_sweep_old
  timeout 100 $bin --precisions bf16 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-$v.csv > $L/sweep-$v.log 2>&1; el "sweep $v rc=$? $(grep -E '^bf16 all' $L/sweep-$v.log)"
done
python3 docs/runs/2026-11-24-h100-s17/compare.py $L/sweep-old.csv $L/sweep-new.csv | tail -1
for s in 20261124 20261125 20261126; do
$B/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
timeout 30 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
timeout 30 $B/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32|^tf32|^bf16" $L/sweep-$s.log
done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for c in "bf16 tn 116x7122x3188" "tf32 tn 116x7122x3188" "bf16 tt 6609x12x2773" "tf32 tt 6609x12x2773" "bf16 tn 4066x3726x128"; do
  set -- $c
  timeout 60 $NCU --metrics gpu__time_duration.sum $B/gemm_plans --precisions $1 --layouts $2 --shapes $3 --plans Auto --profile 1 > $L/ncu-$1-$2-$3.txt 2>&1
  el "ncu $c rc=$?: $(grep -E '^  [a-z_0-9]+|gpu__time_duration' $L/ncu-$1-$2-$3.txt | tr -s ' ' | tr '\n' ' ' | cut -c1-400)"
done
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 18, call r2 (HEAD 9aebe8e, r1's bundle): the random groups of three more seeds with
# this HEAD (new) and 361325d (old) against one PyTorch run per seed, the MLP step against
# PyTorch's CUDA graph, and --example mlp.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r1s18.txz -C /tmp/b && B=/tmp/b/r1s18
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for s in 20261124 20261125 20261126; do
  $B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  for v in old new; do
    bin=$B/benches/gemm_sweep; [ $v = old ] && bin=$B/benches/gemm_sweep_old
    timeout 40 $bin --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$v-$s.csv > $L/sweep-$v-$s.log 2>&1; el "sweep $v $s rc=$?"; grep -E '^(f32|tf32|bf16) ' $L/sweep-$v-$s.log
  done
  python3 docs/runs/2026-11-24-h100-s17/compare.py $L/sweep-old-$s.csv $L/sweep-new-$s.csv > $L/compare-$s.txt
done
cat $L/compare-*.txt | grep geomean
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 40 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(timeout 120 $B/examples/mlp > $L/mlp-default.log 2>&1; echo "rc=$?" >> $L/mlp-default.log); el "example mlp: $(grep -E 'test accuracy|time per epoch|rc=' $L/mlp-default.log | tr '\n' ' ' | cut -c1-200)"
tar czf $OUT/logs.tgz -C /tmp logs

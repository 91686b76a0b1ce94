#!/usr/bin/env bash
# Session 17, call r2 (HEAD ec33b40, as r1): the full sweep with the session's rules (new) and
# with HEAD 5c4919c's (old), against one PyTorch run, then the two random groups of seeds
# 20261124 and 20261125 (no rule fitted on either) and a new one, 20261126.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r1s17.txz -C /tmp/b && B=/tmp/b/r1s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 130 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
timeout 130 $B/benches/gemm_sweep_old --seed 589266001 --torch $L/torch.csv --csv $L/sweep-old.csv > $L/sweep-old.log 2>&1; el "sweep old rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-old.log
python3 docs/runs/2026-11-24-h100-s17/compare.py $L/sweep-old.csv $L/sweep.csv | grep -E "geomean|^bf16 .* old|^tf32 .* old" | tail -40
for s in 20261124 20261125 20261126; do
$B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
timeout 30 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log; el "torch $s rc=$?"
timeout 30 $B/benches/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-$s.log
done
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Round 3: tests and the sweep against PyTorch after the column kernels (m <= 4, n-contiguous
# B), two quads per lane in WarpDot, and RowDot where it wins.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xzf .gpu/r1.tgz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
for t in nn reliability ops; do timeout 200 $B/tests/$t-test > $L/test-$t.log 2>&1; el "$t rc=$?"; grep -E "^test result" $L/test-$t.log | tail -1; grep -E "FAILED|panicked|^    .*Err" $L/test-$t.log | head -8; done
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"
tail -22 $L/sweep.log
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 31, call m5 (bundle m5 = scripts/gpu-bundle of b49b336: the narrow, row-per-warp,
# multicast and short-k rules of this session): every test binary; the sweep (all three
# precisions) beside PyTorch at session 27's seed.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/m5.txz -C /tmp/b; B=/tmp/b/m5
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 220 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
(cd $L && tar czf $OUT/logs.tgz .)
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
timeout 220 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
(cd $L && tar czf $OUT/logs.tgz .)
el done

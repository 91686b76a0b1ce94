#!/usr/bin/env bash
# Session 8, call 9 (HEAD): the BF16 128×208 tile in Auto (K-major B): every test binary,
# memcheck on the cluster splits and the new tile, the full sweep (all precisions, seed
# 589266001), the FP32 MLP step against PyTorch and the mixed-precision steps against AMP.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r9.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(cd $B/.. && timeout 300 ./b1/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(tail -1 $L/run-tests.log)"; grep -E "^(== |test result)" $L/run-tests.log | paste - - | awk '{print $2, $4, $5, $6, $7, $8, $9, $10, $11}' | grep -v " 0 passed; 0 failed; 0 ignored"; grep -E "FAILED|panicked" $L/run-tests.log | head -8
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 100 $CS --tool memcheck $B/tests/ops-test "Wgmma64x64::split" > $L/memcheck.log 2>&1; el "memcheck split rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck.log | tr '\n' ' ')"
timeout 100 $CS --tool memcheck $B/tests/ops-test "Wgmma128x208::split" > $L/memcheck-208.log 2>&1; el "memcheck 208 rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-208.log | tr '\n' ' ')"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 160 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
MLP_BENCH=amp timeout 120 $B/benches/mlp --bench > $L/amp-ours.csv 2> $L/amp-ours.err; el "our amp bench rc=$?"; tail -2 $L/amp-ours.err
timeout 120 python3 benches/torch/mlp_amp.py > $L/amp-torch.csv 2> $L/amp-torch.err; el "torch amp rc=$?"; tail -2 $L/amp-torch.err
python3 benches/torch/mlp_amp.py --ours $L/amp-ours.csv --theirs $L/amp-torch.csv > $L/amp-compare.txt 2>&1; grep -E "train_step|smallest" $L/amp-compare.txt | head -20
tar czf $OUT/logs.tgz -C /tmp logs

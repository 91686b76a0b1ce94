#!/usr/bin/env bash
# Session 10, call r1 (HEAD: the narrow kernels in Auto): every test binary, memcheck on the
# narrow kernels' splits, the FP32 MLP step against PyTorch's CUDA graph.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r1.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(cd $B/.. && timeout 360 ./b1/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(tail -1 $L/run-tests.log)"; grep -E "^(== |test result)" $L/run-tests.log | paste - - | awk '{print $2, $4, $5, $6, $7, $8, $9, $10, $11}' | grep -v " 0 passed; 0 failed; 0 ignored"; grep -E "FAILED|panicked" $L/run-tests.log | head -8
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 60 $CS --tool memcheck $B/tests/ops-test "NarrowMn::split3" > $L/memcheck-mn.log 2>&1; el "memcheck mn rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-mn.log | tr '\n' ' ')"
timeout 60 $CS --tool memcheck $B/tests/ops-test "NarrowK::split3" > $L/memcheck-k.log 2>&1; el "memcheck k rc=$? $(grep -E 'ERROR SUMMARY|^test result' $L/memcheck-k.log | tr '\n' ' ')"
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 17, call r1 (HEAD ec33b40: the BF16 64×32 tiles, the TF32 128×192 register-A tile):
# every test binary, memcheck on the new kernels' split tests and the wgmma split tests, the
# FP32 MLP step against PyTorch's CUDA-graph step, the README's main job (--example mlp).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r1s17.txz -C /tmp/b && B=/tmp/b/r1s17
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 90 $CS --tool memcheck $B/tests/ops-test "Wgmma64x32" > $L/memcheck-slim.log 2>&1; el "memcheck slim rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-slim.log | tr "\n" " ")"
timeout 90 $CS --tool memcheck $B/tests/ops-test "Tf32WgmmaRegAWide::ta1" > $L/memcheck-rega.log 2>&1; el "memcheck rega rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-rega.log | tr "\n" " ")"
timeout 60 $CS --tool memcheck $B/tests/ops-test "split::ta1" > $L/memcheck.log 2>&1; el "memcheck split rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 40 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(timeout 120 $B/examples/mlp > $L/mlp-default.log 2>&1; echo "rc=$?" >> $L/mlp-default.log); el "example mlp: $(grep -E 'test accuracy|time per epoch|rc=' $L/mlp-default.log | tr '\n' ' ' | cut -c1-200)"
tar czf $OUT/logs.tgz -C /tmp logs

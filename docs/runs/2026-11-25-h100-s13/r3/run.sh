#!/usr/bin/env bash
# Session 13, call r3 (r2 with the 32x64 and 64x32 FP32 tiles only where they save rows or columns): every
# test binary, memcheck on the short-k tests, cuBLAS SGEMM's error on the accuracy tests' shapes, the
# full sweep and the second random group against PyTorch, the FP32 MLP step.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r3s13.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(cd $B/.. && timeout 200 ./b1/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(tail -1 $L/run-tests.log)"; grep -E "^(== |test result)" $L/run-tests.log | paste - - | awk '{print $2, $4, $5, $6, $7, $8, $9, $10, $11}' | grep -v " 0 passed; 0 failed; 0 ignored"; grep -E "FAILED|panicked" $L/run-tests.log | head -8
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck $B/tests/ops-test "resident_clusters" > $L/memcheck.log 2>&1; el "memcheck resident_clusters rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 150 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep.log
$B/benches/gemm_sweep --list --groups random --seed 20261124 > $L/cases-r2.csv
timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-r2.csv > $L/torch-r2.csv 2> $L/torch-r2-err.log; el "torch r2 rc=$?"
timeout 40 $B/benches/gemm_sweep --groups random --seed 20261124 --torch $L/torch-r2.csv --csv $L/sweep-r2.csv > $L/sweep-r2.log 2>&1; el "sweep r2 rc=$?"; grep -E "^f32|^tf32|^bf16|^RESULT" $L/sweep-r2.log
timeout 60 python3 benches/torch/sgemm_error.py > $L/sgemm-error.txt 2>&1; el "sgemm error rc=$?"; cat $L/sgemm-error.txt
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 100 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
SH=32x10x1024,64x10x1024,128x10x1024,256x10x1024,512x10x1024,1024x10x1024,32x10x4096,128x10x4096,256x10x4096,1024x10x4096,4096x10x1024,10x4096x128,10x1024x4096,10x1024x512
timeout 150 $B/benches/gemm_plans --precisions tf32,bf16 --layouts nt --shapes $SH > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
python3 - $L/plans.csv <<'PY'
import csv,sys
from collections import defaultdict
g=defaultdict(list)
for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#')):
    g[(r['precision'],r['layout'],r['m'],r['n'],r['k'])].append(r)
for key,rs in g.items():
    auto=[float(r['ms']) for r in rs if r['plan'] in ('Auto','Tf32Auto')]
    best=min((r for r in rs if r['plan'] not in ('Auto','Tf32Auto') and r['ms']), key=lambda r: float(r['ms']))
    print(key, 'Auto %.1f' % (auto[0]*1e3), 'best %s x%s %.1f' % (best['plan'], best['splits'], float(best['ms'])*1e3))
PY
tar czf $OUT/logs.tgz -C /tmp logs

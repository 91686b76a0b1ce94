#!/usr/bin/env bash
# Session 9, experiment 4: split-K in clusters of 8 whose sums meet in the workspace (16-64
# splits, a counter per share of the tile's rows) against HEAD's workspace splits (the last
# block sums every split). Split tests and memcheck first; then every 64-row plan on long-k
# products, HEAD and new, and PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e4.txz -C /tmp/e && E=/tmp/e/e4
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $E/tests/ops-test split > $L/ops-split.log 2>&1; el "ops split rc=$? $(grep '^test result' $L/ops-split.log)"; grep -E "FAILED|panicked|failed" $L/ops-split.log | head -8
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $SAN --tool memcheck $E/tests/ops-test "Wgmma64x64::split" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test result' $L/memcheck.log | tr '\n' ' ')"
S=64x64x16384,32x1024x16384,1024x32x16384,10x1024x4096,64x784x4096,128x784x4096,1x165x7552,4x7337x2921,256x784x4096,33x2000x5000,16x4096x4096,128x1024x1024
T=64x64x16384,32x1024x16384,10x1024x4096,10x4096x1024,64x784x4096,128x784x4096,33x2000x5000,256x4096x4096
for v in base new; do
  timeout 150 $E/$v/gemm_plans --precisions bf16 --layouts nn,nt --shapes $S --plans Auto,Wgmma64x64,Wgmma64x128,Wgmma > $L/plans-bf16-$v.csv 2> $L/plans-bf16-$v.err; el "$v bf16 rc=$? $(wc -l < $L/plans-bf16-$v.csv)"
  timeout 120 $E/$v/gemm_plans --precisions tf32 --layouts nt,tn --shapes $T --plans Tf32Auto,Tf32Wgmma64x64,Tf32Wgmma64x128,Tf32Wgmma > $L/plans-tf32-$v.csv 2> $L/plans-tf32-$v.err; el "$v tf32 rc=$? $(wc -l < $L/plans-tf32-$v.csv)"
done
python3 - $S $T > $L/cases.csv <<'PY'
import sys
print("precision,layout,m,n,k")
for s in sys.argv[1].split(","):
    m, n, k = s.split("x")
    for l in ("nn", "nt"): print(f"bf16,{l},{m},{n},{k}")
for s in sys.argv[2].split(","):
    m, n, k = s.split("x")
    for l in ("nt", "tn"): print(f"tf32,{l},{m},{n},{k}")
PY
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch.err; el "torch rc=$?"
tar czf $OUT/logs.tgz -C /tmp logs

#!/usr/bin/env bash
# Session 9, experiment 2: are the 64-row wgmma tiles bound by the dependency chain of their
# accumulator (four wgmma per k-slice into the same registers)? gemm_plans built three ways:
# HEAD; the 64x64 tile with two accumulator chains (odd k-steps into a second set, summed at
# the end); that and the 64x128 tile with two chains at one block per SM.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e2.txz -C /tmp/e && E=/tmp/e/e2
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=64x64x16384,32x4096x4096,32x1024x16384,128x1024x1024,256x1024x1024,384x384x384,512x512x512,1x4096x4096,256x784x4096,33x2000x5000,1024x1024x1024,4096x16x4096
T=64x64x16384,128x1024x1024,512x512x512,32x4096x4096,10x1024x4096,256x4096x4096
for v in base dual dual128; do
  timeout 150 $E/$v/gemm_plans --precisions bf16 --layouts nn,nt --shapes $S --plans Wgmma64x64,Wgmma64x128 > $L/plans-bf16-$v.csv 2> $L/plans-bf16-$v.err; el "$v bf16 rc=$? $(wc -l < $L/plans-bf16-$v.csv)"
  timeout 90 $E/$v/gemm_plans --precisions tf32 --layouts nt --shapes $T --plans Tf32Wgmma64x64,Tf32Wgmma64x128 > $L/plans-tf32-$v.csv 2> $L/plans-tf32-$v.err; el "$v tf32 rc=$? $(wc -l < $L/plans-tf32-$v.csv)"
done
python3 - $S $T > $L/cases.csv <<'PY'
import sys
print("precision,layout,m,n,k")
for s in sys.argv[1].split(","):
    m, n, k = s.split("x")
    for l in ("nn", "nt"): print(f"bf16,{l},{m},{n},{k}")
for s in sys.argv[2].split(","):
    m, n, k = s.split("x"); print(f"tf32,nt,{m},{n},{k}")
PY
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch.err; el "torch rc=$?"
tar czf $OUT/logs.tgz -C /tmp logs

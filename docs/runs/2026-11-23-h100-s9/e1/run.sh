#!/usr/bin/env bash
# Session 9, experiment 1: does a deeper TMA pipeline make the small 64-row wgmma tiles stream
# faster per block? The same gemm_plans built four ways: HEAD (64x64: 6 stages, 2 blocks/SM;
# 64x128: 4 stages), 64x64 with 12 stages (1 block/SM), 64x64 with 3 stages, 64x128 with 8
# stages (1 block/SM). PyTorch on the same shapes.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e1.txz -C /tmp/e && E=/tmp/e/e1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
S=64x64x16384,32x4096x4096,32x1024x16384,128x1024x1024,384x384x384,512x512x512,1x4096x4096,256x784x4096,4096x16x4096,1024x32x16384
T=64x64x16384,128x1024x1024,512x512x512,32x4096x4096,1024x10x1024
for v in base small12 small3 narrow8; do
  case $v in small*) P=Auto,Wgmma64x64; Q=Tf32Wgmma64x64;; narrow8) P=Wgmma64x128; Q=Tf32Wgmma64x128;; *) P=Auto,Wgmma64x64,Wgmma64x128; Q=Tf32Auto,Tf32Wgmma64x64,Tf32Wgmma64x128;; esac
  timeout 120 $E/$v/gemm_plans --precisions bf16 --layouts nn,nt --shapes $S --plans $P > $L/plans-bf16-$v.csv 2> $L/plans-bf16-$v.err; el "$v bf16 rc=$? $(wc -l < $L/plans-bf16-$v.csv)"
  timeout 60 $E/$v/gemm_plans --precisions tf32 --layouts nt --shapes $T --plans $Q > $L/plans-tf32-$v.csv 2> $L/plans-tf32-$v.err; el "$v tf32 rc=$? $(wc -l < $L/plans-tf32-$v.csv)"
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

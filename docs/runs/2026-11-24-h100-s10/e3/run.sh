#!/usr/bin/env bash
# Session 10, experiment 3: the narrow kernels' loads and block shape. Variants (NARROW_VARIANT)
# of the width-4 and width-16 big-contiguous kernels and the width-4 k-contiguous one: 1 `.cg`
# loads, 2 `.cs` loads, 3 four warps along big (512 per block), 4 = 3 with `.cs`, 5 two warps
# along big. GPU tests of variant 3 and 5, then every split of each variant, Auto beside.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/e && tar xJf .gpu/e3.txz -C /tmp/e && E=/tmp/e/e3
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for v in 3 5; do NARROW_VARIANT=$v timeout 100 $E/ops Narrow > $L/ops-narrow-v$v.log 2>&1; el "ops Narrow v$v rc=$? $(grep '^test result' $L/ops-narrow-v$v.log)"; done
S=1x4096x4096,4x7337x2921,1x5099x6665,16x4096x4096,10x4096x4096,4096x16x4096,10x1024x4096,1024x10x4096,1x165x7552,2x1804x379,3x8192x8192,16x1024x16384
for v in 0 1 2 3 4 5; do
  P=NarrowMn,NarrowK; [ $v = 0 ] && P=Auto,NarrowMn,NarrowK
  NARROW_VARIANT=$v timeout 100 $E/gemm_plans --precisions f32,bf16 --layouts nn,nt,tn --shapes $S --plans $P > $L/plans-v$v.csv 2> $L/plans-v$v.err; el "v$v rc=$? $(wc -l < $L/plans-v$v.csv) $(grep -c mismatch $L/plans-v$v.csv)"
done
python3 - $S > $L/cases.csv <<'PY'
import sys
print("precision,layout,m,n,k")
for s in sys.argv[1].split(","):
    m, n, k = s.split("x")
    for p in ("f32", "bf16"):
        for l in ("nn", "nt", "tn"): print(f"{p},{l},{m},{n},{k}")
PY
timeout 90 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch.err; el "torch rc=$?"
tar czf $OUT/logs.tgz -C /tmp logs

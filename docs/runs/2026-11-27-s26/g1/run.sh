#!/usr/bin/env bash
# Session 26, call g1 (gemm_plans of a5bd680 = the kernels of 6599417, bundle f4; sweep of f2):
# every plan on the products that fell below 0.70 of cuBLAS in session 25's sweeps (f2, seeds
# 589266001, 24112701, 24112702), beside PyTorch in the same call; four new random seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in f2 f4; do tar xJf .gpu/$x.txz -C /tmp/b; done
P=/tmp/b/f4/gemm_plans; S=/tmp/b/f2/benches/gemm_sweep
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
run() { $P --precisions $1 --layouts $2 --shapes $3 >> $L/plans.csv 2>>$L/plans-err.log; }
run bf16 nt 18x6130x5316,254x32x1772,3943x602x53
run f32 nn 1050x114x1367,9x1877x119
run tf32 nn 183x856x4590
run bf16 nn 9x1877x119,19x3409x6261,797x346x9,512x784x4096,2048x784x1024
run bf16 tn 566x339x10,818x84x199,1024x784x2048
run bf16 tt 6308x37x20
run tf32 tt 6308x37x20
run f32 nt 3943x602x53
run tf32 tn 10x4096x256,4096x784x32,1024x784x64,128x128x128,384x384x384
el "plans done"
# the same products with PyTorch
python3 - > $L/cases.csv <<'PY'
rows = """bf16 nt 18x6130x5316,254x32x1772,3943x602x53
f32 nn 1050x114x1367,9x1877x119
tf32 nn 183x856x4590
bf16 nn 9x1877x119,19x3409x6261,797x346x9,512x784x4096,2048x784x1024
bf16 tn 566x339x10,818x84x199,1024x784x2048
bf16 tt 6308x37x20
tf32 tt 6308x37x20
f32 nt 3943x602x53
tf32 tn 10x4096x256,4096x784x32,1024x784x64,128x128x128,384x384x384"""
print("precision,layout,m,n,k,group")
for line in rows.splitlines():
    p, l, shapes = line.split()
    for s in shapes.split(","):
        m, n, k = s.split("x")
        print(f"{p},{l},{m},{n},{k},diag")
PY
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch-diag.csv 2> $L/torch-diag-err.log; el "torch diag rc=$?"
for s in 26112701 26112702 26112703 26112704; do
  $S --list --groups random --seed $s > $L/cases-$s.csv
  timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 60 $S --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

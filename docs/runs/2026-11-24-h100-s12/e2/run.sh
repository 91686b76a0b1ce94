#!/usr/bin/env bash
# Session 12, experiment 2: BF16 `wgmma` on row strides that are not a multiple of 128 bytes
# under each L2 promotion of the tensor maps (EXP_L2_PROMO, an experiment-only build: 0 none,
# 1 64 B, 2 128 B, 3 256 B); then Nsight Compute on the short-k kernel against the f32 64×64
# tiles (k = 10) and on a 32-row product.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e2.txz -C /tmp/e && E=/tmp/e/e2
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for lay in nt nn tn; do
S=1024x1024x1000,1000x1000x1000,1024x1024x1008,3000x3000x3000,1024x784x4096,4096x784x4096,1024x1024x1024
for p in 0 1 2 3; do
EXP_L2_PROMO=$p timeout 60 $E/gemm_plans --precisions bf16,tf32 --layouts $lay --shapes $S --plans Auto > $L/promo-$lay-$p.csv 2> $L/promo-$lay-$p.err; el "promo $lay $p rc=$?"
done
done
paste -d, $L/promo-nt-0.csv $L/promo-nt-1.csv $L/promo-nt-2.csv $L/promo-nt-3.csv | awk -F, '{print $1,$2,$3,$4,$5,$8,$18,$28,$38}'
paste -d, $L/promo-nn-0.csv $L/promo-nn-1.csv $L/promo-nn-2.csv $L/promo-nn-3.csv | awk -F, '{print $1,$2,$3,$4,$5,$8,$18,$28,$38}'
paste -d, $L/promo-tn-0.csv $L/promo-tn-1.csv $L/promo-tn-2.csv $L/promo-tn-3.csv | awk -F, '{print $1,$2,$3,$4,$5,$8,$18,$28,$38}'
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,launch__shared_mem_per_block_dynamic,dram__bytes_write.sum,dram__bytes_read.sum,launch__grid_size,smsp__inst_executed.sum
for pr in bf16 f32; do for s in 64x1024x10 4096x4096x10; do
timeout 60 $NCU --metrics $M $E/gemm_plans --precisions $pr --layouts nn --shapes $s --plans Auto --profile 2 > $L/ncu-$pr-$s.txt 2>&1; el "ncu $pr $s rc=$?"
grep -E "^  [a-z_0-9]+ \(|duration|throughput|warps|regis|limit|shared|bytes|grid|inst" $L/ncu-$pr-$s.txt | head -14
done; done
for s in 32x4096x4096 256x1024x1024; do
timeout 60 $NCU --metrics $M $E/gemm_plans --precisions bf16 --layouts nt --shapes $s --plans Auto --profile 2 > $L/ncu-bf16-$s.txt 2>&1; el "ncu bf16 $s rc=$?"
grep -E "^  [a-z_0-9]+ \(|duration|throughput|warps|regis|limit|shared|bytes|grid|inst" $L/ncu-bf16-$s.txt | head -14
done
tar czf $OUT/logs.tgz -C /tmp logs

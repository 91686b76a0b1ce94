#!/usr/bin/env bash
# Session 21, call d1 (HEAD 1a07552, bundle h0): where write-bound (short-k) and few-tile
# products lose. Every plan of gemm_plans on 8 shapes, PyTorch on the same shapes, a fill's
# write bandwidth, then Nsight Compute on our Auto launch and on cuBLAS's for each shape.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/h0.txz -C /tmp/b
B=/tmp/b/h0; L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
cat > $L/cases.csv <<C
precision,layout,m,n,k
tf32,tn,4096,4096,32
tf32,tn,4096,784,32
bf16,nt,3290,935,27
bf16,nt,4096,4096,32
f32,nn,4096,4096,32
f32,tt,1249,6186,40
bf16,nn,1536,1536,1536
bf16,nn,128,1024,1024
C
timeout 60 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"; cat $L/torch.csv
python3 - > $L/fill.txt <<'P'
import torch
for mb in (12.8, 67.1):
    x = torch.empty(int(mb * 1e6 / 4), device="cuda")
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ts = []
    for _ in range(30):
        s.record(); x.fill_(1.0); e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); print(f"fill {mb} MB: {ts[15]*1e3:.1f} us, {mb*1e6/ts[15]/1e9:.2f} TB/s")
P
cat $L/fill.txt
for s in tf32:tn:4096x4096x32 tf32:tn:4096x784x32 bf16:nt:3290x935x27 bf16:nt:4096x4096x32 f32:nn:4096x4096x32 f32:tt:1249x6186x40 bf16:nn:1536x1536x1536 bf16:nn:128x1024x1024; do
  IFS=: read p l sh <<< "$s"
  timeout 60 $B/benches/gemm_plans --precisions $p --layouts $l --shapes $sh >> $L/plans.csv 2>> $L/plans-err.log
done; el "plans rc=$?"
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_drain.ratio,smsp__average_warp_latency_issue_stalled_membar.ratio,smsp__average_warp_latency_issue_stalled_stall_sleeping.ratio
for s in tf32:tn:4096x4096x32 tf32:tn:4096x784x32 bf16:nt:3290x935x27 bf16:nt:4096x4096x32 f32:nn:4096x4096x32 f32:tt:1249x6186x40 bf16:nn:1536x1536x1536 bf16:nn:128x1024x1024; do
  IFS=: read p l sh <<< "$s"
  timeout 60 ncu --cache-control none --clock-control none --metrics $M --launch-skip 2 --launch-count 1 $B/benches/gemm_plans --precisions $p --layouts $l --shapes $sh --plans Auto --profile 3 > $L/ncu-ours-$p-$l-$sh.txt 2>&1
  IFS=x read m n k <<< "$sh"
  printf 'precision,layout,m,n,k\n%s,%s,%s,%s,%s\n' $p $l $m $n $k > $L/one.csv
  timeout 60 ncu --cache-control none --clock-control none --metrics $M -k regex:'gemm|nvjet|xmma|cutlass|splitK|Kernel' python3 benches/torch/gemm_sweep.py $L/one.csv --profile 3 > $L/ncu-torch-$p-$l-$sh.txt 2>&1
  el "ncu $s"
done
(cd $L && tar czf $OUT/logs.tgz .)
el done

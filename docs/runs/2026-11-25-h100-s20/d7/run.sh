#!/usr/bin/env bash
# Session 20, call d7 (bundle d6s20): why n = 6186 costs 1.7x n = 6184 (d5, d6): Nsight Compute
# on the BF16 64x128 wgmma tile and the FP32 64x32 CUDA-core tile, nt 1248x6184x40 against
# 1248x6186x40 (operands alike; only C's row length differs).
set -u
mkdir -p /tmp/b && tar xJf .gpu/d6both.txz -C /tmp/b
B=/tmp/b/d6s20
L=/tmp/logs; rm -rf $L; mkdir -p $L
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_write.sum,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
for s in 1248x6184x40 1248x6186x40; do
  timeout 120 $NCU --cache-control none --clock-control none --metrics $M $B/benches/gemm_plans --precisions bf16 --layouts nt --shapes $s --plans Wgmma64x128 --profile 3 > $L/ncu-bf16-$s.txt 2>&1
  timeout 120 $NCU --cache-control none --clock-control none --metrics $M $B/benches/gemm_plans --precisions f32 --layouts nt --shapes $s --plans Tile64x32 --profile 3 > $L/ncu-f32-$s.txt 2>&1
done
for f in $L/ncu-*.txt; do echo "== $f"; grep -E "gemm_|duration|bytes|sectors|requests|inst_executed" $f | tail -24; done
(cd $L && tar czf $OUT/logs.tgz .)

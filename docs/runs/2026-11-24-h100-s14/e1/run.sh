#!/usr/bin/env bash
# Session 14, call e1: every test binary of HEAD 72d06e3 (the review refactor, not yet run on a
# GPU); the BF16 128x256 wgmma tile's time against k at fixed m x n (its per-block fixed cost);
# Nsight Compute's throughput breakdown (tensor pipe, L2, DRAM, shared memory) of that tile on
# 4096^3 and 3000^3 and of the 128x208 tile on 4096x784x4096.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e1s14.txz -C /tmp/b && B=/tmp/b/e1s14
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 260 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result|^== |rc=' $L/run-tests.log | tr '\n' ' ' | sed 's/finished in [0-9.]*s//g')"
SH=1536x1536x64,1536x1536x256,1536x1536x1024,1536x1536x1536,1536x1536x4096,2048x2048x512,2048x2048x2048,3000x3000x3000,4096x4096x4096
timeout 120 $B/gemm_plans --precisions bf16 --layouts nt,nn --shapes $SH --plans Wgmma,Wgmma128x208 > $L/plans.csv 2> $L/plans.err; el "plans rc=$?"
awk -F, '$7==1' $L/plans.csv
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
M="gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__inst_executed_pipe_tensor_op_gmma.sum,smsp__cycles_active.avg,sm__cycles_elapsed.avg.per_second,lts__t_sector_hit_rate.pct"
for s in 4096x4096x4096 3000x3000x3000; do
timeout 60 $NCU --launch-count 3 --metrics $M --csv --page raw $B/gemm_plans --precisions bf16 --layouts nt --shapes $s --plans Wgmma --profile 1 > $L/ncu-$s.csv 2>&1; el "ncu $s rc=$?"
done
timeout 60 $NCU --launch-count 3 --metrics $M --csv --page raw $B/gemm_plans --precisions bf16 --layouts nt --shapes 4096x784x4096 --plans Wgmma128x208 --profile 1 > $L/ncu-4096x784x4096.csv 2>&1; el "ncu 784 rc=$?"
python3 - $L <<'PY'
import csv,sys,glob,io
for f in sorted(glob.glob(sys.argv[1]+'/ncu-*.csv')):
    lines=[l for l in open(f) if l.startswith('"')]
    rows=list(csv.reader(io.StringIO(''.join(lines))))
    if len(rows)<3: print(f,'no rows'); continue
    h=rows[0]
    for r in rows[2:]:
        if 'wgmma' not in r[h.index('Kernel Name')] and 'gemm' not in r[h.index('Kernel Name')]: continue
        if int(r[h.index('ID')]) == 0 and False: pass
        print(f.split('/')[-1], r[h.index('Kernel Name')][:40], r[h.index('Grid Size')] if 'Grid Size' in h else '')
        for i,c in enumerate(h):
            if '__' in c: print('   ',c,r[i])
PY
tar czf $OUT/logs.tgz -C /tmp logs

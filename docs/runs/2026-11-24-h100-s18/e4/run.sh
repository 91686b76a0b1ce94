#!/usr/bin/env bash
# Session 18, call e4 (HEAD 361325d, bundle of e1). rows.py: torch.mm, copy_ and fill_ into rows
# that are 16-byte aligned or not (the hardware's cost of unaligned rows). Then Nsight Compute
# (no cache flush, no clock lock) on the short-k kernel and the 64x32 tile for nt 800x344x9
# against 800x346x9: instructions, stores, sectors, DRAM bytes and stall reasons.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e1s18.txz -C /tmp/b && B=/tmp/b/e1s18
L=/tmp/logs; rm -rf $L; mkdir -p $L
python3 docs/runs/2026-11-24-h100-s18/e4/rows.py | tee $L/rows.txt
ST=smsp__average_warps_issue_stalled
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_local_st.sum,smsp__sass_inst_executed_op_local_ld.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
for s in no_instruction long_scoreboard barrier wait short_scoreboard lg_throttle drain imc_miss branch_resolving math_pipe_throttle mio_throttle membar selected not_selected; do M=$M,${ST}_${s}_per_issue_active.ratio; done
for s in 800x344x9 800x346x9; do for p in ShortK Tile64x32; do
  timeout 60 ncu --cache-control none --clock-control none --metrics $M --csv $B/gemm_plans --precisions f32 --layouts nt --shapes $s --plans $p --profile 2 > $L/ncu-$s-$p.csv 2>/dev/null
done; done
python3 - $L <<'PY'
import csv, glob, io, os, sys, collections
for f in sorted(glob.glob(sys.argv[1] + '/ncu-*.csv')):
    txt = open(f).read(); i = txt.find('"ID"')
    k = collections.OrderedDict()
    for r in csv.DictReader(io.StringIO(txt[i:])):
        k.setdefault((r['ID'], r['Kernel Name'][:40]), {})[r['Metric Name']] = r['Metric Value'].replace(',', '')
    (i, name), d = list(k.items())[-1]
    print('==', os.path.basename(f)[4:-4], name)
    print('   ', ' '.join('%s=%s' % (m.replace('smsp__average_warps_issue_stalled_', 'st_').replace('_per_issue_active.ratio', ''), v) for m, v in d.items()))
PY

#!/usr/bin/env bash
# Session 18, call e2 (HEAD 361325d, bundle of e1): why small products take 1.5-2 us longer than
# cuBLAS's. Nsight Compute without cache flush or clock locking (the kernels as a graph replay
# sees them) on `Auto` and on torch.matmul, with the warp stall reasons; then both timed as the
# sweep times them (graph replays) in this call.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e1s18.txz -C /tmp/b && B=/tmp/b/e1s18
L=/tmp/logs; rm -rf $L; mkdir -p $L/ncu
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="f32:nn:797x346x9 f32:nn:800x344x9 f32:nn:256x1024x10 f32:tt:108x1111x57 tf32:tn:118x1233x48 tf32:tn:128x128x128 tf32:tn:256x256x256 bf16:nt:18x200x254 bf16:tn:128x128x128 f32:nt:4057x18x221 tf32:nn:569x432x53"
ST=smsp__average_warps_issue_stalled
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic
for s in no_instruction long_scoreboard barrier wait short_scoreboard lg_throttle drain imc_miss branch_resolving math_pipe_throttle mio_throttle membar sleeping dispatch_stall selected not_selected misc tex_throttle; do M=$M,${ST}_${s}_per_issue_active.ratio; done
echo "precision,layout,m,n,k" > $L/cases.csv
for c in $CASES; do IFS=: read p l s <<< "$c"; echo "$p,$l,${s//x/,}" >> $L/cases.csv; done
for c in $CASES; do
  IFS=: read p l s <<< "$c"
  timeout 60 ncu --cache-control none --clock-control none --metrics $M --csv $B/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto --profile 3 > $L/ncu/ours-$p-$l-$s.csv 2> $L/ncu/ours-$p-$l-$s.err
  echo "precision,layout,m,n,k" > $L/one.csv; echo "$p,$l,${s//x/,}" >> $L/one.csv
  timeout 60 ncu --cache-control none --clock-control none --metrics $M --csv python3 benches/torch/gemm_sweep.py $L/one.csv --profile 3 > $L/ncu/torch-$p-$l-$s.csv 2> $L/ncu/torch-$p-$l-$s.err
done
el "ncu done"
python3 - $L/ncu <<'PY' > $L/ncu-summary.txt
import csv, glob, io, os, sys, collections
for f in sorted(glob.glob(sys.argv[1] + '/*.csv')):
    txt = open(f).read()
    i = txt.find('"ID"')
    if i < 0: print(os.path.basename(f), 'no data'); continue
    k = collections.OrderedDict()
    for r in csv.DictReader(io.StringIO(txt[i:])):
        k.setdefault((r['ID'], r['Kernel Name'][:50]), {})[r['Metric Name']] = r['Metric Value'].replace(',', '')
    print('==', os.path.basename(f)[:-4])
    for (i, name), d in list(k.items())[-3:]:
        st = sorted(((float(v), m.split('stalled_')[1].split('_per')[0]) for m, v in d.items() if 'stalled' in m and v not in ('', 'n/a')), reverse=True)[:6]
        print('  %3s %-50s %7s ns cyc %s inst %s grid %s blk %s regs %s smem %s | %s' % (i, name, d.get('gpu__time_duration.sum'), d.get('sm__cycles_elapsed.max'), d.get('smsp__inst_executed.sum'), d.get('launch__grid_size'), d.get('launch__block_size'), d.get('launch__registers_per_thread'), d.get('launch__shared_mem_per_block_dynamic'), ' '.join('%s %.1f' % (n, v) for v, n in st)))
PY
cat $L/ncu-summary.txt
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for c in $CASES; do
  IFS=: read p l s <<< "$c"
  timeout 60 $B/gemm_plans --precisions $p --layouts $l --shapes $s --plans Auto >> $L/ours.csv 2>> $L/ours-err.log
done
el "ours done"
paste -d' ' <(grep -v '^#' $L/torch.csv) <(grep -v '^precision' $L/ours.csv | cut -d, -f8) | column -t
tar czf $OUT/logs.tgz -C /tmp logs

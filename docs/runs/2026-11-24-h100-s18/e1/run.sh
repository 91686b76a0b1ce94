#!/usr/bin/env bash
# Session 18, call e1 (HEAD 361325d): where the small products' time goes. Per case, the
# kernels `Auto` launches (Nsight Compute: time, grid, block, registers; the check launch and
# one profiled launch) in f32, tf32 and bf16, then every plan of `gemm_plans` timed. The
# cases: the random groups' products of 1-100 MFLOP that ran below 0.72 of cuBLAS in s17/v2,
# with aligned twins (800x344x9 beside 797x346x9).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e1s18.txz -C /tmp/b && B=/tmp/b/e1s18
L=/tmp/logs; rm -rf $L; mkdir -p $L/ncu
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
CASES="nn:797x346x9 nn:800x344x9 nn:256x1024x10 tt:6308x37x20 tt:6308x40x20 tt:488x466x1 nn:406x475x2 tn:188x2323x3 nn:4670x94x6 nt:150x3193x4 tt:5931x61x2
tt:108x1111x57 tn:118x1233x48 nt:1652x264x31 nt:90x20x4601 tt:473x206x114 nn:69x2919x164 nt:63x462x772 nt:18x200x254 nt:158x24x134 tn:40x3827x262
nn:569x432x53 nn:537x3707x37 nt:87x252x1978 tn:64x196x4932 nt:4057x18x221 tn:2447x29x1049 tt:27x188x3242 tn:32x271x669 tt:189x16x832 nt:61x70x267
tt:441x43x287 nn:344x122x4676 nn:64x64x16384 tn:128x128x128 tn:256x256x256 tn:1024x784x64 tn:4096x784x32"
for c in $CASES; do
  l=${c%%:*}; s=${c#*:}
  timeout 60 ncu --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread --csv \
    $B/gemm_plans --precisions f32,tf32,bf16 --layouts $l --shapes $s --plans Auto --profile 1 > $L/ncu/$l-$s.csv 2> $L/ncu/$l-$s.err
done
el "ncu done"
python3 - $L/ncu <<'PY' > $L/ncu-summary.txt
import csv, glob, io, os, sys, collections
for f in sorted(glob.glob(sys.argv[1] + '/*.csv')):
    txt = open(f).read()
    i = txt.find('"ID"')
    if i < 0: print(os.path.basename(f), 'no data'); continue
    rows = list(csv.DictReader(io.StringIO(txt[i:])))
    k = collections.OrderedDict()
    for r in rows:
        key = (r['ID'], r['Kernel Name'][:60])
        k.setdefault(key, {})[r['Metric Name']] = r['Metric Value']
    print('==', os.path.basename(f)[:-4])
    for (i, name), d in k.items():
        print('  %3s %-60s %8s ns grid %s block %s regs %s' % (i, name, d.get('gpu__time_duration.sum'), d.get('launch__grid_size'), d.get('launch__block_size'), d.get('launch__registers_per_thread')))
PY
el "summary $(wc -l < $L/ncu-summary.txt) lines"
for c in $CASES; do
  l=${c%%:*}; s=${c#*:}
  timeout 100 $B/gemm_plans --precisions f32,tf32,bf16 --layouts $l --shapes $s >> $L/plans.csv 2>> $L/plans-err.log
done
el "plans $(wc -l < $L/plans.csv) rows, $(grep -c mismatch $L/plans.csv) mismatches"
python3 - $L/plans.csv <<'PY' > $L/plans-summary.txt
import csv,sys,collections
by=collections.defaultdict(dict)
for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('precision,') or True):
    if r.get('ms') and r['precision'] != 'precision': by[(r['precision'],r['layout'],r['m'],r['n'],r['k'])][(r['plan'],int(r['splits']))]=float(r['ms'])*1e3
for key,d in by.items():
    best={}
    for (p,s),t in d.items():
        if p not in best or t<best[p][1]: best[p]=(s,t)
    print(' '.join(key), '  '.join('%s/%d %.1f'%(p,s,t) for p,(s,t) in sorted(best.items(),key=lambda x:x[1][1])[:8]), '| Auto %.1f' % d.get(('Auto',0), float('nan')))
PY
cat $L/plans-summary.txt
tar czf $OUT/logs.tgz -C /tmp logs

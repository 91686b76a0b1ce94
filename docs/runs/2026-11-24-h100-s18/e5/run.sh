#!/usr/bin/env bash
# Session 18, call e5 (working tree after 361325d: the tile stores interleave four floats per
# thread where C's rows break 16-byte alignment; the short-k kernel stores through the
# shared-memory tile). Every op test; memcheck on the short-k tests; e3's plans again with
# the new kernels (f32, tf32, bf16); the random groups of four seeds with the new kernels and
# with 361325d's (old), against one PyTorch run per seed.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e5s18.txz -C /tmp/b && B=/tmp/b/e5s18
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 150 $B/ops > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=|FAILED|panicked' $L/ops.log | head -5 | tr '\n' ' ')"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 90 $CS --tool memcheck $B/ops ShortK > $L/memcheck-shortk.log 2>&1; el "memcheck shortk rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-shortk.log | tr "\n" " ")"
SH=800x344x9,800x346x9,256x1024x10,256x1026x10,256x344x10,800x1024x10,6308x37x20,6308x40x20,488x466x1,488x468x1,1024x1024x10,797x346x9,4670x94x6,150x3193x4,188x2323x3,108x1111x57,118x1233x48
for l in nn nt tn tt; do
  timeout 100 $B/gemm_plans --precisions f32,tf32,bf16 --layouts $l --shapes $SH --plans Auto,ShortK,Tile32x64,Tile64x32,SmemTiled,MmaTile64,Tf32Wgmma64x64,Wgmma64x64 >> $L/plans.csv 2>> $L/plans-err.log
done
el "plans $(grep -c mismatch $L/plans.csv) mismatches"
python3 - $L/plans.csv <<'PY' > $L/plans-summary.txt
import csv,sys,collections
by=collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    if r['precision']!='precision' and r['ms']: by[(r['precision'],r['layout'],r['m'],r['n'],r['k'])]['%s/%s'%(r['plan'],r['splits'])]=float(r['ms'])*1e3
for key,d in by.items():
    print('%-26s'%' '.join(key), '  '.join('%s %.2f'%(p,t) for p,t in sorted(d.items(),key=lambda x:x[1])))
PY
for s in 589266001 20261124 20261125 20261126; do
  $B/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  for v in old new; do
    bin=$B/gemm_sweep; [ $v = old ] && bin=$B/gemm_sweep_old
    timeout 40 $bin --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$v-$s.csv > $L/sweep-$v-$s.log 2>&1; el "sweep $v $s rc=$? $(grep -E '^(f32|tf32|bf16) ' $L/sweep-$v-$s.log | tr -s ' ' | tr '\n' ' ' | cut -c1-300)"
  done
done
O=$(ls $L/sweep-old-*.csv | tr '\n' ','); N=$(ls $L/sweep-new-*.csv | tr '\n' ',')
python3 - $L <<'PY'
import csv,glob,sys,math
L=sys.argv[1]
for prec in ['f32','tf32','bf16']:
    out={}
    for v in ['old','new']:
        rs=[]; below=0
        for f in sorted(glob.glob(L+'/sweep-%s-*.csv'%v)):
            for r in csv.DictReader(open(f)):
                if r['precision']!=prec: continue
                t,o=float(r['torch_ms']),float(r['ours_ms']); rs.append(math.log(t/o)); below+= r['launch_bound']=='false' and t/o<0.7
        out[v]=(math.exp(sum(rs)/len(rs)),below,len(rs))
    print(prec, 'old gm %.3f below %d | new gm %.3f below %d (of %d)'%(out['old'][0],out['old'][1],out['new'][0],out['new'][1],out['new'][2]))
PY
for s in 589266001 20261124 20261125 20261126; do python3 docs/runs/2026-11-24-h100-s17/compare.py $L/sweep-old-$s.csv $L/sweep-new-$s.csv; done > $L/compare.txt
cat $L/compare.txt | grep -v geomean | sort -t' ' -k1,1 | head -80
tar czf $OUT/logs.tgz -C /tmp logs

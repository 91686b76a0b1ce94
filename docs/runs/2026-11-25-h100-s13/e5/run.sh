#!/usr/bin/env bash
# Session 13, call e5 (experiment-only builds, not in the repository): every TMA copy of the
# wgmma kernels with an L2 eviction priority (createpolicy evict_last / evict_first, .L2::cache_hint)
# against none, on few-row BF16/TF32 products whose large operand fits in L2 and on larger ones;
# Auto's plan, graph-timed, alternated twice.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e5s13.txz -C /tmp/b && B=/tmp/b/e5s13
L=/tmp/logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
SH=16x4096x4096,32x4096x4096,64x4096x4096,32x1024x16384,1024x32x16384,4096x16x4096,64x1024x1024,1024x4096x4096,4096x4096x4096,3000x3000x3000,1536x1536x1536,4096x784x4096
for round in 1 2; do for v in base last first; do
  timeout 120 $B/gemm_plans-$v --precisions bf16,tf32 --layouts nt,nn --shapes $SH --plans Auto,Tf32Auto > $L/plans-$v-$round.csv 2> $L/plans-$v-$round.err; echo "$v round $round rc=$?"
done; done
python3 - $L <<'PY'
import csv,sys,glob,collections
d=collections.defaultdict(dict)
for f in sorted(glob.glob(sys.argv[1]+'/plans-*.csv')):
    v=f.split('plans-')[1].rsplit('-',1)[0]
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        if r['ms']:
            k=(r['precision'],r['layout'],r['m'],r['n'],r['k'])
            d[k].setdefault(v,[]).append(float(r['ms'])*1e3)
for k,vs in d.items():
    print(k, ' '.join('%s %s' % (v, '/'.join('%.1f'%x for x in vs[v])) for v in ('base','last','first') if v in vs))
PY
tar czf $OUT/logs.tgz -C /tmp logs

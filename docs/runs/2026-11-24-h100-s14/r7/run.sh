#!/usr/bin/env bash
# Session 14, call r7 (review refactor: the producer's per-operand box choice and copies in one
# helper, edge tensor maps encoded only where they differ from the main ones, one tile-space
# helper for the swapped kernel): the BF16, TF32 and Auto ops tests, memcheck on the wgmma
# split tests, and Auto timed against r4's build (e8's binaries), alternated, on products that
# run on the 128-row tiles whose PTX changed.
set -u
mkdir -p /tmp/b && tar xJf .gpu/e8s14.txz -C /tmp/b && tar xJf .gpu/r7s14.txz -C /tmp/b
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for f in gemm_bf16 Tf32 Auto; do timeout 100 /tmp/b/r7s14/ops-test "$f" > $L/tests-$f.log 2>&1; el "ops $f rc=$? $(grep '^test result' $L/tests-$f.log)"; grep -E "FAILED|panicked" $L/tests-$f.log | head -5; done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 100 $CS --tool memcheck /tmp/b/r7s14/ops-test "split::ta1" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
SH=4096x4096x4096,3000x3000x3000,4096x784x4096,2000x2000x2000,1536x1536x1536,5000x5000x5000,2048x784x1024,1024x1024x1024
for i in 1 2; do
  /tmp/b/e8s14/gemm_plans --precisions tf32,bf16 --layouts nt,nn --shapes $SH --plans Auto > $L/old-$i.csv 2>> $L/err.log
  /tmp/b/r7s14/gemm_plans --precisions tf32,bf16 --layouts nt,nn --shapes $SH --plans Auto > $L/new-$i.csv 2>> $L/err.log
done
python3 - $L <<'PY'
import csv,sys,math
L=sys.argv[1]
def load(f): return {(r['precision'],r['layout'],r['m'],r['n'],r['k']): float(r['ms'])*1e3 for r in csv.DictReader(l for l in open(f) if not l.startswith('#')) if r['ms']}
o1,o2,n1,n2=[load(f'{L}/{x}.csv') for x in ['old-1','old-2','new-1','new-2']]
rs=[]
for k in o1:
    o=min(o1[k],o2[k]); n=min(n1.get(k,1e9),n2.get(k,1e9)); rs.append(n/o)
    print('%s %s %sx%sx%s Auto old %.1f new %.1f (%.3f)' % (k[0],k[1],k[2],k[3],k[4],o,n,n/o))
print('geomean new/old %.4f over %d' % (math.exp(sum(map(math.log,rs))/len(rs)), len(rs)))
PY
tar czf $OUT/logs.tgz -C /tmp logs

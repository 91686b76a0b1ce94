#!/usr/bin/env bash
# Session 19, call e4 (working tree after 36d27f1: the wgmma kernels store a plain unsplit
# tile, or the last split's sum, by bulk copies of its staged rows): every op test, memcheck on
# the BF16 and TF32 wgmma tests, then the full sweep with this build (new) and 36d27f1's
# kernels (old: the r4s18 bundle, same code) against one PyTorch run, twice, alternating.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e4s19.txz -C /tmp/b && tar xJf .gpu/r4sw.txz -C /tmp/b
B=/tmp/b/e4s19; O=/tmp/b/r4s18
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 150 $B/tests/ops-test > $L/ops.log 2>&1; echo "rc=$?" >> $L/ops.log); el "ops: $(grep -E '^test result|rc=' $L/ops.log | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/ops.log | head -10
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for f in "gemm_bf16::Wgmma::" "gemm::Tf32Wgmma::"; do
  timeout 100 $CS --tool memcheck $B/tests/ops-test "$f" > $L/memcheck-${f//:/_}.log 2>&1; el "memcheck $f rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-${f//:/_}.log | tr "\n" " ")"
done
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for rep in 1 2; do
  for v in new old; do
    bin=$B/benches/gemm_sweep; [ $v = old ] && bin=$O/benches/gemm_sweep
    timeout 130 $bin --seed 589266001 --torch $L/torch.csv --csv $L/sweep-$v-$rep.csv > $L/sweep-$v-$rep.log 2>&1; el "sweep $v $rep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all|^RESULT" $L/sweep-$v-$rep.log
  done
done
python3 - $L <<'PY' | tee $L/compare.txt
import csv,sys,math,collections
L=sys.argv[1]
def load(v):
    best={}
    for rep in (1,2):
        for r in csv.DictReader(open(f'{L}/sweep-{v}-{rep}.csv')):
            k=(r['precision'],r['layout'],r['m'],r['n'],r['k'],r['group'])
            t=float(r['ours_ms']); best[k]=min(best.get(k,t),t)
            best[k+('torch',)]=float(r['torch_ms'])
    return best
o,n=load('old'),load('new')
for prec in ('f32','tf32','bf16'):
    keys=[k for k in o if len(k)==6 and k[0]==prec and k in n]
    lr=[math.log(n[k]/o[k]) for k in keys]
    ro=[math.log(o[k+('torch',)]/o[k]) for k in keys]; rn=[math.log(n[k+('torch',)]/n[k]) for k in keys]
    below=lambda d:sum(1 for k in keys if d[k+('torch',)]/d[k]<0.70)
    print(prec,'time new/old geomean %.4f'%math.exp(sum(lr)/len(lr)),'ratio old %.3f new %.3f'%(math.exp(sum(ro)/len(ro)),math.exp(sum(rn)/len(rn))),'below 0.70 old %d new %d'%(below(o),below(n)))
    ch=sorted(keys,key=lambda k:n[k]/o[k])
    for k in ch[:6]+ch[-6:]:
        print('   ',' '.join(k),'old %.1f new %.1f us  %.3f'%(o[k]*1e3,n[k]*1e3,n[k]/o[k]))
PY
tar czf $OUT/logs.tgz -C /tmp logs

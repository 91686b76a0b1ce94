#!/usr/bin/env bash
# Session 15, call r3 (the review refactor: the split and transposing producers land their boxes
# through OperandBoxes and share the box/chunk address helpers; one shared-memory formula; the
# host maps TF32 operands in one helper). Every test binary, memcheck on the wgmma split tests,
# the split form against r2's build (e10's gemm_plans, packed beside it as gemm_plans_old; same kernels and plans) alternated on 10
# products in three layouts, and the FP32 MLP step against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r3s15.txz -C /tmp/b && B=/tmp/b/r3s15
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 250 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 60 $CS --tool memcheck $B/tests/ops-test "split::ta1" > $L/memcheck.log 2>&1; el "memcheck rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck.log | tr "\n" " ")"
timeout 60 $CS --tool memcheck $B/tests/ops-test "Tf32x3Split::split" > $L/memcheck-split.log 2>&1; el "memcheck split rc=$? $(grep -E "ERROR SUMMARY|^test result" $L/memcheck-split.log | tr "\n" " ")"
SH=256x1024x1024,256x784x1024,1024x1024x256,512x512x512,1024x1024x1024,4096x1024x1024,2048x2048x2048,4096x4096x4096,64x64x4096,1024x784x4096
for i in 1 2; do
  timeout 60 $B/benches/gemm_plans_old --precisions f32 --layouts nn,nt,tn --shapes $SH --plans Tf32x3Split > $L/old-$i.csv 2>> $L/plans.err
  timeout 60 $B/benches/gemm_plans --precisions f32 --layouts nn,nt,tn --shapes $SH --plans Tf32x3Split > $L/new-$i.csv 2>> $L/plans.err
done; el plans
python3 - $L <<'PY'
import csv,sys,math
L=sys.argv[1]
def load(f):
    d={}
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        if r['ms']: d[(r['layout'],r['m'],r['n'],r['k'],r['splits'])]=float(r['ms'])*1e3
    return d
o1,o2,n1,n2=[load(f'{L}/{x}.csv') for x in ['old-1','old-2','new-1','new-2']]
rs=[]
for k in o1:
    if k not in n1: continue
    o=min(o1[k],o2.get(k,1e9)); n=min(n1[k],n2.get(k,1e9)); rs.append(n/o)
print('split form, new/old time: geomean %.4f over %d plans, min %.3f max %.3f'%(math.exp(sum(map(math.log,rs))/len(rs)),len(rs),min(rs),max(rs)))
PY
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 40 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -12; grep "graph\|infer," $L/mlp-torch.txt
tar czf $OUT/logs.tgz -C /tmp logs

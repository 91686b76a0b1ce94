#!/usr/bin/env bash
# Session 16, call e7: FP32 Auto with the 32-wide CUDA-core tiles among the candidates on
# products of at most 2^26 FLOPs, and the shared-memory tiles only to k = 64 (from 128), against
# HEAD 1138d53: FP32 and TF32 Auto tests; the FP32 sweep run by both builds
# alternately, twice, against one PyTorch run; the README's main job (--example mlp, digits),
# old and new, twice each.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/e7s16.txz -C /tmp/b && B=/tmp/b/e7s16
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
timeout 150 $B/ops-test "gemm::Auto" > $L/tests-auto.log 2>&1; el "tests gemm::Auto rc=$? $(grep -E '^test result' $L/tests-auto.log)"
timeout 150 $B/ops-test "gemm::Tile32x64" > $L/tests-t32.log 2>&1; el "tests Tile32x64 rc=$? $(grep -E '^test result' $L/tests-t32.log)"
$B/gemm_sweep --list --precisions f32 --seed 589266001 > $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for i in 1 2; do
  for v in old new; do
    bin=$B/gemm_sweep; [ $v = old ] && bin=$B/gemm_sweep_old
    timeout 100 $bin --precisions f32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-$v-$i.csv > $L/sweep-$v-$i.log 2>&1; el "sweep $v $i rc=$? $(grep -E '^f32 all' $L/sweep-$v-$i.log)"
  done
done
python3 - $L <<'PY'
import csv,sys,math
L=sys.argv[1]
def load(f):
    return {(r['layout'],r['m'],r['n'],r['k']):(float(r['ours_ms']),float(r['torch_ms']),r['group'],r['launch_bound']) for r in csv.DictReader(open(f))}
o=[load(f'{L}/sweep-old-{i}.csv') for i in (1,2)]; n=[load(f'{L}/sweep-new-{i}.csv') for i in (1,2)]
rs=[];below={'old':0,'new':0};gm={'old':[],'new':[]}
for k in o[0]:
    to=min(o[0][k][0],o[1][k][0]); tn=min(n[0][k][0],n[1][k][0]); t=o[0][k][1]
    rs.append(tn/to)
    for v,x in (('old',to),('new',tn)):
        gm[v].append(math.log(t/x))
        if o[0][k][3]=='false' and t/x<0.7: below[v]+=1
    if abs(tn/to-1)>0.05: print('%s %s %sx%sx%s old %.1f new %.1f torch %.1f'%(o[0][k][2],k[0],k[1],k[2],k[3],to*1e3,tn*1e3,t*1e3))
print('new/old time geomean %.4f over %d; ratio geomean old %.3f new %.3f; below 0.70 old %d new %d'%(math.exp(sum(map(math.log,rs))/len(rs)),len(rs),math.exp(sum(gm['old'])/len(rs)),math.exp(sum(gm['new'])/len(rs)),below['old'],below['new']))
PY
for i in 1 2; do
  for v in old new; do
    bin=$B/mlp; [ $v = old ] && bin=$B/mlp_old
    (timeout 120 $bin > $L/mlp-$v-$i.log 2>&1; echo "rc=$?" >> $L/mlp-$v-$i.log); el "mlp $v $i: $(grep -E 'test accuracy|time per epoch' $L/mlp-$v-$i.log | tr '\n' ' ' | cut -c1-160)"
  done
done
tar czf $OUT/logs.tgz -C /tmp logs

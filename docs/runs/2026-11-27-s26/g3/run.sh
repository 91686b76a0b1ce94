#!/usr/bin/env bash
# Session 26, call g3 (bundle g3: the mma.sync tiles copy 2-byte operands with 8- or 4-byte
# cp.async where rows allow, the short-k kernels run 16-row blocks on grids short of a wave):
# op and nn tests; every plan of both builds (f4 = before) on the BF16 products they touch; every
# plan of the new build on the other products below 0.70 in g1; the sweep and g1's four seeds.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in g3 f4; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/g3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do timeout 240 $B/$t > $L/test-$t.log 2>&1; echo "rc=$?" >> $L/test-$t.log; el "$t: $(grep -E '^test result' $L/test-$t.log | tail -1) $(tail -1 $L/test-$t.log)"; done
grep -E "FAILED|panicked|failed:" $L/test-*.log | head -20
ab() { for v in g3 f4; do X=$B/gemm_plans; [ $v = f4 ] && X=/tmp/b/f4/gemm_plans; $X --precisions $1 --layouts $2 --shapes $3 > $L/ab-$v-$1-$2.csv 2>>$L/plans-err.log; done; }
ab bf16 nt 18x6130x5316,33x1692x6780,145x690x202,205x447x9,282x1154x4,58x3636x55
ab bf16 nn 797x346x9,2653x33x8115,11x5358x87,9x3275x65,1914x18x77,3922x30x1481
ab bf16 tt 6308x37x20,87x3243x10,668x8x366,134x6482x13
ab bf16 tn 566x339x10,818x84x199,592x88x49,2941x1x895
el "bf16 A/B done"
P() { $B/gemm_plans --precisions $1 --layouts $2 --shapes $3 >> $L/plans-new.csv 2>>$L/plans-err.log; }
P f32,tf32 tt 118x33x2544,3250x70x7693,3550x27x120,52x1627x154
P f32,tf32 tn 2941x1x895,218x51x2859,24x238x4476
P f32,tf32 nt 1x929x583,145x690x202
P tf32 nn 2653x33x8115,229x129x894,3922x30x1481
P tf32 tt 224x1226x3713
el "plans done"
python3 - > $L/cases-diag.csv <<'PY'
import csv, glob
print("precision,layout,m,n,k,group")
seen = set()
for f in sorted(glob.glob("/tmp/logs/ab-g3-*.csv")) + ["/tmp/logs/plans-new.csv"]:
    for r in csv.DictReader(open(f)):
        key = (r["precision"], r["layout"], r["m"], r["n"], r["k"])
        if r.get("plan") == "Auto" and key not in seen:
            seen.add(key); print(",".join(key) + ",diag")
PY
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases-diag.csv > $L/torch-diag.csv 2> $L/torch-diag-err.log; el "torch diag rc=$?"
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
for s in 26112701 26112702 26112703 26112704; do
  $B/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 60 $B/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
done
for t in ops nn; do xz -9 $L/test-$t.log; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

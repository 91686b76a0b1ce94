#!/usr/bin/env bash
# Session 27, call h6 (bundle h6 = h5 with Tf32Wgmma64x64's model refitted: eff 0.67 -> 0.50,
# fixed 624 -> 320 k-steps): op and nn tests; Auto of h6 and h5 alternated on the TF32
# products whose pick changed (sweep and session 26's seeds) and on h1/h4's products where the
# 64x64 tile was picked or best (cases.csv), beside PyTorch; the sweep beside PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in h6 h5; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/h6
L=/tmp/logs; rm -rf $L; mkdir -p $L
D=docs/runs/2026-11-28-s27/h6
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do timeout 200 $B/$t > $L/test-$t.log 2>&1; echo "rc=$?" >> $L/test-$t.log; el "$t: $(grep -E '^test result' $L/test-$t.log | tail -1) $(tail -1 $L/test-$t.log)"; done
grep -E "FAILED|panicked|failed:" $L/test-*.log | head -20
(echo "# s27 h6"; echo "precision,layout,m,n,k,group"; sed 's/$/,ab/' $D/cases.csv) > $L/ab-cases.csv
timeout 60 python3 benches/torch/gemm_sweep.py $L/ab-cases.csv > $L/ab-torch.csv 2> $L/ab-torch-err.log; el "ab torch rc=$?"
for r in 1 2; do for v in h6 h5; do
  X=/tmp/b/$v/gemm_plans; [ -x $X ] || X=/tmp/b/$v/benches/gemm_plans
  while IFS=, read p l m n k; do
    $X --precisions $p --layouts $l --shapes ${m}x${n}x${k} --plans Auto 2>/dev/null | grep -v '^precision' >> $L/auto-$v-$r.csv
  done < $D/cases.csv
done; done; el "A/B done"
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
for t in ops nn; do xz -9 $L/test-$t.log; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

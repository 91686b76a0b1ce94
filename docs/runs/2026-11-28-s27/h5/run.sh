#!/usr/bin/env bash
# Session 27, call h5 (bundle h5 = the final commit: h2's rules plus the short-k kernel up to
# k = 12 wherever it runs on 16-row blocks (FP32, TF32), and equal model costs going to the
# plan that computes fewer outputs): every test binary; Auto of h5 and h2 alternated on the
# products whose pick changed (sweep and session 26's six seeds, changed.csv); the sweep
# beside PyTorch; the MLP step.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in h5 h2; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/h5
L=/tmp/logs; rm -rf $L; mkdir -p $L
D=docs/runs/2026-11-28-s27/h5
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
for r in 1 2; do for v in h5 h2; do
  X=/tmp/b/$v/gemm_plans; [ -x $X ] || X=/tmp/b/$v/benches/gemm_plans
  for pl in $(cut -d, -f1,2 $D/changed.csv | sort -u); do
    p=${pl%,*}; l=${pl#*,}
    S=$(grep "^$pl," $D/changed.csv | awk -F, '{printf "%s%sx%sx%s", (NR>1?",":""), $3, $4, $5}')
    $X --precisions $p --layouts $l --shapes $S --plans Auto 2>/dev/null | grep -v '^precision' >> $L/auto-$v-$r.csv
  done
done; done; el "A/B done"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 90 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(cd $L && tar czf $OUT/logs.tgz .)
el done

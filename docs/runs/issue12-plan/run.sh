#!/usr/bin/env bash
# Issue 12 (mixed precision) on one GPU, in one call (about 5-6 minutes on an H100): every test
# binary (the new tests/nn/precision.rs included), the digits accuracy over 5 seeds per precision,
# the MNIST-shaped loss curves of the three precisions (CSV and PNG), and the training-step and
# inference timings against PyTorch (tf32: allow_tf32; bf16: autocast; CUDA graphs on both sides).
#
# Here (the build machine):
#   scripts/gpu-bundle .gpu/b12 && tar czf .gpu/b12.tgz -C .gpu b12
# Then on the GPU machine, from the repository root, with .gpu/b12.tgz carried along:
#   bash docs/runs/issue12-plan/run.sh
# Everything lands in $OUT (logs.tgz, loss.csv, loss.png, accuracy.csv, amp-*.csv).
set -u
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/issue12-out}; mkdir -p "$OUT"
mkdir -p /tmp/b && tar xzf .gpu/b12.tgz -C /tmp/b && B=/tmp/b/b12
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
git log --oneline -1 2>/dev/null | tee $L/commit.txt

# 1. Tests (every binary; the precision tests print their worst gradient errors with --nocapture).
(cd $B/.. && ./b12/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(tail -1 $L/run-tests.log)"
grep -E "^(== |test result)" $L/run-tests.log | paste - - | awk '{print $2, $4, $5, $6, $7, $8, $9, $10, $11}'
grep -E "FAILED|panicked|failed" $L/run-tests.log | head -12
nn=$(ls $B/tests | grep '^nn-'); timeout 120 $B/tests/$nn precision --nocapture > $L/precision-tests.log 2>&1; el "precision tests rc=$?"
grep -E "gradient check|vs f32 after|^test |test result" $L/precision-tests.log | head -24

# 2. Accuracy on digits, 5 seeds per precision.
timeout 200 bash docs/runs/issue12-plan/accuracy.sh $B/examples/mlp $L/accuracy > $L/accuracy.log 2>&1; el "accuracy rc=$?"
cat $L/accuracy.log; cp $L/accuracy/accuracy.csv $OUT/ 2>/dev/null

# 3. MNIST-shaped loss curves: 60000 learnable synthetic rows of 784 features, 784-1024-1024-10,
#    batch 256, SGD 0.05 with momentum 0.9, 3 epochs, the running loss every 10 steps.
rm -f $L/loss.csv
for p in f32 tf32 bf16; do
  timeout 90 $B/examples/mlp --synthetic 60000 --learnable --hidden 1024,1024 --batch 256 --epochs 3 --log-every 10 \
    --precision $p --seed 7 --loss-csv $L/loss.csv > $L/loss-$p.log 2>&1; el "loss curve $p rc=$?"; tail -2 $L/loss-$p.log
done
$B/bin/loss_plot $L/loss.csv $L/loss.png "784-1024-1024-10, synthetic MNIST-shaped data, batch 256: loss by precision" 2>&1 | tail -4
cp $L/loss.csv $L/loss.png $OUT/ 2>/dev/null

# 4. Speed: ours and PyTorch's, then the ratios.
MLP_BENCH=amp timeout 200 $B/benches/mlp --bench > $L/amp-ours.csv 2> $L/amp-ours.err; el "our amp bench rc=$?"; tail -3 $L/amp-ours.err
timeout 200 python3 benches/torch/mlp_amp.py > $L/amp-torch.csv 2> $L/amp-torch.err; el "torch amp rc=$?"; tail -3 $L/amp-torch.err
python3 benches/torch/mlp_amp.py --ours $L/amp-ours.csv --theirs $L/amp-torch.csv | tee $L/amp-compare.txt
cp $L/amp-ours.csv $L/amp-torch.csv $L/amp-compare.txt $OUT/ 2>/dev/null
tar czf $OUT/logs.tgz -C /tmp logs
el "done"

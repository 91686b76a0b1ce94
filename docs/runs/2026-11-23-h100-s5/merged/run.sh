#!/usr/bin/env bash
# Session 5, call 5: the merged tree (issue 12's mixed precision + this session's GEMM rules):
# every test binary, the precision tests' error output, the FP32 MLP step against PyTorch's
# graph, the mixed-precision speed against PyTorch (tf32 / bf16 autocast, graphs), the loss
# curves of the three precisions, the digits accuracy over 5 seeds, and (if time is left) the
# FP32 sweep. Steps ordered by what must be known; each has a time limit.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/r5.txz -C /tmp/b && B=/tmp/b/b1
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
left() { echo $(( ${BUDGET:-500} - ($(date +%s) - T0) )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(cd $B/.. && ./b1/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(tail -1 $L/run-tests.log)"; grep -E "^(== |test result)" $L/run-tests.log | paste - - | awk '{print $2, $4, $5, $6, $7, $8, $9, $10, $11}' | grep -v " 0 passed; 0 failed; 0 ignored"; grep -E "FAILED|panicked|^---- " $L/run-tests.log | head -12
timeout 60 $B/tests/nn-test precision --nocapture > $L/precision-tests.log 2>&1; el "precision tests rc=$?"; grep -E "gradient check|vs f32|test result" $L/precision-tests.log | head -12
timeout 40 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 60 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph" $L/mlp-torch.txt
MLP_BENCH=amp timeout 100 $B/benches/mlp --bench > $L/amp-ours.csv 2> $L/amp-ours.err; el "our amp bench rc=$?"; tail -2 $L/amp-ours.err
timeout 100 python3 benches/torch/mlp_amp.py > $L/amp-torch.csv 2> $L/amp-torch.err; el "torch amp rc=$?"; tail -2 $L/amp-torch.err
python3 benches/torch/mlp_amp.py --ours $L/amp-ours.csv --theirs $L/amp-torch.csv > $L/amp-compare.txt 2>&1; cat $L/amp-compare.txt
rm -f $L/loss.csv
for p in f32 tf32 bf16; do
  timeout 40 $B/examples/mlp --synthetic 60000 --learnable --hidden 1024,1024 --batch 256 --epochs 3 --log-every 10 \
    --precision $p --seed 7 --loss-csv $L/loss.csv > $L/loss-$p.log 2>&1; el "loss curve $p rc=$?"; tail -1 $L/loss-$p.log
done
$B/bin/loss_plot $L/loss.csv $L/loss.png "784-1024-1024-10, synthetic MNIST-shaped data, batch 256: loss by precision" > $L/loss-plot.log 2>&1; el "loss_plot rc=$?"
timeout $(( $(left) > 20 ? $(left) - 10 : 5 )) bash docs/runs/issue12-plan/accuracy.sh $B/examples/mlp $L/accuracy > $L/accuracy.log 2>&1; el "accuracy rc=$?"; cat $L/accuracy.log | tail -4
if [ $(left) -gt 90 ]; then
  $B/benches/gemm_sweep --list --seed 589266001 --precisions f32 > $L/cases.csv
  timeout 40 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
  timeout $(( $(left) - 5 )) $B/benches/gemm_sweep --precisions f32 --seed 589266001 --torch $L/torch.csv --csv $L/sweep-f32.csv > $L/sweep-f32.log 2>&1; el "sweep f32 rc=$?"; tail -4 $L/sweep-f32.log | grep -v "^  "
fi
tar czf $OUT/logs.tgz -C /tmp logs

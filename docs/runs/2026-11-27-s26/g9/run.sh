#!/usr/bin/env bash
# Session 26, call g9 (bundle g9 = the final commit: the 8-byte copy path sharing the 16-byte
# one's bounds and source (the separate path spilled 64 bytes in the 64×64 mma.sync tile on
# sm_90), and the BF16 padding pass at half the TF32 staging cost where the mma.sync tiles would
# load elements): op and nn tests; Auto of g9 and g7 alternated on g8's products beside PyTorch;
# the sweep, the six seeds of g6, the MLP step.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in g9 g7; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/g9
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do timeout 240 $B/$t > $L/test-$t.log 2>&1; echo "rc=$?" >> $L/test-$t.log; el "$t: $(grep -E '^test result' $L/test-$t.log | tail -1) $(tail -1 $L/test-$t.log)"; done
grep -E "FAILED|panicked|failed:" $L/test-*.log | head -20
NN=3166x26x3258,3578x21x1612,30x5806x1665,63x2753x1201,50x1315x5296,3112x63x1935,51x4001x3980,5272x63x979,7266x39x586,5738x34x1810,2653x33x8115,19x3409x6261,3922x30x1481
NT=19x5976x4305,44x1272x8045,18x6130x5316,33x1692x6780,3166x26x3258,51x4001x3980
TN=20x1927x3502,27x2010x3084,7266x39x586,30x5806x1665
for r in 1 2; do for v in g9 g7; do X=/tmp/b/$v/gemm_plans
  $X --precisions bf16 --layouts nn --shapes $NN --plans Auto > $L/auto-$v-$r.csv 2>>$L/err.log
  $X --precisions bf16 --layouts nt --shapes $NT --plans Auto >> $L/auto-$v-$r.csv 2>>$L/err.log
  $X --precisions bf16 --layouts tn --shapes $TN --plans Auto >> $L/auto-$v-$r.csv 2>>$L/err.log
done; done; el "A/B done"
$B/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
for s in 26112701 26112702 26112703 26112704 26112705 26112706; do
  $B/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 60 $B/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
done
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 90 $B/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
for t in ops nn; do xz -9 $L/test-$t.log; done
(cd $L && tar czf $OUT/logs.tgz .)
el done

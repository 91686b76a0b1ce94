#!/usr/bin/env bash
# Session 26, call g5 (bundle g5: g3 with 16-row short-k blocks only under half a wave of
# 64-row ones, and the mma.sync tiles' narrow copies 8-byte only): op and nn tests; ShortK and
# the 64×64 mma.sync tile of g5, g3 and f4 (session 25) alternated; the sweep, g1's four seeds
# and two new ones; the MLP step against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in g5 g3 f4; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/g5
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
for t in ops nn; do timeout 240 $B/$t > $L/test-$t.log 2>&1; echo "rc=$?" >> $L/test-$t.log; el "$t: $(grep -E '^test result' $L/test-$t.log | tail -1) $(tail -1 $L/test-$t.log)"; done
grep -E "FAILED|panicked|failed:" $L/test-*.log | head -20
for r in 1 2; do for v in g5 g3 f4; do X=/tmp/b/$v/gemm_plans
  $X --precisions f32,bf16 --layouts tn --shapes 1024x1024x32,1024x784x32,566x339x10,2941x1x895 --plans Auto,ShortK > $L/sk-$v-$r.csv 2>>$L/err.log
  $X --precisions f32,bf16 --layouts nn --shapes 797x346x9,1024x1024x10,128x4096x10,4670x94x6 --plans Auto,ShortK >> $L/sk-$v-$r.csv 2>>$L/err.log
  $X --precisions f32,bf16 --layouts tt --shapes 6308x37x20,87x3243x10,134x6482x13,326x6x8 --plans Auto,ShortK >> $L/sk-$v-$r.csv 2>>$L/err.log
  $X --precisions bf16 --layouts nt --shapes 18x6130x5316,33x1692x6780,145x690x202,260x516x36 --plans Auto,MmaTile64 > $L/mma-$v-$r.csv 2>>$L/err.log
  $X --precisions bf16 --layouts tn --shapes 818x84x199,1024x772x1020 --plans Auto,MmaTile64 >> $L/mma-$v-$r.csv 2>>$L/err.log
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

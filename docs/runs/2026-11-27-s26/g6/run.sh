#!/usr/bin/env bash
# Session 26, call g6 (bundle g6 = the final code, scripts/gpu-bundle: the short-k kernels as
# separate 64-row and 16-row entries, 16-row ones where 64-row blocks leave over an eighth of
# the multiprocessors idle; 8-byte copies of 2-byte operands in the mma.sync tiles): every test
# binary; ShortK and the 64×64 mma.sync tile of g6 and f4 (session 25) alternated; the sweep,
# six random seeds, the MLP step against PyTorch.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && for x in g6 f4; do tar xJf .gpu/$x.txz -C /tmp/b; done; B=/tmp/b/g6
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 300 $B/run-tests > $L/run-tests.log 2>&1; echo "run-tests rc=$?" >> $L/run-tests.log); el "$(grep -E '^test result: .* [1-9][0-9]* passed|FAILED|rc=' $L/run-tests.log | sed 's/finished in [0-9.]*s//' | tr '\n' ' ')"
grep -E "FAILED|panicked" $L/run-tests.log | head
xz -9 $L/run-tests.log
for r in 1 2; do for v in g6 f4; do X=/tmp/b/$v/gemm_plans; [ $v = g6 ] && X=$B/benches/gemm_plans
  $X --precisions f32,bf16 --layouts tn --shapes 1024x1024x32,1024x784x32,566x339x10 --plans Auto,ShortK > $L/sk-$v-$r.csv 2>>$L/err.log
  $X --precisions f32,bf16 --layouts nn --shapes 797x346x9,1024x1024x10,128x4096x10,4670x94x6,4096x4096x10 --plans Auto,ShortK >> $L/sk-$v-$r.csv 2>>$L/err.log
  $X --precisions f32,bf16 --layouts tt --shapes 6308x37x20,87x3243x10,134x6482x13,326x6x8 --plans Auto,ShortK >> $L/sk-$v-$r.csv 2>>$L/err.log
  $X --precisions bf16 --layouts nt --shapes 18x6130x5316,33x1692x6780,260x516x36 --plans Auto,MmaTile64 > $L/mma-$v-$r.csv 2>>$L/err.log
done; done; el "A/B done"
$B/benches/gemm_sweep --list --seed 589266001 > $L/cases.csv
timeout 150 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
timeout 200 $B/benches/gemm_sweep --seed 589266001 --torch $L/torch.csv --csv $L/sweep.csv > $L/sweep.log 2>&1; el "sweep rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep.log
for s in 26112701 26112702 26112703 26112704 26112705 26112706; do
  $B/benches/gemm_sweep --list --groups random --seed $s > $L/cases-$s.csv
  timeout 60 python3 benches/torch/gemm_sweep.py $L/cases-$s.csv > $L/torch-$s.csv 2> $L/torch-$s-err.log
  timeout 60 $B/benches/gemm_sweep --groups random --seed $s --torch $L/torch-$s.csv --csv $L/sweep-$s.csv > $L/sweep-$s.log 2>&1; el "sweep $s rc=$?"; grep -E "^f32 all|^tf32 all|^bf16 all" $L/sweep-$s.log
done
timeout 60 python3 benches/torch/mlp_step.py > $L/mlp-torch.txt 2>&1; el "mlp torch rc=$?"
timeout 90 $B/benches/mlp --bench no-criterion-case > $L/mlp-bench.log 2>&1; el "mlp bench rc=$?"
grep "train_step,\|infer," $L/mlp-bench.log | head -8; grep "graph\|infer," $L/mlp-torch.txt
(cd $L && tar czf $OUT/logs.tgz .)
el done

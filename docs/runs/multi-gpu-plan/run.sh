#!/usr/bin/env bash
# Data-parallel training on a 2× H200 machine, in one device call: the multi-GPU tests (every
# other test binary too), then the scaling benchmark (784-4096-4096-10, f32, global batches 1024 to
# 16384) on 1 and 2 GPUs, ours (`mlp --synthetic`) and PyTorch DDP (`torchrun --nproc_per_node 2`),
# one after the other in the same call. NOT RUN YET: no result of it is claimed anywhere.
#
# Prepared here with:   scripts/gpu-bundle .gpu/multi && tar czf .gpu/multi.tgz -C .gpu multi
# Run there from the repository root (no Rust toolchain needed; libnccl.so.2 on the loader path,
# PyTorch with CUDA for the DDP side). Logs go to $OUT/logs.tgz (or /tmp/logs without $OUT).
set -u
export PYTHONUNBUFFERED=1
# NVLink SHARP (multicast) stays off on these machines.
export NCCL_NVLS_ENABLE=0
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}
if [ -z "${BUNDLE:-}" ]; then
  mkdir -p /tmp/b && tar xzf .gpu/multi.tgz -C /tmp/b && BUNDLE=/tmp/b/multi
fi
B=$BUNDLE
L=/tmp/logs; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
nvidia-smi topo -m > $L/topo.txt 2>&1
ldconfig -p | grep -i nccl | tee $L/nccl.txt
python3 -c "import torch; print('torch', torch.__version__, 'nccl', torch.cuda.nccl.version())" | tee -a $L/nccl.txt

# 1. Tests: the multi-GPU suite first (replicas bitwise identical, 2 GPUs against 1, the fault
#    test, two processes through launch-local), then every bundled test binary.
timeout 300 $B/tests/multi_gpu-test > $L/test-multi_gpu.log 2>&1; el "multi_gpu rc=$?"
grep -E "^test |^test result" $L/test-multi_gpu.log
timeout 900 $B/run-tests > $L/run-tests.log 2>&1; el "run-tests rc=$?"
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i; if ($(i+1) ~ /^ignored/) s += $i } }
     END { printf "%d passed, %d failed, %d skipped\n", p, f, s }' $L/run-tests.log | tee $L/summary.txt

# 2. Scaling: ours on 1 GPU, 2 GPUs in one process (threads), 2 processes (launch-local).
ROWS=262144   # 16 global batches at 16384; the data sit on every GPU (0.8 GB each)
echo "impl,world,global_batch,samples_per_s" > $L/scaling.csv
for b in 1024 2048 4096 8192 16384; do
  common="--synthetic $ROWS --hidden 4096,4096 --batch $b --epochs 3 --log-every 0 --optimizer sgd --momentum 0.9 --lr 0.01"
  timeout 300 $B/examples/mlp $common > $L/ours-1gpu-$b.log 2>&1; el "ours 1 GPU batch $b rc=$?"
  timeout 300 $B/examples/mlp $common --gpus 2 > $L/ours-2gpu-$b.log 2>&1; el "ours 2 GPUs batch $b rc=$?"
  MASTER_PORT=$((29600 + b % 997)) timeout 300 $B/launch-local 2 -- $B/examples/mlp $common > $L/ours-2proc-$b.log 2>&1; el "ours 2 processes batch $b rc=$?"
  for f in 1gpu:1 2gpu:2 2proc:2; do
    rate=$(sed -n 's/.*throughput: \([0-9]*\) samples\/s.*/\1/p' $L/ours-${f%:*}-$b.log | tail -1)
    echo "ours-${f%:*},${f#*:},$b,${rate:-NA}" >> $L/scaling.csv
  done
done
# PyTorch DDP (NCCL backend) on the same model and batches: 1 GPU, then torchrun on 2.
timeout 600 python3 benches/torch/ddp_mlp.py > $L/torch-1gpu.log 2>&1; el "torch 1 GPU rc=$?"
timeout 600 torchrun --nproc_per_node 2 benches/torch/ddp_mlp.py > $L/torch-2gpu.log 2>&1; el "torch DDP 2 GPUs rc=$?"
for f in 1gpu:1 2gpu:2; do
  sed -n 's/^ddp_mlp,.*global_batch=\([0-9]*\),.*,samples_per_s=\([0-9]*\),.*/\1 \2/p' $L/torch-${f%:*}.log | while read -r b r; do
    echo "torch-${f%:*},${f#*:},$b,$r" >> $L/scaling.csv
  done
done
cat $L/scaling.csv
if [ -n "${OUT:-}" ]; then tar czf $OUT/logs.tgz -C /tmp logs; fi

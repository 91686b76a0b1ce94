#!/usr/bin/env bash
# Session 15, call r4: the README's main job on r3's build: `--example mlp` as written (digits,
# default configuration), and with 1024-wide hidden layers at batch 256 (FP32 `Auto` then runs
# its products on the split form).
set -u
mkdir -p /tmp/b && tar xJf .gpu/ex15.txz -C /tmp/b && B=/tmp/b/ex15
L=/tmp/logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 120 $B/mlp > $L/mlp-default.log 2>&1; echo "rc=$?" >> $L/mlp-default.log); tail -4 $L/mlp-default.log
(timeout 120 $B/mlp --hidden 1024,1024 --batch 256 --epochs 10 > $L/mlp-1024.log 2>&1; echo "rc=$?" >> $L/mlp-1024.log); tail -4 $L/mlp-1024.log
tar czf $OUT/logs.tgz -C /tmp logs

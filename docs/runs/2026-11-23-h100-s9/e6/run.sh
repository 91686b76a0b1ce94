#!/usr/bin/env bash
# Session 9, experiment 6: how many clusters of each size the wgmma GEMM kernels can keep
# resident at once (cuOccupancyMaxActiveClusters, cluster scheduling policies default/spread/
# load-balancing), from the kernels' cubin.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e6.txz -C /tmp/e
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 /tmp/e/e6/occ.py /tmp/e/e6/kernels-sm_90a.cubin 2>&1 | tee $OUT/occ.txt

#!/usr/bin/env python3
"""Which kernels PyTorch (cuBLAS) launches for each case of a `gemm_sweep --list` case list, and
their device time: the tile shapes, split-K and cluster choices our plans are measured against.

    python3 benches/torch/cublas_kernels.py cases.csv > kernels.csv

Each case's op (as `gemm_sweep.py` builds it) runs 3 times to warm up, then 5 times under
torch.profiler; output CSV `precision,layout,m,n,k,kernel,calls,avg_us` (one row per kernel the
5 runs launched), progress on stderr.
"""

import csv
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemm_sweep  # noqa: E402


def main():
    _, cases = gemm_sweep.read_cases(sys.argv[1])
    mode = gemm_sweep.bf16_mode()
    out = csv.writer(sys.stdout)
    out.writerow(["precision", "layout", "m", "n", "k", "kernel", "calls", "avg_us"])
    for precision, layout, m, n, k in cases:
        gemm_sweep.run_case(precision, layout, m, n, k, mode, profile=3)
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            gemm_sweep.run_case(precision, layout, m, n, k, mode, profile=5)
        for ev in prof.key_averages():
            if ev.device_type == torch.autograd.DeviceType.CUDA and ev.count > 0 and "elementwise" not in ev.key and "fill" not in ev.key:
                out.writerow([precision, layout, m, n, k, ev.key, ev.count, "%.2f" % (ev.device_time_total / ev.count)])
        print(f"{precision} {layout} {m}x{n}x{k}", file=sys.stderr)


if __name__ == "__main__":
    main()

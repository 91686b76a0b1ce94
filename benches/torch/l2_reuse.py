#!/usr/bin/env python3
"""How much of cuBLAS's speed on few-row BF16 products comes from the large operand staying in
L2 between back-to-back products (the sweep's protocol: a CUDA graph of R products on the same
buffers). Times each product with the same operands every time, then with the larger operand
rotating over copies that together exceed the L2 four times, so each product reads it from DRAM.

    python3 benches/torch/l2_reuse.py
"""
import statistics

import torch

SHAPES = [(16, 4096, 4096), (32, 4096, 4096), (64, 4096, 4096), (32, 1024, 16384), (4096, 16, 4096)]
REPS = 40


def time_graph(fn):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    for _ in range(3):
        g.replay()
    times = []
    for _ in range(11):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / REPS)
    return statistics.median(times)


def main():
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    print(f"# {torch.cuda.get_device_name(0)}, torch {torch.__version__}, L2 {l2 >> 20} MiB")
    print("precision,layout,m,n,k,same_ms,rotating_ms,rotating_over_same,copies")
    for m, n, k in SHAPES:
        big, small = max(m, n), min(m, n)
        copies = max(2, -(-4 * l2 // (big * k * 2)))
        bigs = [torch.rand(big, k, device="cuda", dtype=torch.bfloat16) - 0.5 for _ in range(copies)]
        other = torch.rand(small, k, device="cuda", dtype=torch.bfloat16) - 0.5
        c = torch.empty(m, n, device="cuda", dtype=torch.float32)
        # x·Wᵀ with the big operand as A (m > n) or as B.
        mm = (lambda x: torch.mm(x, other.t(), out_dtype=torch.float32, out=c)) if m > n else (lambda x: torch.mm(other, x.t(), out_dtype=torch.float32, out=c))

        def same():
            for _ in range(REPS):
                mm(bigs[0])

        def rotating():
            for i in range(REPS):
                mm(bigs[i % copies])

        t_same, t_rot = time_graph(same), time_graph(rotating)
        print(f"bf16,nt,{m},{n},{k},{t_same:.6f},{t_rot:.6f},{t_rot / t_same:.3f},{copies}")


if __name__ == "__main__":
    main()

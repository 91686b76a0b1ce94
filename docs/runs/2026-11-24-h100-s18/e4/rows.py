#!/usr/bin/env python3
"""Session 18, call e4: does writing rows whose starts break 16-byte (sector) alignment cost
time by itself? torch.mm and plain copies into m x n outputs, n a multiple of 4 or not, each
timed as the sweep times (graph of R ops, median replay / R)."""
import statistics, torch

def t(fn, reps=200):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        fn(); torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(reps): fn()
    ts = []
    for i in range(12):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record(); g.replay(); b.record(); b.synchronize()
        if i >= 2: ts.append(a.elapsed_time(b) / reps * 1e3)
    return statistics.median(ts)

torch.backends.cuda.matmul.allow_tf32 = False
for m, n, k in [(256, 1024, 10), (256, 1026, 10), (800, 344, 9), (800, 346, 9), (800, 345, 9), (6308, 40, 20), (6308, 37, 20), (2048, 1024, 10), (2048, 1026, 10)]:
    a = torch.randn(m, k, device='cuda'); b = torch.randn(k, n, device='cuda'); c = torch.empty(m, n, device='cuda')
    src = torch.randn(m, n, device='cuda')
    print('%5d %5d %3d  mm %.2f us  copy %.2f us  fill %.2f us' % (m, n, k, t(lambda: torch.mm(a, b, out=c)), t(lambda: c.copy_(src)), t(lambda: c.fill_(1.0))))

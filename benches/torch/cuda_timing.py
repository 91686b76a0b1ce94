"""Timing shared by the PyTorch side of the benches (`mlp_step.py`, `mlp_amp.py`): the median of
CUDA-event times after a warm-up, and a CUDA-graph capture of a step. torch is imported inside
the functions, so a script's modes that only read CSV files run without it."""


def median_ms(fn, iters=200, warm=20):
    """Median over `iters` runs of `fn`, each timed with CUDA events, after `warm` untimed runs."""
    import torch
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def graphed(fn):
    """Captures `fn` (warmed up on a side stream first, as CUDA graphs need) and returns the replay."""
    import torch
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    return g.replay

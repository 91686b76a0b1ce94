#!/usr/bin/env python3
"""PyTorch (cuBLAS) companion of the `gemm_sweep` bench: times torch's GEMM on every case of the
case list `gemm_sweep --list` prints, the way gemm_sweep times ours.

    gemm_sweep --list > cases.csv
    python3 benches/torch/gemm_sweep.py cases.csv > torch.csv
    gemm_sweep --torch torch.csv --csv sweep.csv

Per case (precision, layout, m, n, k): A is created with its stored shape (m x k for 'n',
k x m for 't', then viewed transposed) and likewise B (k x n for 'n', n x k for 't'), uniform in
[-1, 1); C (m x n, float32) is preallocated. f32 and tf32 run float32 inputs with TF32 off or on;
bf16 runs bfloat16 inputs with a float32 output (torch.mm's out_dtype where this torch has it;
otherwise a bfloat16 output, said in a '#' line). R products, R chosen so that one replay takes
at least about 1 ms (1 to 200), are captured in a torch.cuda.CUDAGraph (after a warm-up on a side
stream); two replays warm up, then 7 to 15 replays are timed with CUDA events; the time per
product is the median replay divided by R.

Output (stdout): '#' lines (GPU, torch version, the case list's own '#' lines, which carry its
seed, and the bf16 output dtype), then CSV `precision,layout,m,n,k,torch_ms`. A case torch
cannot run gets torch_ms `nan` and a '#' line saying why. Progress goes to stderr.

    python3 benches/torch/gemm_sweep.py cases.csv --profile N

runs each case's op N times instead (no graph, no timing): a short list of launches for a
profiler (Nsight Compute) to attribute, as `gemm_plans --profile N` does for ours.
"""

import csv
import math
import statistics
import sys
import time

import torch

TARGET_REPLAY_MS = 1.0
MAX_REPS = 200
TIMING_BUDGET_MS = 150.0
MIN_REPLAYS = 7
MAX_REPLAYS = 15


def read_cases(path):
    """The case list: its '#' lines and (precision, layout, m, n, k) rows, duplicates dropped."""
    comments, cases, seen = [], [], set()
    with open(path) as f:
        lines = [line for line in f if line.strip()]
    comments = [line.strip() for line in lines if line.startswith("#")]
    rows = csv.reader(line for line in lines if not line.startswith("#"))
    for row in rows:
        if not row or row[0] == "precision":
            continue
        p, layout, m, n, k = row[0], row[1], int(row[2]), int(row[3]), int(row[4])
        if p not in ("f32", "tf32", "bf16") or layout not in ("nn", "nt", "tn", "tt"):
            raise SystemExit(f"gemm_sweep.py: bad case {row}")
        key = (p, layout, m, n, k)
        if key not in seen:
            seen.add(key)
            cases.append(key)
    return comments, cases


def set_tf32(on):
    """TF32 for float32 matmuls on or off (the legacy flags; the newer fp32_precision API if the
    legacy one is refused)."""
    try:
        torch.backends.cuda.matmul.allow_tf32 = on
        torch.backends.cudnn.allow_tf32 = on
        torch.set_float32_matmul_precision("high" if on else "highest")
    except (RuntimeError, AttributeError):
        torch.backends.cuda.matmul.fp32_precision = "tf32" if on else "ieee"
        torch.backends.cudnn.conv.fp32_precision = "tf32" if on else "ieee"


def bf16_mode():
    """How this torch multiplies bf16 into a float32 C: 'out' (torch.mm out_dtype and out=),
    'alloc' (out_dtype, a new output each call) or None (bf16 output only)."""
    a = torch.ones(16, 16, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(16, 16, device="cuda", dtype=torch.float32)
    try:
        torch.mm(a, a, out_dtype=torch.float32, out=c)
        torch.cuda.synchronize()
        if c.dtype == torch.float32 and float(c[0, 0]) == 16.0:
            return "out"
    except (TypeError, RuntimeError):
        pass
    try:
        r = torch.mm(a, a, out_dtype=torch.float32)
        torch.cuda.synchronize()
        if r.dtype == torch.float32:
            return "alloc"
    except (TypeError, RuntimeError):
        pass
    return None


def operand(rows, cols, transposed, dtype):
    """An operand op(X) of shape rows x cols, stored transposed when asked; uniform in [-1, 1)."""
    if transposed:
        x = torch.rand(cols, rows, device="cuda") * 2 - 1
        return x.to(dtype).t()
    return (torch.rand(rows, cols, device="cuda") * 2 - 1).to(dtype)


def event_ms(fn, iters):
    """Milliseconds of each of `iters` runs of fn, CUDA events around each, sorted."""
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(iters):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return sorted(times)


def time_op(op):
    """Median milliseconds of one op, from replays of a CUDA graph of R ops."""
    op()
    torch.cuda.synchronize()
    single = statistics.median(event_ms(op, 3))
    reps = max(1, min(MAX_REPS, math.ceil(TARGET_REPLAY_MS / max(single, 1e-4))))
    replays = max(MIN_REPLAYS, min(MAX_REPLAYS, math.ceil(TIMING_BUDGET_MS / max(single * reps, 1e-3))))
    # Warm up on a side stream before capturing (cuBLAS handles and workspaces).
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            op()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(reps):
            op()
    for _ in range(2):
        graph.replay()
    torch.cuda.synchronize()
    ms = statistics.median(event_ms(graph.replay, replays)) / reps
    del graph
    return ms, reps


def run_case(precision, layout, m, n, k, mode, profile=None):
    set_tf32(precision == "tf32")
    dtype = torch.bfloat16 if precision == "bf16" else torch.float32
    a = operand(m, k, layout[0] == "t", dtype)
    b = operand(k, n, layout[1] == "t", dtype)
    if precision != "bf16":
        c = torch.empty(m, n, device="cuda", dtype=torch.float32)

        def op():
            torch.matmul(a, b, out=c)

    elif mode == "out":
        c = torch.empty(m, n, device="cuda", dtype=torch.float32)

        def op():
            torch.mm(a, b, out_dtype=torch.float32, out=c)

    elif mode == "alloc":

        def op():
            torch.mm(a, b, out_dtype=torch.float32)

    else:
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)

        def op():
            torch.matmul(a, b, out=c)

    if profile is not None:
        for _ in range(profile):
            op()
        torch.cuda.synchronize()
        return float("nan"), profile
    return time_op(op)


def main():
    profile = None
    if len(sys.argv) == 4 and sys.argv[2] == "--profile":
        profile = int(sys.argv[3])
    elif len(sys.argv) != 2:
        raise SystemExit("usage: python3 gemm_sweep.py CASES.csv [--profile N] > torch.csv")
    if not torch.cuda.is_available():
        raise SystemExit("gemm_sweep.py: no CUDA GPU visible to torch")
    comments, cases = read_cases(sys.argv[1])
    torch.manual_seed(0)
    mode = bf16_mode()
    out = sys.stdout
    print(f"# gpu {torch.cuda.get_device_name()}", file=out)
    print(f"# torch {torch.__version__} cuda {torch.version.cuda}", file=out)
    for c in comments:
        print(c, file=out)
    bf16_note = {
        "out": "float32 (torch.mm out_dtype=float32, out=preallocated)",
        "alloc": "float32 (torch.mm out_dtype=float32, output allocated in the graph's pool)",
        None: "bfloat16 (this torch has no torch.mm out_dtype; ours writes float32)",
    }[mode]
    print(f"# bf16 output: {bf16_note}", file=out)
    print("precision,layout,m,n,k,torch_ms", file=out)
    out.flush()
    t0 = time.time()
    for i, (p, layout, m, n, k) in enumerate(cases):
        try:
            ms, reps = run_case(p, layout, m, n, k, mode, profile)
            tflops = 2.0 * m * n * k / (ms * 1e-3) / 1e12
            print(f"[{i + 1}/{len(cases)} {time.time() - t0:.0f}s] {p} {layout} {m}x{n}x{k}: {ms:.4f} ms (R={reps}), {tflops:.2f} TFLOP/s", file=sys.stderr)
        except (RuntimeError, torch.cuda.OutOfMemoryError) as e:
            ms = float("nan")
            reason = str(e).splitlines()[0] if str(e) else type(e).__name__
            print(f"# {p},{layout},{m},{n},{k} failed: {reason}", file=out)
            print(f"[{i + 1}/{len(cases)}] {p} {layout} {m}x{n}x{k}: FAILED {reason}", file=sys.stderr)
        print(f"{p},{layout},{m},{n},{k},{ms:.6f}", file=out)
        out.flush()
        if i % 16 == 15:
            torch.cuda.empty_cache()
    set_tf32(False)


if __name__ == "__main__":
    main()

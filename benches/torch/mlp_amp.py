"""PyTorch's side of the mixed-precision MLP benchmark (issue 12; ours: `MLP_BENCH=amp
benches/mlp --bench`): 784-H-H-10 ReLU networks (H = 1024, 4096), cross-entropy and SGD (lr 0.01,
no momentum) at batches 256, 1024 and 4096, in three precisions:
  f32   allow_tf32 = False
  tf32  torch.backends.cuda.matmul.allow_tf32 = True
  bf16  torch.autocast("cuda", dtype=torch.bfloat16) around forward and loss (f32 master weights)

Prints, in the format of our bench (`op,shape,batch,precision,median_ms,samples_per_s`):
  mlp_amp_train_step_graph  the training step captured once as a CUDA graph and replayed
  mlp_amp_infer             forward pass, eager, under no_grad
  mlp_amp_infer_graph       forward pass captured as a CUDA graph
Each median is over 200 runs timed with CUDA events after a warm-up.

With --ours FILE (our bench's output), prints instead the table of ours against theirs and the
ratio (theirs / ours: above 1 means ours is faster).

    python3 benches/torch/mlp_amp.py [--hidden 1024,4096] [--batches 256,1024,4096] > torch.csv
    python3 benches/torch/mlp_amp.py --ours ours.csv --theirs torch.csv
"""
import argparse
import contextlib
import sys

from cuda_timing import graphed, median_ms


def measure(args):
    import torch
    print("gpu", torch.cuda.get_device_name(), "torch", torch.__version__, file=sys.stderr)
    for hidden in [int(h) for h in args.hidden.split(",")]:
        sizes = [784, hidden, hidden, 10]
        shape = "-".join(map(str, sizes))
        for b in [int(x) for x in args.batches.split(",")]:
            for prec in ["f32", "tf32", "bf16"]:
                torch.backends.cuda.matmul.allow_tf32 = prec == "tf32"
                torch.backends.cudnn.allow_tf32 = prec == "tf32"
                torch.manual_seed(0)
                model = torch.nn.Sequential(
                    torch.nn.Linear(sizes[0], sizes[1]), torch.nn.ReLU(),
                    torch.nn.Linear(sizes[1], sizes[2]), torch.nn.ReLU(),
                    torch.nn.Linear(sizes[2], sizes[3]),
                ).cuda()
                opt = torch.optim.SGD(model.parameters(), lr=0.01)
                loss_fn = torch.nn.CrossEntropyLoss()
                x = torch.rand(b, sizes[0], device="cuda")
                y = torch.randint(0, sizes[-1], (b,), device="cuda")

                def amp():
                    # cache_enabled=False: the autocast weight cache must not outlive a graph capture.
                    if prec == "bf16":
                        return torch.autocast("cuda", dtype=torch.bfloat16, cache_enabled=False)
                    return contextlib.nullcontext()

                def step():
                    opt.zero_grad(set_to_none=False)
                    with amp():
                        loss = loss_fn(model(x), y)
                    loss.backward()
                    opt.step()

                def infer():
                    with torch.no_grad(), amp():
                        return model(x)

                rows = [("mlp_amp_train_step_graph", median_ms(graphed(step)))]
                rows.append(("mlp_amp_infer", median_ms(infer)))
                rows.append(("mlp_amp_infer_graph", median_ms(graphed(infer))))
                for name, ms in rows:
                    print(f"{name},{shape},B{b},{prec},{ms:.4f},{b / ms * 1e3:.0f}", flush=True)


def parse(path):
    out = {}
    for line in open(path):
        f = line.strip().split(",")
        if len(f) == 6 and f[0].startswith("mlp_amp_"):
            out[tuple(f[:4])] = float(f[4])
    return out


def compare(args):
    ours, theirs = parse(args.ours), parse(args.theirs)
    print(f"{'case':<28} {'shape':<18} {'batch':>6} {'prec':>5} {'ours ms':>9} {'torch ms':>9} {'ratio':>6}")
    worst = None
    for key in sorted(ours, key=lambda k: (k[0], k[1], int(k[2][1:]), k[3])):
        if key not in theirs:
            continue
        r = theirs[key] / ours[key]
        worst = r if worst is None else min(worst, r)
        print(f"{key[0]:<28} {key[1]:<18} {key[2]:>6} {key[3]:>5} {ours[key]:>9.4f} {theirs[key]:>9.4f} {r:>6.2f}")
    print(f"smallest ratio (torch/ours): {worst:.2f}" if worst is not None else "no common cases")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hidden", default="1024,4096")
    ap.add_argument("--batches", default="256,1024,4096")
    ap.add_argument("--ours")
    ap.add_argument("--theirs")
    args = ap.parse_args()
    if args.ours:
        compare(args)
    else:
        measure(args)


if __name__ == "__main__":
    main()

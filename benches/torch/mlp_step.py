"""PyTorch's side of the MLP benchmark (`cargo bench -p benches --bench mlp`): the same
784-1024-1024-10 ReLU network, cross-entropy and SGD, f32 without TF32, at the same batches.

Prints one line per case in the anchor format `op,shape,dtype,median_ms,samples_per_s`:
  mlp_train_step        eager training step (zero_grad, forward, loss, backward, SGD step)
  mlp_train_step_graph  the same step captured once as a CUDA graph and replayed
  mlp_infer             forward pass, eager, under no_grad
  mlp_infer_graph       forward pass captured as a CUDA graph
Each median is over 200 runs timed with CUDA events after a warm-up.

    python3 benches/torch/mlp_step.py [--batches 64,256,1024,4096]
"""
import argparse

import torch

from cuda_timing import graphed, median_ms

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
SIZES = [784, 1024, 1024, 10]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", default="64,256,1024,4096")
    batches = [int(b) for b in ap.parse_args().batches.split(",")]
    print("gpu", torch.cuda.get_device_name(), "torch", torch.__version__)
    for b in batches:
        torch.manual_seed(0)
        model = torch.nn.Sequential(
            torch.nn.Linear(SIZES[0], SIZES[1]), torch.nn.ReLU(),
            torch.nn.Linear(SIZES[1], SIZES[2]), torch.nn.ReLU(),
            torch.nn.Linear(SIZES[2], SIZES[3]),
        ).cuda()
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        loss_fn = torch.nn.CrossEntropyLoss()
        x = torch.rand(b, SIZES[0], device="cuda")
        y = torch.randint(0, SIZES[-1], (b,), device="cuda")

        def step():
            opt.zero_grad(set_to_none=False)
            loss_fn(model(x), y).backward()
            opt.step()

        rows = [("mlp_train_step", median_ms(step))]
        rows.append(("mlp_train_step_graph", median_ms(graphed(step))))
        with torch.no_grad():
            rows.append(("mlp_infer", median_ms(lambda: model(x))))
            rows.append(("mlp_infer_graph", median_ms(graphed(lambda: model(x)))))
        for name, ms in rows:
            print(f"{name},B{b},f32,{ms:.4f},{b / ms * 1e3:.0f}")


if __name__ == "__main__":
    main()

"""PyTorch DDP's side of the multi-GPU scaling benchmark (docs/multi-gpu.md): the same ReLU MLP
(default 784-4096-4096-10), cross-entropy and SGD (momentum 0.9), f32 without TF32, trained
data-parallel with the NCCL backend at the same global batches, one process per GPU.

    torchrun --nproc_per_node 2 benches/torch/ddp_mlp.py --batches 1024,2048,4096,8192,16384
    python3 benches/torch/ddp_mlp.py --batches 1024      # one GPU, no process group

Each rank trains on seeded random rows resident on its GPU (like `mlp --synthetic`), takes its
share (global batch / world size) of every global batch, and times `--steps` steps after a
warm-up with CUDA events; rank 0 prints one line per batch:
  ddp_mlp,<sizes>,f32,world=<N>,global_batch=<B>,median_step_ms=<ms>,samples_per_s=<B/ms*1000>
DDP buckets the gradients (bucket_cap_mb, default 25) and overlaps their all-reduce with the
backward pass; no CUDA graph (DDP's default).
"""
import argparse
import os
import time

import torch
import torch.distributed as dist

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="784,4096,4096,10")
    ap.add_argument("--batches", default="1024,2048,4096,8192,16384")
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--lr", type=float, default=0.01)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    local = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local)
    if world > 1:
        dist.init_process_group("nccl", device_id=torch.device("cuda", local))
    if rank == 0:
        print("gpu", torch.cuda.get_device_name(), "torch", torch.__version__, "nccl", ".".join(map(str, torch.cuda.nccl.version())), "world", world, flush=True)
    for batch in [int(b) for b in args.batches.split(",")]:
        if batch % world:
            raise SystemExit(f"global batch {batch} does not split over {world} GPUs")
        share = batch // world
        torch.manual_seed(0)
        layers = []
        for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
            layers.append(torch.nn.Linear(a, b))
            if i + 2 < len(sizes):
                layers.append(torch.nn.ReLU())
        model = torch.nn.Sequential(*layers).cuda()
        if world > 1:
            model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[local])
        opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
        loss_fn = torch.nn.CrossEntropyLoss()
        gen = torch.Generator(device="cuda").manual_seed(1 + rank)
        rows = share * 8
        x_all = torch.rand(rows, sizes[0], device="cuda", generator=gen)
        y_all = torch.randint(0, sizes[-1], (rows,), device="cuda", generator=gen)
        step_no = [0]

        def step():
            i = step_no[0] % 8
            step_no[0] += 1
            x, y = x_all[i * share:(i + 1) * share], y_all[i * share:(i + 1) * share]
            opt.zero_grad(set_to_none=True)
            loss_fn(model(x), y).backward()
            opt.step()

        for _ in range(args.warmup):
            step()
        torch.cuda.synchronize()
        if world > 1:
            dist.barrier()
        times = []
        t0 = time.perf_counter()
        for _ in range(args.steps):
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            step()
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop))
        wall = time.perf_counter() - t0
        times.sort()
        ms = times[len(times) // 2]
        if rank == 0:
            print(
                f"ddp_mlp,{'-'.join(map(str, sizes))},f32,world={world},global_batch={batch},"
                f"median_step_ms={ms:.4f},samples_per_s={batch / ms * 1e3:.0f},wall_samples_per_s={batch * args.steps / wall:.0f}",
                flush=True,
            )
        del model, opt, x_all, y_all
        torch.cuda.empty_cache()
    if world > 1:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()

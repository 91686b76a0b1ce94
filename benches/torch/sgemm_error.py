"""Largest and RMS error of cuBLAS SGEMM (PyTorch f32 matmul, TF32 off) against an f64 product,
on the shapes and input distribution (uniform in [-1, 1]) of the FP32 accuracy tests in
tests/ops/matmul.rs, three seeds each: the yardstick for the FP32 kernels' errors.

    python3 benches/torch/sgemm_error.py
"""
import torch

torch.backends.cuda.matmul.allow_tf32 = False
for (m, k, n) in [(256, 4096, 512), (1024, 1024, 1024), (128, 16384, 256), (512, 784, 1024)]:
    out = []
    for seed in range(3):
        g = torch.Generator(device="cuda").manual_seed(seed)
        a = torch.rand(m, k, device="cuda", generator=g) * 2 - 1
        b = torch.rand(k, n, device="cuda", generator=g) * 2 - 1
        e = ((a @ b).double() - a.double() @ b.double()).abs()
        out.append(f"{e.max().item():.3e}/{e.pow(2).mean().sqrt().item():.3e}")
    print("sgemm", f"{m}x{k}x{n}", "max/rms:", " ".join(out))

//! Sigmoid y = σ(x), 10³…10⁸ f32. Throughput is bytes read and written (8 per element): GB/s.

use benches::metrics::{elementwise_bytes, random_f32};
use benches::timing::{context_synchronize, download_into};
use benches::{cpu, criterion, end_to_end_time, group, kernel_time, ok, open_gpu, vector_sizes, verify};
use criterion::{BenchmarkGroup, BenchmarkId, Throughput, measurement::WallTime};
use host::ops::activation::{SigmoidKernel, sigmoid_into};
use host::{DeviceVector, Gpu};

/// The GPU's `exp` and the CPU's may round differently in the last place.
const TOL: f64 = 1e-6;

fn main() {
    let mut c = criterion();
    let gpu = open_gpu("sigmoid");
    let mut g = group(&mut c, "sigmoid");
    for n in vector_sizes() {
        let x = random_f32(3, n, -8.0, 8.0);
        let mut out = vec![f32::NAN; n];
        g.throughput(Throughput::BytesDecimal(elementwise_bytes(n, 1, 1)));
        g.bench_with_input(BenchmarkId::new("cpu_loop", n), &n, |b, _| b.iter(|| cpu::sigmoid_loop(&x, &mut out)));
        g.bench_with_input(BenchmarkId::new("cpu_rayon", n), &n, |b, _| b.iter(|| cpu::sigmoid_par(&x, &mut out)));
        if let Some(gpu) = &gpu {
            gpu_series(&mut g, gpu, &x, &mut out);
        }
    }
    g.finish();
    c.final_summary();
}

fn gpu_series(g: &mut BenchmarkGroup<'_, WallTime>, gpu: &Gpu, x: &[f32], out: &mut [f32]) {
    let n = x.len();
    let want = host::reference::sigmoid(x);
    let mut dx = ok("upload", DeviceVector::from_host(gpu, x));
    let mut dy = ok("alloc", DeviceVector::filled(gpu, n, f32::NAN));
    for (name, kernel) in [("gpu_kernel_naive", SigmoidKernel::Naive), ("gpu_kernel_vectorized", SigmoidKernel::Vectorized)] {
        ok("fill", dy.fill(gpu, f32::NAN));
        ok("sigmoid", sigmoid_into(gpu, &dx, &mut dy, kernel));
        verify("sigmoid", &ok("download", dy.to_host(gpu)), &want, TOL);
        g.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| b.iter_custom(|iters| kernel_time(gpu, iters, || sigmoid_into(gpu, &dx, &mut dy, kernel))));
    }
    g.bench_with_input(BenchmarkId::new("gpu_end_to_end", n), &n, |b, _| {
        b.iter_custom(|iters| {
            end_to_end_time(gpu, iters, || {
                dx.copy_from_host(gpu, x)?;
                context_synchronize(gpu)?;
                sigmoid_into(gpu, &dx, &mut dy, SigmoidKernel::Vectorized)?;
                download_into(gpu, &dy, out)?;
                Ok(())
            })
        })
    });
    verify("sigmoid end to end", out, &want, TOL);
}

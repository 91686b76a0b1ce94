//! Vector add c = a + b, 10³…10⁸ f32: the article's table. Throughput is bytes read and written
//! (12 per element), so criterion reports GB/s.

use benches::metrics::{elementwise_bytes, random_f32};
use benches::timing::{context_synchronize, download_into};
use benches::{cpu, criterion, end_to_end_time, group, kernel_time, ok, open_gpu, vector_sizes, verify};
use criterion::{BenchmarkId, Throughput};
use host::ops::elementwise::{VecAddKernel, vec_add_into};
use host::{DeviceVector, Gpu};

fn main() {
    let mut c = criterion();
    let gpu = open_gpu("vec_add");
    let mut g = group(&mut c, "vec_add");
    for n in vector_sizes() {
        let (a, b) = (random_f32(1, n, -1.0, 1.0), random_f32(2, n, -1.0, 1.0));
        let mut out = vec![f32::NAN; n];
        g.throughput(Throughput::BytesDecimal(elementwise_bytes(n, 2, 1)));
        g.bench_with_input(BenchmarkId::new("cpu_loop", n), &n, |bch, _| bch.iter(|| cpu::vec_add_loop(&a, &b, &mut out)));
        g.bench_with_input(BenchmarkId::new("cpu_rayon", n), &n, |bch, _| bch.iter(|| cpu::vec_add_par(&a, &b, &mut out)));
        if let Some(gpu) = &gpu {
            gpu_series(&mut g, gpu, &a, &b, &mut out);
        }
    }
    g.finish();
    c.final_summary();
}

fn gpu_series(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, gpu: &Gpu, a: &[f32], b: &[f32], out: &mut [f32]) {
    let n = a.len();
    let want = host::reference::vec_add(a, b);
    let da = ok("upload", DeviceVector::from_host(gpu, a));
    let db = ok("upload", DeviceVector::from_host(gpu, b));
    let mut dc = ok("alloc", DeviceVector::filled(gpu, n, f32::NAN));
    for (name, kernel) in [("gpu_kernel_naive", VecAddKernel::Naive), ("gpu_kernel_vectorized", VecAddKernel::Vectorized)] {
        ok("fill", dc.fill(gpu, f32::NAN));
        ok("vec_add", vec_add_into(gpu, &da, &db, &mut dc, kernel));
        verify("vec_add", &ok("download", dc.to_host(gpu)), &want, 0.0);
        g.bench_with_input(BenchmarkId::new(name, n), &n, |bch, _| {
            bch.iter_custom(|iters| kernel_time(gpu, iters, || vec_add_into(gpu, &da, &db, &mut dc, kernel)))
        });
    }
    // Upload both inputs, add, download the sum: what a caller holding host vectors pays.
    let (mut ua, mut ub) = (da, db);
    g.bench_with_input(BenchmarkId::new("gpu_end_to_end", n), &n, |bch, _| {
        bch.iter_custom(|iters| {
            end_to_end_time(gpu, iters, || {
                ua.copy_from_host(gpu, a)?;
                ub.copy_from_host(gpu, b)?;
                context_synchronize(gpu)?;
                vec_add_into(gpu, &ua, &ub, &mut dc, VecAddKernel::Vectorized)?;
                gpu.synchronize()?;
                download_into(gpu, &dc, out)?;
                Ok(())
            })
        })
    });
    verify("vec_add end to end", out, &want, 0.0);
}

//! Matrix add C = A + B on N×N f32, N = 64…4096. Throughput is bytes read and written: GB/s.

use benches::metrics::{elementwise_bytes, random_f32};
use benches::timing::{context_synchronize, download_into};
use benches::{cpu, criterion, end_to_end_time, group, kernel_time, matrix_sizes, ok, open_gpu, verify};
use criterion::{BenchmarkGroup, BenchmarkId, Throughput, measurement::WallTime};
use host::ops::elementwise::mat_add_into;
use host::{DeviceMatrix, Gpu};

fn main() {
    let mut c = criterion();
    let gpu = open_gpu("mat_add");
    let mut g = group(&mut c, "mat_add");
    for n in matrix_sizes() {
        let (a, b) = (random_f32(4, n * n, -1.0, 1.0), random_f32(5, n * n, -1.0, 1.0));
        let mut out = vec![f32::NAN; n * n];
        g.throughput(Throughput::BytesDecimal(elementwise_bytes(n * n, 2, 1)));
        g.bench_with_input(BenchmarkId::new("cpu_loop", n), &n, |bch, _| bch.iter(|| cpu::mat_add_loop(&a, &b, &mut out, n, n)));
        g.bench_with_input(BenchmarkId::new("cpu_rayon", n), &n, |bch, _| bch.iter(|| cpu::mat_add_par(&a, &b, &mut out, n)));
        if let Some(gpu) = &gpu {
            gpu_series(&mut g, gpu, n, &a, &b, &mut out);
        }
    }
    g.finish();
    c.final_summary();
}

fn gpu_series(g: &mut BenchmarkGroup<'_, WallTime>, gpu: &Gpu, n: usize, a: &[f32], b: &[f32], out: &mut [f32]) {
    let want = host::reference::mat_add(a, b, n, n);
    let mut da = ok("upload", DeviceMatrix::from_host(gpu, n, n, a));
    let mut db = ok("upload", DeviceMatrix::from_host(gpu, n, n, b));
    let mut dc = ok("alloc", DeviceMatrix::filled(gpu, n, n, f32::NAN));
    ok("mat_add", mat_add_into(gpu, &da, &db, &mut dc));
    verify("mat_add", &ok("download", dc.to_host(gpu)), &want, 0.0);
    g.bench_with_input(BenchmarkId::new("gpu_kernel", n), &n, |bch, _| {
        bch.iter_custom(|iters| kernel_time(gpu, iters, || mat_add_into(gpu, &da, &db, &mut dc)))
    });
    g.bench_with_input(BenchmarkId::new("gpu_end_to_end", n), &n, |bch, _| {
        bch.iter_custom(|iters| {
            end_to_end_time(gpu, iters, || {
                da.copy_from_host(gpu, a)?;
                db.copy_from_host(gpu, b)?;
                context_synchronize(gpu)?;
                mat_add_into(gpu, &da, &db, &mut dc)?;
                download_into(gpu, dc.as_vector(), out)?;
                Ok(())
            })
        })
    });
    verify("mat_add end to end", out, &want, 0.0);
}

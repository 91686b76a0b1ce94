//! Square matmul C = A·B on N×N f32, N = 64…4096: the article's chart. Throughput is
//! `Elements(2·N³)`, so criterion's "elem/s" reads as FLOP/s.
//!
//! The article's triple loop runs only up to `max_n_cpu_loop()` (it stays within about a minute
//! there); the threaded loop up to `max_n_cpu_threads()`, nalgebra up to `max_n_cpu_nalgebra()`.

use benches::metrics::{matmul_flops, random_f32};
use benches::timing::{context_synchronize, download_into};
use benches::{cpu, criterion, end_to_end_time, group, kernel_time, matrix_sizes, max_n_cpu_loop, max_n_cpu_nalgebra, max_n_cpu_threads, ok, open_gpu, verify};
use criterion::{BenchmarkGroup, BenchmarkId, Throughput, measurement::WallTime};
use host::ops::matmul::{Epilogue, GemmKernel, MatmulKernel, Transpose, gemm, matmul_into};
use host::{DeviceMatrix, Gpu};

/// f32 products of length-N dot products in different orders differ by rounding.
const TOL: f64 = 1e-5;

fn main() {
    let mut c = criterion();
    let gpu = open_gpu("matmul");
    eprintln!("matmul: throughput is counted as elements = floating-point operations (2·N³ per product): read elem/s as FLOP/s");
    let mut g = group(&mut c, "matmul");
    for n in matrix_sizes() {
        let (a, b) = (random_f32(6, n * n, -1.0, 1.0), random_f32(7, n * n, -1.0, 1.0));
        let mut out = vec![f32::NAN; n * n];
        g.throughput(Throughput::Elements(matmul_flops(n, n, n)));
        if n <= max_n_cpu_loop() {
            g.bench_with_input(BenchmarkId::new("cpu_loop", n), &n, |bch, _| bch.iter(|| cpu::matmul_loop(&a, &b, &mut out, n, n, n)));
        }
        let mut na = cpu::NalgebraMatmul::new(&a, &b, n, n, n);
        if n <= max_n_cpu_threads() {
            g.bench_with_input(BenchmarkId::new("cpu_rayon", n), &n, |bch, _| bch.iter(|| cpu::matmul_par(&a, &b, &mut out, n, n)));
        }
        if n <= max_n_cpu_nalgebra() {
            g.bench_with_input(BenchmarkId::new("cpu_nalgebra", n), &n, |bch, _| bch.iter(|| na.run()));
        }
        if let Some(gpu) = &gpu {
            na.run();
            gpu_series(&mut g, gpu, n, &a, &b, na.result(), &mut out);
        }
    }
    g.finish();
    c.final_summary();
}

fn gpu_series(g: &mut BenchmarkGroup<'_, WallTime>, gpu: &Gpu, n: usize, a: &[f32], b: &[f32], want: &[f32], out: &mut [f32]) {
    let mut da = ok("upload", DeviceMatrix::from_host(gpu, n, n, a));
    let mut db = ok("upload", DeviceMatrix::from_host(gpu, n, n, b));
    let mut dc = ok("alloc", DeviceMatrix::filled(gpu, n, n, f32::NAN));
    ok("matmul", matmul_into(gpu, &da, &db, &mut dc, MatmulKernel::Naive));
    verify("matmul", &ok("download", dc.to_host(gpu)), want, TOL);
    g.bench_with_input(BenchmarkId::new("gpu_kernel_naive", n), &n, |bch, _| {
        bch.iter_custom(|iters| kernel_time(gpu, iters, || matmul_into(gpu, &da, &db, &mut dc, MatmulKernel::Naive)))
    });
    let run_gemm = |da: &DeviceMatrix, db: &DeviceMatrix, dc: &mut DeviceMatrix| {
        gemm(gpu, da, Transpose::No, db, Transpose::No, Epilogue::default(), dc, GemmKernel::Auto)
    };
    ok("fill", dc.fill(gpu, f32::NAN));
    ok("gemm", run_gemm(&da, &db, &mut dc));
    verify("gemm", &ok("download", dc.to_host(gpu)), want, TOL);
    g.bench_with_input(BenchmarkId::new("gpu_kernel_gemm_auto", n), &n, |bch, _| {
        bch.iter_custom(|iters| kernel_time(gpu, iters, || run_gemm(&da, &db, &mut dc)))
    });
    g.bench_with_input(BenchmarkId::new("gpu_end_to_end", n), &n, |bch, _| {
        bch.iter_custom(|iters| {
            end_to_end_time(gpu, iters, || {
                da.copy_from_host(gpu, a)?;
                db.copy_from_host(gpu, b)?;
                context_synchronize(gpu)?;
                run_gemm(&da, &db, &mut dc)?;
                download_into(gpu, dc.as_vector(), out)?;
                Ok(())
            })
        })
    });
    verify("matmul end to end", out, want, TOL);
}

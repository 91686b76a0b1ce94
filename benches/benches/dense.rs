//! Dense layer y = σ(x·Wᵀ + b) at the anchor's shapes (batch×in×out): 1×1024×1024,
//! 256×1024×1024, 4096×4096×4096 (quick: the first two). Throughput is `Elements(2·B·I·O)`:
//! read elem/s as FLOP/s.

use benches::metrics::{matmul_flops, random_f32};
use benches::timing::{context_synchronize, download_into};
use benches::{cpu, criterion, end_to_end_time, group, kernel_time, max_dense_cpu_threads, ok, open_gpu, quick, verify};
use criterion::{BenchmarkGroup, BenchmarkId, Throughput, measurement::WallTime};
use host::ops::dense::dense_into;
use host::ops::matmul::{Epilogue, GemmKernel, Transpose, gemm};
use host::{Activation, DeviceMatrix, DeviceVector, Gpu};

const TOL: f64 = 1e-5;
const ACT: Activation = Activation::Sigmoid;

fn main() {
    let mut c = criterion();
    let gpu = open_gpu("dense");
    eprintln!("dense: throughput is counted as elements = floating-point operations (2·B·I·O): read elem/s as FLOP/s");
    let shapes: &[(usize, usize, usize)] =
        if quick() { &[(1, 1024, 1024), (256, 1024, 1024)] } else { &[(1, 1024, 1024), (256, 1024, 1024), (4096, 4096, 4096)] };
    let mut g = group(&mut c, "dense");
    for &(batch, in_f, out_f) in shapes {
        let id = format!("{batch}x{in_f}x{out_f}");
        let x = random_f32(8, batch * in_f, -1.0, 1.0);
        let w = random_f32(9, out_f * in_f, -0.05, 0.05);
        let bias = random_f32(10, out_f, -0.5, 0.5);
        let mut out = vec![f32::NAN; batch * out_f];
        g.throughput(Throughput::Elements(matmul_flops(batch, out_f, in_f)));
        // The plain loop at 4096³ would take minutes: it runs on the two smaller shapes.
        if batch * in_f * out_f <= 1 << 28 {
            g.bench_with_input(BenchmarkId::new("cpu_loop", &id), &id, |bch, _| bch.iter(|| cpu::dense_loop(&x, &w, &bias, &mut out, batch, in_f, out_f, ACT)));
        }
        if batch * in_f * out_f <= max_dense_cpu_threads() {
            g.bench_with_input(BenchmarkId::new("cpu_rayon", &id), &id, |bch, _| bch.iter(|| cpu::dense_par(&x, &w, &bias, &mut out, in_f, out_f, ACT)));
        }
        let mut nd = cpu::NalgebraDense::new(&x, &w, &bias, batch, in_f, out_f, ACT);
        g.bench_with_input(BenchmarkId::new("cpu_nalgebra", &id), &id, |bch, _| bch.iter(|| nd.run()));
        if let Some(gpu) = &gpu {
            nd.run();
            gpu_series(&mut g, gpu, &id, (batch, in_f, out_f), (&x, &w, &bias), nd.result(), &mut out);
        }
    }
    g.finish();
    c.final_summary();
}

fn gpu_series(
    g: &mut BenchmarkGroup<'_, WallTime>,
    gpu: &Gpu,
    id: &str,
    (batch, in_f, out_f): (usize, usize, usize),
    (x, w, bias): (&[f32], &[f32], &[f32]),
    want: &[f32],
    out: &mut [f32],
) {
    let mut dx = ok("upload", DeviceMatrix::from_host(gpu, batch, in_f, x));
    let dw = ok("upload", DeviceMatrix::from_host(gpu, out_f, in_f, w));
    let db = ok("upload", DeviceVector::from_host(gpu, bias));
    let mut dy = ok("alloc", DeviceMatrix::filled(gpu, batch, out_f, f32::NAN));
    ok("dense", dense_into(gpu, &dx, &dw, &db, ACT, &mut dy));
    verify("dense", &ok("download", dy.to_host(gpu)), want, TOL);
    g.bench_with_input(BenchmarkId::new("gpu_kernel", id), &id, |bch, _| {
        bch.iter_custom(|iters| kernel_time(gpu, iters, || dense_into(gpu, &dx, &dw, &db, ACT, &mut dy)))
    });
    // The same layer as one GEMM with the bias and σ fused into its epilogue (the fastest f32 kernel).
    let fused = Epilogue::bias_act(&db, ACT);
    ok("fill", dy.fill(gpu, f32::NAN));
    ok("gemm", gemm(gpu, &dx, Transpose::No, &dw, Transpose::Yes, fused, &mut dy, GemmKernel::Auto));
    verify("dense via gemm", &ok("download", dy.to_host(gpu)), want, TOL);
    g.bench_with_input(BenchmarkId::new("gpu_kernel_gemm_fused", id), &id, |bch, _| {
        bch.iter_custom(|iters| kernel_time(gpu, iters, || gemm(gpu, &dx, Transpose::No, &dw, Transpose::Yes, fused, &mut dy, GemmKernel::Auto)))
    });
    // Weights stay on the device (as in inference); the batch goes up and the outputs come back.
    g.bench_with_input(BenchmarkId::new("gpu_end_to_end", id), &id, |bch, _| {
        bch.iter_custom(|iters| {
            end_to_end_time(gpu, iters, || {
                dx.copy_from_host(gpu, x)?;
                context_synchronize(gpu)?;
                gemm(gpu, &dx, Transpose::No, &dw, Transpose::Yes, fused, &mut dy, GemmKernel::Auto)?;
                download_into(gpu, dy.as_vector(), out)?;
                Ok(())
            })
        })
    });
    verify("dense end to end", out, want, TOL);
}

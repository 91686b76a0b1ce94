//! The article's matmul comparison: N×N f32 products for N = 64…2048, the CPU triple loop
//! (and nalgebra) against the article's naive GPU kernel (CUDA events) and the GPU including
//! copies, with the speedups; the last column is the fastest f32 kernel of this build
//! (`MatmulKernel::Auto`) for comparison. Every GPU result is checked against the CPU first.
//!
//!     cargo run --release -p benches --example matmul

use benches::metrics::{matmul_flops, random_f32, relative_error, tflop_per_s};
use benches::timing::{Repeat, Stats, context_synchronize, download_into, time_cpu_ms, time_end_to_end_ms, time_kernel_ms};
use host::ops::matmul::{MatmulKernel, matmul_into};
use host::{DeviceMatrix, Error, Gpu};

/// The triple loop runs up to this N (about a second per run at 1024; 2048 takes 8× that).
const MAX_N_LOOP: usize = 1024;

fn main() {
    if let Err(e) = run() {
        eprintln!("matmul: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Error> {
    let gpu = Gpu::new()?;
    println!("GPU: {} (PTX {})", gpu.info().name, gpu.ptx_arch());
    println!("C = A·B, N×N f32; medians; speedup = CPU time / GPU time; CPU loop up to N = {MAX_N_LOOP}");
    println!(
        "{:>5} | {:>10} | {:>10} | {:>10} | {:>12} | {:>10} | {:>15} | {:>17} | {:>16}",
        "N", "CPU loop", "nalgebra", "GPU kernel", "GPU + copies", "TFLOP/s", "speedup vs loop", "speedup vs nalgebra", "fastest kernel (Auto)"
    );
    for n in [64usize, 128, 256, 512, 1024, 2048] {
        let (a, b) = (random_f32(3, n * n, -1.0, 1.0), random_f32(4, n * n, -1.0, 1.0));
        let mut c_loop = vec![f32::NAN; n * n];
        let cpu_loop = (n <= MAX_N_LOOP).then(|| {
            Stats::from_sorted(&time_cpu_ms(Repeat::new(0, 2, 20, 0.5), || host::reference::matmul_naive_into(&a, &b, &mut c_loop, n, n, n))).median_ms
        });
        let (na, nb) = (nalgebra::DMatrix::from_row_slice(n, n, &a), nalgebra::DMatrix::from_row_slice(n, n, &b));
        let mut nc = nalgebra::DMatrix::<f32>::zeros(n, n);
        let nalg = Stats::from_sorted(&time_cpu_ms(Repeat::new(1, 3, 50, 0.5), || nc.gemm(1.0, &na, &nb, 0.0))).median_ms;
        let want: Vec<f32> = nc.transpose().as_slice().to_vec();
        if cpu_loop.is_some() {
            check("CPU loop vs nalgebra", n, &c_loop, &want)?;
        }
        let mut da = DeviceMatrix::from_host(&gpu, n, n, &a)?;
        let mut db = DeviceMatrix::from_host(&gpu, n, n, &b)?;
        let mut dc = DeviceMatrix::filled(&gpu, n, n, f32::NAN)?;
        // The article's kernel: one thread per output element.
        let kernel = MatmulKernel::Naive;
        matmul_into(&gpu, &da, &db, &mut dc, kernel)?;
        check("GPU kernel", n, &dc.to_host(&gpu)?, &want)?;
        let k = Stats::from_sorted(&time_kernel_ms(&gpu, Repeat::new(3, 10, 200, 0.3), || matmul_into(&gpu, &da, &db, &mut dc, kernel))?).median_ms;
        let mut c = vec![f32::NAN; n * n];
        let e2e = Stats::from_sorted(&time_end_to_end_ms(&gpu, Repeat::new(2, 5, 100, 0.3), || {
            da.copy_from_host(&gpu, &a)?;
            db.copy_from_host(&gpu, &b)?;
            context_synchronize(&gpu)?;
            matmul_into(&gpu, &da, &db, &mut dc, kernel)?;
            download_into(&gpu, dc.as_vector(), &mut c)?;
            Ok(())
        })?)
        .median_ms;
        check("GPU + copies", n, &c, &want)?;
        // The fastest f32 kernel of this build, for comparison with the article's.
        dc.fill(&gpu, f32::NAN)?;
        matmul_into(&gpu, &da, &db, &mut dc, MatmulKernel::Auto)?;
        check("GPU kernel (Auto)", n, &dc.to_host(&gpu)?, &want)?;
        let auto =
            Stats::from_sorted(&time_kernel_ms(&gpu, Repeat::new(3, 10, 200, 0.3), || matmul_into(&gpu, &da, &db, &mut dc, MatmulKernel::Auto))?).median_ms;
        println!(
            "{n:>5} | {:>10} | {:>10} | {:>10} | {:>12} | {:>10.2} | {:>15} | {:>18.1}× | {:>9} ({:.1} TFLOP/s)",
            cpu_loop.map_or("—".into(), fmt_ms),
            fmt_ms(nalg),
            fmt_ms(k),
            fmt_ms(e2e),
            tflop_per_s(matmul_flops(n, n, n) as f64, k),
            cpu_loop.map_or("—".into(), |c| format!("{:.0}×", c / k)),
            nalg / k,
            fmt_ms(auto),
            tflop_per_s(matmul_flops(n, n, n) as f64, auto)
        );
    }
    println!("all GPU results match nalgebra to a relative L2 error below 1e-5");
    Ok(())
}

fn check(what: &str, n: usize, got: &[f32], want: &[f32]) -> Result<(), Error> {
    let err = relative_error(got, want);
    if err < 1e-5 {
        Ok(())
    } else {
        Err(Error::InvalidArgument { op: "matmul", reason: format!("{what} at N = {n}: differs from nalgebra (relative error {err:.2e})") })
    }
}

fn fmt_ms(ms: f64) -> String {
    if ms < 1.0 { format!("{:.1} µs", ms * 1e3) } else { format!("{ms:.2} ms") }
}

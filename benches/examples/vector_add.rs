//! The article's vector-add table: for n = 10³…10⁸, the CPU loop's time against the GPU
//! kernel's (CUDA events, inputs already on the device) and the GPU's time including the copies
//! to and from the device, with the speedups. Every GPU result is checked against the CPU first.
//!
//!     cargo run --release -p benches --example vector_add

use benches::metrics::{random_f32, relative_error};
use benches::timing::{Repeat, Stats, context_synchronize, download_into, time_cpu_ms, time_end_to_end_ms, time_kernel_ms};
use host::ops::elementwise::{VecAddKernel, vec_add_into};
use host::{DeviceVector, Error, Gpu};

fn main() {
    if let Err(e) = run() {
        eprintln!("vector_add: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Error> {
    let gpu = Gpu::new()?;
    println!("GPU: {} (PTX {})", gpu.info().name, gpu.ptx_arch());
    println!("vector add c = a + b, f32; medians; speedup = CPU time / GPU time");
    println!("{:>11} | {:>11} | {:>11} | {:>11} | {:>14} | {:>15}", "n", "CPU loop", "GPU kernel", "GPU + copies", "kernel speedup", "+ copies speedup");
    for n in [1_000usize, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000] {
        let (a, b) = (random_f32(1, n, -1.0, 1.0), random_f32(2, n, -1.0, 1.0));
        let mut want = vec![f32::NAN; n];
        let cpu = Stats::from_sorted(&time_cpu_ms(Repeat::new(1, 5, 200, 0.3), || {
            for i in 0..n {
                want[i] = a[i] + b[i];
            }
        }))
        .median_ms;
        let mut da = DeviceVector::from_host(&gpu, &a)?;
        let mut db = DeviceVector::from_host(&gpu, &b)?;
        let mut dc = DeviceVector::filled(&gpu, n, f32::NAN)?;
        // The article's kernel: one thread per element.
        let kernel = VecAddKernel::Naive;
        vec_add_into(&gpu, &da, &db, &mut dc, kernel)?;
        check(n, &dc.to_host(&gpu)?, &want)?;
        let gpu_ms = Stats::from_sorted(&time_kernel_ms(&gpu, Repeat::new(3, 20, 500, 0.2), || vec_add_into(&gpu, &da, &db, &mut dc, kernel))?).median_ms;
        let mut c = vec![f32::NAN; n];
        let e2e = Stats::from_sorted(&time_end_to_end_ms(&gpu, Repeat::new(2, 5, 100, 0.3), || {
            da.copy_from_host(&gpu, &a)?;
            db.copy_from_host(&gpu, &b)?;
            context_synchronize(&gpu)?;
            vec_add_into(&gpu, &da, &db, &mut dc, kernel)?;
            download_into(&gpu, &dc, &mut c)?;
            Ok(())
        })?)
        .median_ms;
        check(n, &c, &want)?;
        println!("{n:>11} | {:>11} | {:>11} | {:>12} | {:>13.2}× | {:>14.2}×", fmt_ms(cpu), fmt_ms(gpu_ms), fmt_ms(e2e), cpu / gpu_ms, cpu / e2e);
    }
    println!("all GPU results equal the CPU's exactly");
    Ok(())
}

fn check(n: usize, got: &[f32], want: &[f32]) -> Result<(), Error> {
    let err = relative_error(got, want);
    if err == 0.0 {
        Ok(())
    } else {
        Err(Error::InvalidArgument { op: "vector_add", reason: format!("n = {n}: GPU result differs from the CPU (relative error {err:.2e})") })
    }
}

fn fmt_ms(ms: f64) -> String {
    if ms < 1.0 { format!("{:.1} µs", ms * 1e3) } else { format!("{ms:.2} ms") }
}

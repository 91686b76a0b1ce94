//! Runs the example's kernels once at a large size, checks them against the CPU, and times them
//! with CUDA events on the GPU's stream (a host clock around an asynchronous launch would time
//! only the launch).
//!
//!     cargo run --release -p custom-kernel

use cust::event::{Event, EventFlags};
use custom_kernel::{KERNELS, cpu, first_mismatch, saxpy, transpose};
use host::{DeviceMatrix, DeviceVector, Error, Gpu, LoadedKernels};

/// Median milliseconds of `runs` launches of `f`, each between two events.
fn time_ms(gpu: &Gpu, runs: usize, mut f: impl FnMut() -> host::Result<()>) -> Result<f64, String> {
    let (start, stop) = (Event::new(EventFlags::DEFAULT).map_err(|e| e.to_string())?, Event::new(EventFlags::DEFAULT).map_err(|e| e.to_string())?);
    f().map_err(|e| e.to_string())?; // warm-up
    let mut ms = Vec::with_capacity(runs);
    for _ in 0..runs {
        start.record(gpu.stream()).map_err(|e| e.to_string())?;
        f().map_err(|e| e.to_string())?;
        stop.record(gpu.stream()).map_err(|e| e.to_string())?;
        stop.synchronize().map_err(|e| e.to_string())?;
        ms.push(f64::from(stop.elapsed_time_f32(&start).map_err(|e| e.to_string())?));
    }
    ms.sort_by(f64::total_cmp);
    Ok(ms[runs / 2])
}

fn run(gpu: &Gpu, kernels: &LoadedKernels) -> Result<(), String> {
    let g = |e: Error| e.to_string();
    let n = 1 << 24;
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 1e-3).collect();
    let (dx, mut dy) = (DeviceVector::from_host(gpu, &x).map_err(g)?, DeviceVector::filled(gpu, n, 1.0).map_err(g)?);
    saxpy(kernels, 2.0, &dx, &mut dy).map_err(g)?;
    let mut want = vec![1.0; n];
    cpu::saxpy(2.0, &x, &mut want);
    if let Some((i, got, w)) = first_mismatch(&dy.to_host(gpu).map_err(g)?, &want, 1e-6, 1e-6) {
        return Err(format!("saxpy differs from the CPU at {i}: {got} vs {w}"));
    }
    let ms = time_ms(gpu, 20, || saxpy(kernels, 2.0, &dx, &mut dy))?;
    println!("saxpy, 2^24 f32: {:.3} ms, {:.0} GB/s (read x and y, write y)", ms, 12.0 * n as f64 / (ms * 1e6));

    let (rows, cols) = (4096, 4096);
    let src: Vec<f32> = (0..rows * cols).map(|i| i as f32).collect();
    let dsrc = DeviceMatrix::from_host(gpu, rows, cols, &src).map_err(g)?;
    let mut ddst = DeviceMatrix::zeros(gpu, cols, rows).map_err(g)?;
    transpose(kernels, &dsrc, &mut ddst).map_err(g)?;
    if ddst.to_host(gpu).map_err(g)? != cpu::transpose(&src, rows, cols) {
        return Err("transpose differs from the CPU".into());
    }
    let ms = time_ms(gpu, 20, || transpose(kernels, &dsrc, &mut ddst))?;
    println!("transpose, 4096² f32: {:.3} ms, {:.0} GB/s (read + write)", ms, 8.0 * (rows * cols) as f64 / (ms * 1e6));
    Ok(())
}

fn main() {
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("custom-kernel: {e}");
            std::process::exit(1);
        }
    };
    let result = gpu.load_kernels(&KERNELS).map_err(|e| e.to_string()).and_then(|k| {
        println!("GPU {}, kernels from the {} {:?}", gpu.info().name, k.arch(), k.image());
        run(&gpu, &k)
    });
    if let Err(e) = result {
        eprintln!("custom-kernel: {e}");
        std::process::exit(1);
    }
}

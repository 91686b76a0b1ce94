//! The measuring code: timing ([`timing`]), work, units, inputs and accuracy ([`metrics`]), the
//! PyTorch anchor ([`anchor`]), the CPU baselines ([`cpu`]), the charts' font and PNG output
//! ([`png_chart`]); the binaries `bench_report` (the
//! CPU-vs-GPU report with its charts) and `gemm_ladder`; and the shared pieces of the criterion
//! benches in `benches/benches/`:
//! the size sweeps, the criterion settings, opening the GPU (or saying why the GPU series are
//! skipped), and the two GPU timings criterion's `iter_custom` reports:
//!
//! - **kernel**: CUDA events around `iters` back-to-back launches on the GPU's stream;
//! - **end to end**: the host clock around upload, launch and download, as a caller of the op
//!   sees it.
//!
//! `BENCH_QUICK=1` shortens the sweeps and the measurement times.

pub mod anchor;
pub mod cpu;
pub mod graph_timing;
pub mod metrics;
pub mod png_chart;
pub mod timing;
pub mod torch_times;

use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, SamplingMode, measurement::WallTime};
use cust::event::{Event, EventFlags};
use host::{Error, Gpu};

/// Whether `BENCH_QUICK` asks for the short sweep.
pub fn quick() -> bool {
    std::env::var("BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Criterion with modest sample counts (the whole `cargo bench` runs on two cores), no plots,
/// and the command line's options (filters, `--sample-size`, …) applied on top.
pub fn criterion() -> Criterion {
    let c = Criterion::default().without_plots().sample_size(10);
    let c = if quick() {
        c.warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_millis(600))
    } else {
        c.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2))
    };
    c.configure_from_args()
}

/// A group for an op family; flat sampling, since the slow CPU series take a second or more
/// per run and criterion's linear sampling would run them 55 times.
pub fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat);
    g
}

/// Vector lengths, from where the CPU wins to where the GPU does: 10³…10⁸ (quick: 10³, 10⁵, 10⁷).
pub fn vector_sizes() -> Vec<usize> {
    if quick() { vec![1_000, 100_000, 10_000_000] } else { vec![1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000] }
}

/// Square matrix sizes N, 64…4096 (quick: 64, 256, 1024).
pub fn matrix_sizes() -> Vec<usize> {
    if quick() { vec![64, 256, 1024] } else { vec![64, 128, 256, 512, 1024, 2048, 4096] }
}

/// Largest N at which the article's O(N³) triple loop still runs (each of ten samples takes
/// a few seconds at 1024 on one core; 2048 would take eight times that).
pub fn max_n_cpu_loop() -> usize {
    if quick() { 256 } else { 1024 }
}

/// Largest N for the threaded i-k-j loop (at 4096 one run takes several seconds on two cores).
pub fn max_n_cpu_threads() -> usize {
    if quick() { 1024 } else { 2048 }
}

/// Largest N for nalgebra's blocked product (a few seconds per run at 4096 on one core).
pub fn max_n_cpu_nalgebra() -> usize {
    if quick() { 1024 } else { 4096 }
}

/// Largest multiply-add count (batch·in·out) of a dense layer for the threaded CPU series:
/// the two smaller anchor shapes; 4096³ runs only with nalgebra.
pub fn max_dense_cpu_threads() -> usize {
    1 << 28
}

/// The GPU for the GPU series, or `None` with the reason printed when this machine has none.
/// Any other failure to start (a driver error, stale PTX) ends the bench with that error.
pub fn open_gpu(bench: &str) -> Option<Gpu> {
    match Gpu::new() {
        Ok(gpu) => {
            let (major, minor) = gpu.info().compute_capability;
            eprintln!("{bench}: GPU {} (compute capability {major}.{minor}, PTX {})", gpu.info().name, gpu.ptx_arch());
            Some(gpu)
        }
        Err(Error::NoDevice) => {
            eprintln!("{bench}: GPU series skipped: {}", Error::NoDevice);
            None
        }
        Err(e) => exit_with(bench, e),
    }
}

/// Prints a GPU error and ends the bench run with a failure status (criterion closures cannot
/// return errors).
pub fn exit_with(what: &str, e: Error) -> ! {
    eprintln!("{what}: {e}");
    std::process::exit(1)
}

/// Unwraps a GPU result or ends the run with its error.
pub fn ok<T>(what: &str, r: host::Result<T>) -> T {
    r.unwrap_or_else(|e| exit_with(what, e))
}

/// Kernel time for criterion's `iter_custom`: `iters` runs of `f` queued back to back between
/// two CUDA events on the GPU's stream, so launch gaps are hidden as they are in a real
/// pipeline of kernels.
pub fn kernel_time(gpu: &Gpu, iters: u64, mut f: impl FnMut() -> host::Result<()>) -> Duration {
    let r = (|| -> host::Result<Duration> {
        gpu.bind()?;
        use timing::cuda;
        let start = Event::new(EventFlags::DEFAULT).map_err(cuda("cuEventCreate"))?;
        let stop = Event::new(EventFlags::DEFAULT).map_err(cuda("cuEventCreate"))?;
        start.record(gpu.stream()).map_err(cuda("cuEventRecord"))?;
        for _ in 0..iters {
            f()?;
        }
        stop.record(gpu.stream()).map_err(cuda("cuEventRecord"))?;
        stop.synchronize().map_err(cuda("cuEventSynchronize"))?;
        let ms = stop.elapsed_time_f32(&start).map_err(cuda("cuEventElapsedTime"))?;
        Ok(Duration::from_secs_f64(f64::from(ms) * 1e-3))
    })();
    ok("GPU kernel timing", r)
}

/// End-to-end time for criterion's `iter_custom`: the host clock around `iters` runs of `f`
/// (which uploads, launches and downloads), each finished before the next starts.
pub fn end_to_end_time(gpu: &Gpu, iters: u64, mut f: impl FnMut() -> host::Result<()>) -> Duration {
    let t = std::time::Instant::now();
    for _ in 0..iters {
        ok("GPU end-to-end run", f().and_then(|()| gpu.synchronize()));
    }
    t.elapsed()
}

/// Checks a GPU result against the CPU's before anything is timed; ends the run if it differs.
pub fn verify(op: &'static str, got: &[f32], want: &[f32], tol: f64) {
    let err = ok(op, metrics::verify(op, got, want, tol));
    eprintln!("{op}: GPU matches CPU (relative error {err:.1e})");
}

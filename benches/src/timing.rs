//! Timing: GPU work between CUDA events recorded on the GPU's stream (host clocks around an
//! asynchronous launch would time only the launch), CPU work and end-to-end work (copies
//! included) with the host clock, repeated to a budget and summarized by medians; and the
//! device's copy-bandwidth ceiling.

use std::time::Instant;

use cust::error::CudaError;
use cust::event::{Event, EventFlags};
use host::{DeviceVector, Error, Gpu, Result};

use crate::metrics::gb_per_s;

/// A cust error as the runtime's typed error, naming the failed call.
pub(crate) fn cuda(call: &'static str) -> impl Fn(CudaError) -> Error {
    move |e| Error::Cuda { call, code: e as u32, message: e.to_string() }
}

/// Checks a raw driver result.
fn check(result: cust::sys::CUresult, call: &'static str) -> Result<()> {
    match result {
        cust::sys::cudaError_enum::CUDA_SUCCESS => Ok(()),
        other => Err(Error::Cuda { call, code: other as u32, message: format!("{other:?}") }),
    }
}

/// Times `f` (which queues GPU work) `iters` times after `warmup` runs; returns each run's
/// milliseconds, sorted.
pub fn time_gpu_ms(gpu: &Gpu, warmup: usize, iters: usize, mut f: impl FnMut() -> Result<()>) -> Result<Vec<f64>> {
    gpu.bind()?;
    for _ in 0..warmup {
        f()?;
    }
    gpu.synchronize()?;
    let start = Event::new(EventFlags::DEFAULT).map_err(cuda("cuEventCreate"))?;
    let stop = Event::new(EventFlags::DEFAULT).map_err(cuda("cuEventCreate"))?;
    let mut times = Vec::with_capacity(iters);
    for _ in 0..iters {
        start.record(gpu.stream()).map_err(cuda("cuEventRecord"))?;
        f()?;
        stop.record(gpu.stream()).map_err(cuda("cuEventRecord"))?;
        stop.synchronize().map_err(cuda("cuEventSynchronize"))?;
        times.push(f64::from(stop.elapsed_time_f32(&start).map_err(cuda("cuEventElapsedTime"))?));
    }
    times.sort_by(f64::total_cmp);
    Ok(times)
}

/// Median of sorted samples.
pub fn median(sorted: &[f64]) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let n = sorted.len();
    if n % 2 == 1 { sorted[n / 2] } else { 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]) }
}

/// Summary of sorted samples in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    pub samples: usize,
}

impl Stats {
    /// From samples sorted ascending (as every timer here returns them).
    pub fn from_sorted(sorted: &[f64]) -> Stats {
        Stats {
            median_ms: median(sorted),
            min_ms: sorted.first().copied().unwrap_or(f64::NAN),
            max_ms: sorted.last().copied().unwrap_or(f64::NAN),
            samples: sorted.len(),
        }
    }
}

/// How many times to repeat a measurement: at least `min` runs, then more until `budget_s`
/// seconds of runs have passed or `max` runs are done.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Repeat {
    pub warmup: usize,
    pub min: usize,
    pub max: usize,
    pub budget_s: f64,
}

impl Repeat {
    pub const fn new(warmup: usize, min: usize, max: usize, budget_s: f64) -> Repeat {
        Repeat { warmup, min, max, budget_s }
    }

    fn more(&self, done: usize, started: Instant) -> bool {
        done < self.min || (done < self.max && started.elapsed().as_secs_f64() < self.budget_s)
    }
}

/// Times a CPU function with the host clock; returns each run's milliseconds, sorted.
pub fn time_cpu_ms(rep: Repeat, mut f: impl FnMut()) -> Vec<f64> {
    for _ in 0..rep.warmup {
        f();
    }
    let started = Instant::now();
    let mut times = Vec::new();
    while rep.more(times.len(), started) {
        let t = Instant::now();
        f();
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    times
}

/// Times GPU work with CUDA events around each run (see [`time_gpu_ms`]), repeating as `rep`
/// says; returns each run's milliseconds, sorted.
pub fn time_kernel_ms(gpu: &Gpu, rep: Repeat, mut f: impl FnMut() -> Result<()>) -> Result<Vec<f64>> {
    // One timed run first tells how many fit in the budget.
    let first = time_gpu_ms(gpu, rep.warmup, 1, &mut f)?;
    let per_run_s = (first[0] * 1e-3).max(1e-6);
    let iters = ((rep.budget_s / per_run_s) as usize).clamp(rep.min.max(1), rep.max.max(1));
    let mut times = time_gpu_ms(gpu, 0, iters, &mut f)?;
    times.extend(first);
    times.sort_by(f64::total_cmp);
    Ok(times)
}

/// Times work that starts and ends on the host (upload, kernel, download) with the host clock,
/// waiting for the GPU's stream at the end of every run; returns milliseconds, sorted.
pub fn time_end_to_end_ms(gpu: &Gpu, rep: Repeat, mut f: impl FnMut() -> Result<()>) -> Result<Vec<f64>> {
    for _ in 0..rep.warmup {
        f()?;
        gpu.synchronize()?;
    }
    let started = Instant::now();
    let mut times = Vec::new();
    while rep.more(times.len(), started) {
        let t = Instant::now();
        f()?;
        gpu.synchronize()?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    Ok(times)
}

/// Waits until every copy and kernel of the current context has finished, whatever stream it
/// was queued on: the end-to-end measurements call it between the uploads and the launch, so
/// the kernel never overlaps an upload whichever stream that used.
pub fn context_synchronize(gpu: &Gpu) -> Result<()> {
    gpu.bind()?;
    // SAFETY: no arguments; waits for the current context.
    let r = unsafe { cust::sys::cuCtxSynchronize() };
    check(r, "cuCtxSynchronize")
}

/// Copies a device array into an existing host slice of the same length (pageable or
/// page-locked), after the GPU's queued work. Unlike [`DeviceVector::to_host`] it allocates
/// nothing, so a timed download is the copy alone and not also the first touch of new pages.
pub fn download_into(gpu: &Gpu, src: &DeviceVector<f32>, dst: &mut [f32]) -> Result<()> {
    if dst.len() != src.len() {
        return Err(Error::ShapeMismatch { op: "download_into", expected: format!("{} elements", src.len()), got: format!("{}", dst.len()) });
    }
    if dst.is_empty() {
        return Ok(());
    }
    gpu.synchronize()?;
    // SAFETY: `dst` is a live host slice of exactly the device array's length; the stream's
    // writes to `src` have finished.
    let r = unsafe { cust::sys::cuMemcpyDtoH_v2(dst.as_mut_ptr().cast(), src.device_ptr(), std::mem::size_of_val(dst)) };
    check(r, "cuMemcpyDtoH")
}

/// The memory-bandwidth ceiling: a device-to-device copy of `bytes` bytes (of non-zero data) on
/// the GPU's stream, timed with events; GB/s counting bytes read plus bytes written. Returns
/// (median GB/s, samples).
pub fn copy_bandwidth_gbs(gpu: &Gpu, bytes: usize, iters: usize) -> Result<(f64, Stats)> {
    let n = bytes / size_of::<f32>();
    if n == 0 {
        return Err(Error::InvalidArgument { op: "copy_bandwidth_gbs", reason: "copy of zero bytes".into() });
    }
    let src = DeviceVector::<f32>::filled(gpu, n, 1.234_567)?;
    let dst = DeviceVector::<f32>::filled(gpu, n, -7.0)?;
    let len = n * size_of::<f32>();
    let times = time_gpu_ms(gpu, 3, iters.max(1), || {
        // SAFETY: both buffers hold `len` bytes and do not overlap; the copy is queued on our
        // stream, after the fills.
        let r = unsafe { cust::sys::cuMemcpyDtoDAsync_v2(dst.device_ptr(), src.device_ptr(), len, gpu.stream().as_inner()) };
        check(r, "cuMemcpyDtoDAsync")
    })?;
    let check = dst.to_host(gpu)?;
    if check.iter().step_by(4099).any(|&v| v != 1.234_567) {
        return Err(Error::InvalidArgument { op: "copy_bandwidth_gbs", reason: "device copy produced wrong data".into() });
    }
    let stats = Stats::from_sorted(&times);
    Ok((gb_per_s(2.0 * len as f64, stats.median_ms), stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_timing_repeats_at_least_min_times() {
        let r = Repeat::new(0, 3, 5, 0.0);
        assert_eq!(time_cpu_ms(r, || {}).len(), 3);
        assert_eq!(median(&[1.0, 2.0, 4.0]), 2.0);
        assert_eq!(median(&[1.0, 2.0, 4.0, 8.0]), 3.0);
        assert!(median(&[]).is_nan());
    }
}

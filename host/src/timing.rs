//! Timing GPU work with CUDA events recorded on the GPU's stream (host clocks around an
//! asynchronous launch would time only the launch).

use cust::event::{Event, EventFlags};

use crate::context::Gpu;
use crate::error::{CudaContext, Result};

/// Times `f` (which queues GPU work) `iters` times after `warmup` runs; returns each run's
/// milliseconds, sorted.
pub fn time_gpu_ms(gpu: &Gpu, warmup: usize, iters: usize, mut f: impl FnMut() -> Result<()>) -> Result<Vec<f64>> {
    gpu.bind()?;
    for _ in 0..warmup {
        f()?;
    }
    gpu.synchronize()?;
    let start = Event::new(EventFlags::DEFAULT).during("cuEventCreate")?;
    let stop = Event::new(EventFlags::DEFAULT).during("cuEventCreate")?;
    let mut times = Vec::with_capacity(iters);
    for _ in 0..iters {
        start.record(gpu.stream()).during("cuEventRecord")?;
        f()?;
        stop.record(gpu.stream()).during("cuEventRecord")?;
        stop.synchronize().during("cuEventSynchronize")?;
        times.push(f64::from(stop.elapsed_time_f32(&start).during("cuEventElapsedTime")?));
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

//! Measurement support shared by the criterion benches (`benches/`) and the report example
//! (`host/examples/bench_report.rs`): host-clock and event timing with medians, end-to-end
//! timing that includes the host↔device copies, the device's copy-bandwidth ceiling, throughput
//! units, fast seeded inputs, an accuracy check, and the PyTorch anchor's CSV.
//!
//! Nothing here plots or depends on more than the host library itself.

use std::time::Instant;

use crate::buffer::DeviceVector;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::timing::{median, time_gpu_ms};

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
        Repeat {
            warmup,
            min,
            max,
            budget_s,
        }
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
pub fn time_kernel_ms(
    gpu: &Gpu,
    rep: Repeat,
    mut f: impl FnMut() -> Result<()>,
) -> Result<Vec<f64>> {
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
pub fn time_end_to_end_ms(
    gpu: &Gpu,
    rep: Repeat,
    mut f: impl FnMut() -> Result<()>,
) -> Result<Vec<f64>> {
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
    crate::error::check(r, "cuCtxSynchronize")
}

/// Copies a device array into an existing host slice of the same length (pageable or
/// page-locked), after the GPU's queued work. Unlike [`DeviceVector::to_host`] it allocates
/// nothing, so a timed download is the copy alone and not also the first touch of new pages.
pub fn download_into(gpu: &Gpu, src: &DeviceVector<f32>, dst: &mut [f32]) -> Result<()> {
    if dst.len() != src.len() {
        return Err(Error::ShapeMismatch {
            op: "download_into",
            expected: format!("{} elements", src.len()),
            got: format!("{}", dst.len()),
        });
    }
    if dst.is_empty() {
        return Ok(());
    }
    gpu.synchronize()?;
    // SAFETY: `dst` is a live host slice of exactly the device array's length; the stream's
    // writes to `src` have finished.
    let r = unsafe {
        cust::sys::cuMemcpyDtoH_v2(
            dst.as_mut_ptr().cast(),
            src.device_ptr(),
            std::mem::size_of_val(dst),
        )
    };
    crate::error::check(r, "cuMemcpyDtoH")
}

/// The memory-bandwidth ceiling: a device-to-device copy of `bytes` bytes (of non-zero data) on
/// the GPU's stream, timed with events; GB/s counting bytes read plus bytes written. Returns
/// (median GB/s, samples).
pub fn copy_bandwidth_gbs(gpu: &Gpu, bytes: usize, iters: usize) -> Result<(f64, Stats)> {
    let n = bytes / size_of::<f32>();
    if n == 0 {
        return Err(Error::InvalidArgument {
            op: "copy_bandwidth_gbs",
            reason: "copy of zero bytes".into(),
        });
    }
    let src = DeviceVector::<f32>::filled(gpu, n, 1.234_567)?;
    let dst = DeviceVector::<f32>::filled(gpu, n, -7.0)?;
    let len = n * size_of::<f32>();
    let times = time_gpu_ms(gpu, 3, iters.max(1), || {
        // SAFETY: both buffers hold `len` bytes and do not overlap; the copy is queued on our
        // stream, after the fills.
        let r = unsafe {
            cust::sys::cuMemcpyDtoDAsync_v2(
                dst.device_ptr(),
                src.device_ptr(),
                len,
                gpu.stream().as_inner(),
            )
        };
        crate::error::check(r, "cuMemcpyDtoDAsync")
    })?;
    let check = dst.to_host(gpu)?;
    if check.iter().step_by(4099).any(|&v| v != 1.234_567) {
        return Err(Error::InvalidArgument {
            op: "copy_bandwidth_gbs",
            reason: "device copy produced wrong data".into(),
        });
    }
    let stats = Stats::from_sorted(&times);
    Ok((gb_per_s(2.0 * len as f64, stats.median_ms), stats))
}

/// Bytes over milliseconds, in GB/s (10⁹ bytes per second).
pub fn gb_per_s(bytes: f64, ms: f64) -> f64 {
    bytes / (ms * 1e-3) / 1e9
}

/// Floating-point operations over milliseconds, in TFLOP/s.
pub fn tflop_per_s(flops: f64, ms: f64) -> f64 {
    flops / (ms * 1e-3) / 1e12
}

/// Bytes an elementwise f32 op moves at the least: each input read once, each output written once.
pub fn elementwise_bytes(elems: usize, inputs: usize, outputs: usize) -> u64 {
    (elems * (inputs + outputs) * size_of::<f32>()) as u64
}

/// Floating-point operations of an m×k by k×n product: one multiply and one add per term.
pub fn matmul_flops(m: usize, n: usize, k: usize) -> u64 {
    2 * (m as u64) * (n as u64) * (k as u64)
}

/// `n` values uniform in [lo, hi) from a seeded SplitMix64 stream: fast enough for 10⁸ inputs,
/// and never all zeros (timing on zeros can flatter a kernel).
pub fn random_f32(seed: u64, n: usize, lo: f32, hi: f32) -> Vec<f32> {
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    let span = hi - lo;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let unit = (z >> 40) as f32 / (1u64 << 24) as f32;
            lo + span * unit
        })
        .collect()
}

/// ‖got − want‖₂ / ‖want‖₂ accumulated in f64; infinite if the lengths differ or `got` has a
/// NaN or infinity where `want` is finite.
pub fn relative_error(got: &[f32], want: &[f32]) -> f64 {
    if got.len() != want.len() {
        return f64::INFINITY;
    }
    let (mut diff, mut norm) = (0.0f64, 0.0f64);
    for (&g, &w) in got.iter().zip(want) {
        if !g.is_finite() && w.is_finite() {
            return f64::INFINITY;
        }
        let d = f64::from(g) - f64::from(w);
        diff += d * d;
        norm += f64::from(w) * f64::from(w);
    }
    if norm == 0.0 {
        diff.sqrt()
    } else {
        (diff / norm).sqrt()
    }
}

/// Fails with a typed error unless `got` matches `want` to a relative error of `tol`.
pub fn verify(op: &'static str, got: &[f32], want: &[f32], tol: f64) -> Result<f64> {
    let err = relative_error(got, want);
    if err <= tol {
        Ok(err)
    } else {
        Err(Error::InvalidArgument {
            op,
            reason: format!(
                "GPU result differs from the CPU: relative error {err:.3e} > {tol:.1e}"
            ),
        })
    }
}

/// One line of the PyTorch anchor (`/work/shared/anchors/torch_anchor.py`):
/// `op,shape,dtype,median_ms,metric`, the metric GB/s, TFLOP/s or samples/s by op.
#[derive(Debug, Clone, PartialEq)]
pub struct AnchorRow {
    pub op: String,
    pub shape: String,
    pub dtype: String,
    pub median_ms: f64,
    pub metric: f64,
}

/// The anchor's measurement lines; other lines (its `gpu … torch …` header) are skipped.
pub fn parse_anchor_csv(text: &str) -> Vec<AnchorRow> {
    text.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.trim().split(',').collect();
            if f.len() != 5 {
                return None;
            }
            Some(AnchorRow {
                op: f[0].to_string(),
                shape: f[1].to_string(),
                dtype: f[2].to_string(),
                median_ms: f[3].parse().ok()?,
                metric: f[4].parse().ok()?,
            })
        })
        .collect()
}

/// The anchor row for `op` at `shape` in `dtype`, if the anchor measured it.
pub fn find_anchor<'a>(
    rows: &'a [AnchorRow],
    op: &str,
    shape: &str,
    dtype: &str,
) -> Option<&'a AnchorRow> {
    rows.iter()
        .find(|r| r.op == op && r.shape == shape && r.dtype == dtype)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchor_csv_lines_parse_and_the_header_is_skipped() {
        let rows = parse_anchor_csv(
            "gpu NVIDIA H100 torch 2.5\nvec_add,1024,f32,0.0061,2.01\nlinear_sigmoid,256x1024x1024,f32,0.05,10.7\n",
        );
        assert_eq!(rows.len(), 2);
        assert_eq!(
            find_anchor(&rows, "vec_add", "1024", "f32").map(|r| r.metric),
            Some(2.01)
        );
        assert_eq!(
            find_anchor(&rows, "linear_sigmoid", "256x1024x1024", "f32").map(|r| r.median_ms),
            Some(0.05)
        );
        assert!(find_anchor(&rows, "vec_add", "1024", "bf16").is_none());
    }

    #[test]
    fn inputs_are_seeded_in_range_and_not_constant() {
        let a = random_f32(7, 10_000, -1.0, 1.0);
        assert_eq!(a, random_f32(7, 10_000, -1.0, 1.0));
        assert!(a.iter().all(|&v| (-1.0..1.0).contains(&v)));
        assert!(a.iter().filter(|&&v| v == 0.0).count() < 10);
        assert_ne!(a, random_f32(8, 10_000, -1.0, 1.0));
    }

    #[test]
    fn units_and_errors() {
        assert!((gb_per_s(3e9, 1000.0) - 3.0).abs() < 1e-12);
        assert!((tflop_per_s(2e12, 1000.0) - 2.0).abs() < 1e-12);
        assert_eq!(elementwise_bytes(10, 2, 1), 120);
        assert_eq!(matmul_flops(2, 3, 4), 48);
        assert_eq!(relative_error(&[1.0, 2.0], &[1.0, 2.0]), 0.0);
        assert!(relative_error(&[f32::NAN], &[1.0]).is_infinite());
        assert!(verify("t", &[1.0, 2.0], &[1.0, 2.1], 1e-3).is_err());
        let r = Repeat::new(0, 3, 5, 0.0);
        assert_eq!(time_cpu_ms(r, || {}).len(), 3);
    }
}

//! Reductions: a dense layer's bias gradient fused with its activation derivative, column sums,
//! and a scaled sum accumulated on the device.

pub use kernels::math::Activation;
use kernels::reduce::{self as k, COL_SUM_BLOCK, COL_SUM_SHARED_BYTES, SUM_BLOCK, SUM_SHARED_BYTES};

use super::expect_shape;
use crate::buffer::{DeviceMatrix, DeviceVector};
use crate::buffer_bf16::DeviceMatrixBf16;
use crate::context::{Gpu, SPLIT_COUNTERS, SPLIT_WORKSPACE};
use crate::error::{Error, Result};
use crate::launch::{Dim3, LaunchConfig};

/// Row chunks of [`col_sum_config`]: enough 1024-thread blocks for about two per
/// multiprocessor (two are resident at a time), each chunk at least 64 rows (two passes of the
/// block's 32 row lanes), and the strips' partials inside this stream's split-K workspace.
fn col_sum_chunks(rows: usize, strips: usize, sms: usize) -> usize {
    let want = (2 * sms).div_ceil(strips).min(rows.div_ceil(64)).max(1);
    let fits = strips <= SPLIT_COUNTERS && strips * want * COL_SUM_BLOCK.0 as usize <= SPLIT_WORKSPACE;
    if fits { want } else { 1 }
}

/// The grid of `act_backward_col_sum_f32` (a 32-column strip per block in x, row chunks in y)
/// and the rows per chunk.
fn col_sum_config(rows: usize, cols: usize, sms: usize) -> Result<(LaunchConfig, usize)> {
    let too_large = |what, value: usize| Error::TooLarge { op: "col_sum", what, value: value as u64, limit: u64::from(u32::MAX) };
    let strips = cols.div_ceil(COL_SUM_BLOCK.0 as usize);
    let chunk_rows = rows.div_ceil(col_sum_chunks(rows, strips, sms)).next_multiple_of(COL_SUM_BLOCK.1 as usize).max(1);
    let chunks = rows.div_ceil(chunk_rows).max(1);
    let grid = Dim3 {
        x: u32::try_from(strips).map_err(|_| too_large("column strips", strips))?,
        y: u32::try_from(chunks).map_err(|_| too_large("row chunks", chunks))?,
        z: 1,
    };
    Ok((
        LaunchConfig { grid, block: Dim3::xy(COL_SUM_BLOCK.0, COL_SUM_BLOCK.1), shared_mem_bytes: COL_SUM_SHARED_BYTES, ..LaunchConfig::default() },
        chunk_rows,
    ))
}

#[allow(clippy::too_many_arguments)]
fn launch_col_sum(
    gpu: &Gpu,
    dy: *const f32,
    y: *const f32,
    (dz, dz_bf16): (*mut f32, *mut u16),
    db: &mut DeviceVector<f32>,
    (rows, cols): (usize, usize),
    act: Activation,
    step: Option<BiasSgd<'_>>,
) -> Result<()> {
    let (bias, lr) = match step {
        Some(BiasSgd { bias, lr }) => {
            expect_shape("col_sum", "bias length (= columns)", cols, bias.len())?;
            (bias.as_mut_ptr(), lr)
        }
        None => (std::ptr::null_mut(), 0.0),
    };
    if cols == 0 {
        return Ok(());
    }
    let (cfg, chunk_rows) = col_sum_config(rows, cols, gpu.info().multiprocessors as usize)?;
    let (sem, ws) = gpu.split_buffers();
    // SAFETY: the callers check every shape; dz equals dy or is disjoint from it; dz_bf16 is null
    // or a rows·cols bf16 matrix; db is disjoint;
    // with more than one chunk, the stream's counters and workspace hold a counter per strip
    // and a slot per strip, chunk and column (`col_sum_chunks`), used in stream order; `bias` is
    // null or a separate vector of cols f32 (checked above).
    unsafe { k::act_backward_col_sum_f32(gpu, cfg, dy, y, dz, dz_bf16, db, rows, cols, act as u32, chunk_rows, ws as *mut f32, sem as *mut u32, bias, lr) }
}

/// A bias's plain SGD step (b ← b − lr·db, [`kernels::optim::sgd_update`]'s bits) taken by the
/// kernel that finishes db: a training step with plain SGD then needs no launch per bias.
pub struct BiasSgd<'a> {
    pub bias: &'a mut DeviceVector<f32>,
    pub lr: f32,
}

/// [`act_backward_col_sum`] with its options: with `dz_bf16`, also writes the resulting dz
/// rounded to bf16 there ([`act_backward_col_sum_bf16`]); with `step`, also takes the bias's SGD
/// step from the finished db.
pub fn act_backward_col_sum_sgd(
    gpu: &Gpu,
    dz: &mut DeviceMatrix,
    dz_bf16: Option<&mut DeviceMatrixBf16>,
    y: &DeviceMatrix,
    act: Activation,
    db: &mut DeviceVector<f32>,
    step: Option<BiasSgd<'_>>,
) -> Result<()> {
    expect_shape("act_backward_col_sum", "Y shape (= dY shape)", dz.shape(), y.shape())?;
    expect_shape("act_backward_col_sum", "db length (= columns)", dz.cols(), db.len())?;
    let copy = match dz_bf16 {
        Some(c) => {
            expect_shape("act_backward_col_sum", "bf16 dz shape", dz.shape(), c.shape())?;
            c.as_mut_ptr()
        }
        None => std::ptr::null_mut(),
    };
    let shape = dz.shape();
    let p = dz.as_mut_ptr();
    launch_col_sum(gpu, p, y.as_ptr(), (p, copy), db, shape, act, step)
}

/// [`col_sum`] that, with `step`, also takes the bias's SGD step from the finished sums.
pub fn col_sum_sgd(gpu: &Gpu, x: &DeviceMatrix, out: &mut DeviceVector<f32>, step: Option<BiasSgd<'_>>) -> Result<()> {
    expect_shape("col_sum", "output length (= columns)", x.cols(), out.len())?;
    let p = x.as_ptr();
    // The kernel writes dz only when it differs from dy or act is not Identity: x is only read.
    launch_col_sum(gpu, p, std::ptr::null(), (p.cast_mut(), std::ptr::null_mut()), out, x.shape(), Activation::Identity, step)
}

/// In place: dz ← dz ⊙ act'(y) (dz holds dY on entry), and db[c] = Σ_r dz[r, c] of the result.
/// The backward pass of a dense layer from the gradient of its output Y = act(Z).
pub fn act_backward_col_sum(gpu: &Gpu, dz: &mut DeviceMatrix, y: &DeviceMatrix, act: Activation, db: &mut DeviceVector<f32>) -> Result<()> {
    act_backward_col_sum_sgd(gpu, dz, None, y, act, db, None)
}

/// [`act_backward_col_sum`] that also writes the resulting dz rounded to bf16 into `dz_bf16` in
/// the same pass (the mixed-precision backward's next GEMM input, with no cast pass).
pub fn act_backward_col_sum_bf16(
    gpu: &Gpu,
    dz: &mut DeviceMatrix,
    dz_bf16: &mut DeviceMatrixBf16,
    y: &DeviceMatrix,
    act: Activation,
    db: &mut DeviceVector<f32>,
) -> Result<()> {
    act_backward_col_sum_sgd(gpu, dz, Some(dz_bf16), y, act, db, None)
}

/// out[c] = Σ_r x[r, c] (a bias gradient from dZ); rows = 0 gives zeros.
pub fn col_sum(gpu: &Gpu, x: &DeviceMatrix, out: &mut DeviceVector<f32>) -> Result<()> {
    col_sum_sgd(gpu, x, out, None)
}

/// acc[0] += scale·Σ x.
pub fn sum_scaled_accumulate(gpu: &Gpu, x: &DeviceVector<f32>, acc: &mut DeviceVector<f32>, scale: f32) -> Result<()> {
    if acc.is_empty() {
        return Err(Error::ShapeMismatch { op: "sum_scaled_accumulate", expected: "an accumulator of at least 1 element".into(), got: "0".into() });
    }
    let cfg = LaunchConfig { grid: Dim3::x(1), block: Dim3::x(SUM_BLOCK), shared_mem_bytes: SUM_SHARED_BYTES, ..LaunchConfig::default() };
    // SAFETY: x holds x.len() f32; acc holds at least one, and is a different buffer.
    unsafe { k::sum_scaled_accum_f32(gpu, cfg, x, x.len(), acc, scale) }
}

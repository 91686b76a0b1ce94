//! Reductions: a dense layer's bias gradient fused with its activation derivative, column sums,
//! and a scaled sum accumulated on the device.

use kernels::reduce::{self as k, COL_SUM_BLOCK, COL_SUM_SHARED_BYTES, SUM_BLOCK, SUM_SHARED_BYTES};
pub use kernels::math::Activation;

use super::expect_shape;
use crate::buffer::{DeviceMatrix, DeviceVector};
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::launch::{Dim3, LaunchConfig};

fn col_sum_config(cols: usize) -> Result<LaunchConfig> {
    let strips = u32::try_from(cols.div_ceil(COL_SUM_BLOCK.0 as usize))
        .map_err(|_| Error::TooLarge { op: "col_sum", what: "column strips", value: cols as u64, limit: u64::from(u32::MAX) })?;
    Ok(LaunchConfig { grid: Dim3::x(strips), block: Dim3::xy(COL_SUM_BLOCK.0, COL_SUM_BLOCK.1), shared_mem_bytes: COL_SUM_SHARED_BYTES })
}

#[allow(clippy::too_many_arguments)]
fn launch_col_sum(gpu: &Gpu, dy: *const f32, y: *const f32, dz: *mut f32, db: &mut DeviceVector<f32>, (rows, cols): (usize, usize), act: Activation) -> Result<()> {
    if cols == 0 {
        return Ok(());
    }
    let cfg = col_sum_config(cols)?;
    // SAFETY: the callers check every shape; dz equals dy or is disjoint from it; db is disjoint.
    unsafe { k::act_backward_col_sum_f32(gpu, cfg, dy, y, dz, db, rows, cols, act as u32) }
}

/// In place: dz ← dz ⊙ act'(y) (dz holds dY on entry), and db[c] = Σ_r dz[r, c] of the result.
/// The backward pass of a dense layer from the gradient of its output Y = act(Z).
pub fn act_backward_col_sum(gpu: &Gpu, dz: &mut DeviceMatrix, y: &DeviceMatrix, act: Activation, db: &mut DeviceVector<f32>) -> Result<()> {
    expect_shape("act_backward_col_sum", "Y shape (= dY shape)", dz.shape(), y.shape())?;
    expect_shape("act_backward_col_sum", "db length (= columns)", dz.cols(), db.len())?;
    let shape = dz.shape();
    let p = dz.as_mut_ptr();
    launch_col_sum(gpu, p, y.as_ptr(), p, db, shape, act)
}

/// out[c] = Σ_r x[r, c] (a bias gradient from dZ); rows = 0 gives zeros.
pub fn col_sum(gpu: &Gpu, x: &DeviceMatrix, out: &mut DeviceVector<f32>) -> Result<()> {
    expect_shape("col_sum", "output length (= columns)", x.cols(), out.len())?;
    let p = x.as_ptr();
    // The kernel writes dz only when it differs from dy or act is not Identity: x is only read.
    launch_col_sum(gpu, p, std::ptr::null(), p.cast_mut(), out, x.shape(), Activation::Identity)
}

/// acc[0] += scale·Σ x.
pub fn sum_scaled_accumulate(gpu: &Gpu, x: &DeviceVector<f32>, acc: &mut DeviceVector<f32>, scale: f32) -> Result<()> {
    if acc.is_empty() {
        return Err(Error::ShapeMismatch { op: "sum_scaled_accumulate", expected: "an accumulator of at least 1 element".into(), got: "0".into() });
    }
    let cfg = LaunchConfig { grid: Dim3::x(1), block: Dim3::x(SUM_BLOCK), shared_mem_bytes: SUM_SHARED_BYTES };
    // SAFETY: x holds x.len() f32; acc holds at least one, and is a different buffer.
    unsafe { k::sum_scaled_accum_f32(gpu, cfg, x, x.len(), acc, scale) }
}

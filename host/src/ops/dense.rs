//! The dense layer y = act(x·Wᵀ + b).

use kernels::dense::{self as k, NAIVE_BLOCK};

pub use super::activation::Activation;
use super::expect_shape;
use crate::buffer::{DeviceMatrix, DeviceVector};
use crate::context::Gpu;
use crate::error::Result;
use crate::launch::LaunchConfig;

/// y = act(x·Wᵀ + b) for a batch: x is batch×in, W is out×in, b has out entries.
pub fn dense(gpu: &Gpu, x: &DeviceMatrix, w: &DeviceMatrix, b: &DeviceVector<f32>, act: Activation) -> Result<DeviceMatrix> {
    let mut y = DeviceMatrix::uninit(gpu, x.rows(), w.rows())?;
    dense_into(gpu, x, w, b, act, &mut y)?;
    Ok(y)
}

/// As [`dense`], into an existing batch×out output.
pub fn dense_into(gpu: &Gpu, x: &DeviceMatrix, w: &DeviceMatrix, b: &DeviceVector<f32>, act: Activation, y: &mut DeviceMatrix) -> Result<()> {
    expect_shape("dense", "input features (cols of W)", x.cols(), w.cols())?;
    expect_shape("dense", "bias length (rows of W)", w.rows(), b.len())?;
    expect_shape("dense", "output shape", (x.rows(), w.rows()), y.shape())?;
    let (batch, in_f, out_f) = (x.rows(), x.cols(), w.rows());
    if batch == 0 || out_f == 0 {
        return Ok(());
    }
    let cfg = LaunchConfig::for_2d("dense_naive_f32", batch, out_f, NAIVE_BLOCK)?;
    // SAFETY: shapes checked above; the grid covers batch×out.
    unsafe { k::dense_naive_f32(gpu, cfg, x, w, b, y, batch, in_f, out_f, act as u32) }
}

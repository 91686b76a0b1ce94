//! Matrix multiplication C = A·B.

use kernels::matmul::{self as k, NAIVE_BLOCK};

use super::expect_shape;
use crate::buffer::DeviceMatrix;
use crate::context::{Gpu, kernel_args};
use crate::error::Result;
use crate::launch::LaunchConfig;

/// Which matmul kernel to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatmulKernel {
    /// One thread per output element, operands read from global memory (the article's kernel).
    #[default]
    Naive,
}

/// C = A·B (new output). A is m×k, B is k×n.
pub fn matmul(gpu: &Gpu, a: &DeviceMatrix, b: &DeviceMatrix) -> Result<DeviceMatrix> {
    let mut c = DeviceMatrix::uninit(gpu, a.rows(), b.cols())?;
    matmul_into(gpu, a, b, &mut c, MatmulKernel::default())?;
    Ok(c)
}

/// C = A·B into an existing m×n output.
pub fn matmul_into(gpu: &Gpu, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix, kernel: MatmulKernel) -> Result<()> {
    expect_shape("matmul", "rows of B (= cols of A)", a.cols(), b.rows())?;
    expect_shape("matmul", "output shape", (a.rows(), b.cols()), c.shape())?;
    let (m, kk, n) = (a.rows(), a.cols(), b.cols());
    if m == 0 || n == 0 {
        return Ok(());
    }
    if kk == 0 {
        return c.fill(gpu, 0.0); // an empty sum
    }
    match kernel {
        MatmulKernel::Naive => {
            let cfg = LaunchConfig::for_2d("matmul_naive_f32", m, n, NAIVE_BLOCK)?;
            let (a, b, c) = (a.device_ptr(), b.device_ptr(), c.device_ptr());
            let mut args = kernel_args![a, b, c, m, n, kk];
            // SAFETY: shapes checked above; the grid covers m×n.
            unsafe { gpu.launch(&k::MATMUL_NAIVE_F32, cfg, &mut args) }
        }
    }
}

//! Vector and matrix addition.

use kernels::elementwise::{self as k, BLOCK_1D, BLOCK_2D};

use super::{ELEMENTWISE_BLOCKS_PER_SM, expect_shape};
use crate::buffer::{DeviceMatrix, DeviceVector};
use crate::context::{Gpu, kernel_args};
use crate::error::Result;
use crate::launch::LaunchConfig;

/// Which vector-add kernel to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VecAddKernel {
    /// One thread per element, 4-byte accesses (the article's kernel).
    Naive,
    /// 16-byte accesses, grid-stride loop sized from the multiprocessor count.
    #[default]
    Vectorized,
}

/// c = a + b (new output).
pub fn vec_add(gpu: &Gpu, a: &DeviceVector<f32>, b: &DeviceVector<f32>) -> Result<DeviceVector<f32>> {
    expect_shape("vec_add", "length", a.len(), b.len())?;
    let mut c = DeviceVector::uninit(gpu, a.len())?;
    vec_add_into(gpu, a, b, &mut c, VecAddKernel::default())?;
    Ok(c)
}

/// c = a + b into an existing output of the same length.
pub fn vec_add_into(
    gpu: &Gpu,
    a: &DeviceVector<f32>,
    b: &DeviceVector<f32>,
    c: &mut DeviceVector<f32>,
    kernel: VecAddKernel,
) -> Result<()> {
    expect_shape("vec_add", "length", a.len(), b.len())?;
    expect_shape("vec_add", "output length", a.len(), c.len())?;
    let n = a.len();
    if n == 0 {
        return Ok(());
    }
    let (a, b, c) = (a.device_ptr(), b.device_ptr(), c.device_ptr());
    match kernel {
        VecAddKernel::Naive => {
            let cfg = LaunchConfig::for_num_elems("vec_add_f32", n, BLOCK_1D)?;
            let mut args = kernel_args![a, b, c, n];
            // SAFETY: three device arrays of n f32, checked above.
            unsafe { gpu.launch(&k::VEC_ADD_F32, cfg, &mut args) }
        }
        VecAddKernel::Vectorized => {
            let cfg = vectorized_config(gpu, n);
            let mut args = kernel_args![a, b, c, n];
            // SAFETY: as above; cuMemAlloc'd buffers are 16-byte aligned.
            unsafe { gpu.launch(&k::VEC_ADD_F32X4, cfg, &mut args) }
        }
    }
}

/// Grid-stride launch for the 16-byte elementwise kernels over `n` floats.
pub(crate) fn vectorized_config(gpu: &Gpu, n: usize) -> LaunchConfig {
    let work = (n / 4).max(n % 4).max(1);
    LaunchConfig::grid_stride(work, BLOCK_1D, gpu.info().multiprocessors * ELEMENTWISE_BLOCKS_PER_SM)
}

/// C = A + B (new output).
pub fn mat_add(gpu: &Gpu, a: &DeviceMatrix, b: &DeviceMatrix) -> Result<DeviceMatrix> {
    expect_shape("mat_add", "shape", a.shape(), b.shape())?;
    let mut c = DeviceMatrix::uninit(gpu, a.rows(), a.cols())?;
    mat_add_into(gpu, a, b, &mut c)?;
    Ok(c)
}

/// C = A + B into an existing output, on 2-D blocks of `BLOCK_2D`.
pub fn mat_add_into(gpu: &Gpu, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix) -> Result<()> {
    expect_shape("mat_add", "shape", a.shape(), b.shape())?;
    expect_shape("mat_add", "output shape", a.shape(), c.shape())?;
    let (rows, cols) = a.shape();
    if a.is_empty() {
        return Ok(());
    }
    let cfg = LaunchConfig::for_2d_strided(rows, cols, BLOCK_2D);
    let (a, b, c) = (a.device_ptr(), b.device_ptr(), c.device_ptr());
    let mut args = kernel_args![a, b, c, rows, cols];
    // SAFETY: three rows×cols device matrices, checked above.
    unsafe { gpu.launch(&k::MAT_ADD_F32, cfg, &mut args) }
}

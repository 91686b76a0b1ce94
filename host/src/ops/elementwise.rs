//! Vector and matrix addition.

use kernels::elementwise::{self as k, BLOCK_1D, BLOCK_2D};
use kernels::vector::{STREAM_BLOCK, STREAM_CHUNK};

use super::expect_shape;
use crate::buffer::{DeviceMatrix, DeviceVector};
use crate::context::Gpu;
use crate::error::Result;
use crate::launch::{Dim3, LaunchConfig, MAX_GRID};

/// Which vector-add kernel to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VecAddKernel {
    /// One thread per element, 4-byte accesses (the article's kernel).
    Naive,
    /// 16-byte accesses, four per thread and input in flight, one block per 4096 floats.
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
pub fn vec_add_into(gpu: &Gpu, a: &DeviceVector<f32>, b: &DeviceVector<f32>, c: &mut DeviceVector<f32>, kernel: VecAddKernel) -> Result<()> {
    expect_shape("vec_add", "length", a.len(), b.len())?;
    expect_shape("vec_add", "output length", a.len(), c.len())?;
    let n = a.len();
    if n == 0 {
        return Ok(());
    }
    match kernel {
        VecAddKernel::Naive => {
            let cfg = LaunchConfig::for_num_elems("vec_add_f32", n, BLOCK_1D)?;
            // SAFETY: three device arrays of n f32, checked above.
            unsafe { k::vec_add_f32(gpu, cfg, a, b, c, n) }
        }
        VecAddKernel::Vectorized => {
            // SAFETY: as above; cuMemAlloc'd buffers are 16-byte aligned.
            unsafe { k::vec_add_f32x4(gpu, stream_config(n), a, b, c, n) }
        }
    }
}

/// Launch of the streaming (16-byte) elementwise kernels over `n` floats: one block per
/// `STREAM_CHUNK` floats (the kernels loop if the grid limit caps it).
pub(crate) fn stream_config(n: usize) -> LaunchConfig {
    let blocks = n.div_ceil(STREAM_CHUNK).clamp(1, MAX_GRID.x as usize) as u32;
    LaunchConfig { grid: Dim3::x(blocks), block: Dim3::x(STREAM_BLOCK), shared_mem_bytes: 0, ..LaunchConfig::default() }
}

/// C = A + B (new output).
pub fn mat_add(gpu: &Gpu, a: &DeviceMatrix, b: &DeviceMatrix) -> Result<DeviceMatrix> {
    expect_shape("mat_add", "shape", a.shape(), b.shape())?;
    let mut c = DeviceMatrix::uninit(gpu, a.rows(), a.cols())?;
    mat_add_into(gpu, a, b, &mut c)?;
    Ok(c)
}

/// Which matrix-add kernel to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatAddKernel {
    /// The article's kernel: 2-D blocks of `BLOCK_2D`, one element per thread (grid-stride).
    Blocks2d,
    /// The matrices are contiguous, so C = A + B is a vector add over rows·cols floats:
    /// [`VecAddKernel::Vectorized`].
    #[default]
    Flat,
}

/// C = A + B into an existing output.
pub fn mat_add_into(gpu: &Gpu, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix) -> Result<()> {
    mat_add_into_with(gpu, a, b, c, MatAddKernel::default())
}

/// C = A + B into an existing output, with the kernel chosen by the caller.
pub fn mat_add_into_with(gpu: &Gpu, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix, kernel: MatAddKernel) -> Result<()> {
    expect_shape("mat_add", "shape", a.shape(), b.shape())?;
    expect_shape("mat_add", "output shape", a.shape(), c.shape())?;
    let (rows, cols) = a.shape();
    if a.is_empty() {
        return Ok(());
    }
    if kernel == MatAddKernel::Flat {
        let c = c.as_vector_mut();
        return vec_add_into(gpu, a.as_vector(), b.as_vector(), c, VecAddKernel::Vectorized);
    }
    let cfg = LaunchConfig::for_2d_strided(rows, cols, BLOCK_2D);
    // SAFETY: three rows×cols device matrices, checked above.
    unsafe { k::mat_add_f32(gpu, cfg, a, b, c, rows, cols) }
}

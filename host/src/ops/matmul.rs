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

pub use kernels::math::Activation;
use kernels::matmul::{GEMM_NAIVE_BLOCK, GemmParams};

use crate::buffer::DeviceVector;

/// Whether an operand is used as stored or transposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Transpose {
    #[default]
    No,
    Yes,
}

/// What happens to each accumulator before it is stored:
/// C = act(α·op(A)·op(B) + bias + β·C).
#[derive(Clone, Copy)]
pub struct Epilogue<'a> {
    pub alpha: f32,
    /// 0 overwrites C, 1 accumulates into it.
    pub beta: f32,
    /// Added to every row (length n).
    pub bias: Option<&'a DeviceVector<f32>>,
    pub act: Activation,
}

impl Default for Epilogue<'_> {
    fn default() -> Self {
        Epilogue { alpha: 1.0, beta: 0.0, bias: None, act: Activation::Identity }
    }
}

impl<'a> Epilogue<'a> {
    /// act(x + bias): a dense layer's epilogue.
    pub fn bias_act(bias: &'a DeviceVector<f32>, act: Activation) -> Self {
        Epilogue { bias: Some(bias), act, ..Epilogue::default() }
    }
    /// C += op(A)·op(B).
    pub fn accumulate() -> Self {
        Epilogue { beta: 1.0, ..Epilogue::default() }
    }
}

/// Which GEMM kernel [`gemm`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GemmKernel {
    /// Chosen for the device and shape.
    #[default]
    Auto,
    /// One thread per output, any layout (the reference).
    Naive,
}

/// C (m×n) = act(α·op(A)·op(B) + bias + β·C), where op(A) is m×k and op(B) is k×n.
///
/// This is what the layers use: forward x·Wᵀ (`tb = Yes`), input gradient dY·W, weight gradient
/// dYᵀ·x (`ta = Yes`).
pub fn gemm(
    gpu: &Gpu,
    a: &DeviceMatrix,
    ta: Transpose,
    b: &DeviceMatrix,
    tb: Transpose,
    epilogue: Epilogue<'_>,
    c: &mut DeviceMatrix,
    kernel: GemmKernel,
) -> Result<()> {
    let (m, ka) = if ta == Transpose::Yes { (a.cols(), a.rows()) } else { a.shape() };
    let (kb, n) = if tb == Transpose::Yes { (b.cols(), b.rows()) } else { b.shape() };
    expect_shape("gemm", "inner dimension of op(B) (= that of op(A))", ka, kb)?;
    expect_shape("gemm", "output shape", (m, n), c.shape())?;
    if let Some(bias) = epilogue.bias {
        expect_shape("gemm", "bias length (= n)", n, bias.len())?;
    }
    if m == 0 || n == 0 {
        return Ok(());
    }
    let strides = |t: Transpose, cols: usize| if t == Transpose::Yes { (1u64, cols as u64) } else { (cols as u64, 1u64) };
    let (a_row_stride, a_col_stride) = strides(ta, a.cols());
    let (b_row_stride, b_col_stride) = strides(tb, b.cols());
    let params = GemmParams {
        m: m as u64,
        n: n as u64,
        k: ka as u64,
        a_row_stride,
        a_col_stride,
        b_row_stride,
        b_col_stride,
        ldc: n as u64,
        alpha: epilogue.alpha,
        beta: epilogue.beta,
        act: epilogue.act as u32,
        has_bias: u32::from(epilogue.bias.is_some()),
    };
    let bias_ptr = epilogue.bias.map_or(0u64, |b| b.device_ptr());
    match kernel {
        GemmKernel::Auto | GemmKernel::Naive => {
            let cfg = LaunchConfig::for_2d("gemm_naive_f32", m, n, GEMM_NAIVE_BLOCK)?;
            let (ap, bp, cp) = (a.device_ptr(), b.device_ptr(), c.device_ptr());
            let mut args = kernel_args![ap, bp, cp, bias_ptr, params];
            // SAFETY: shapes checked above; strides address only inside A and B; grid covers C.
            unsafe { gpu.launch(&k::GEMM_NAIVE_F32, cfg, &mut args) }
        }
    }
}

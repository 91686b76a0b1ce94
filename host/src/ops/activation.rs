//! Activation functions over a vector or matrix.

use kernels::activation as k;
use kernels::elementwise::BLOCK_1D;
pub use kernels::math::Activation;

use super::elementwise::stream_config;
use super::expect_shape;
use crate::buffer::DeviceVector;
use crate::context::Gpu;
use crate::error::Result;
use crate::launch::LaunchConfig;

/// Which sigmoid kernel to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SigmoidKernel {
    /// One thread per element (the article's kernel calling a `__device__` sigmoid).
    Naive,
    /// 16-byte accesses, four per thread in flight, one block per 4096 floats.
    #[default]
    Vectorized,
}

/// y = σ(x) (new output).
pub fn sigmoid(gpu: &Gpu, x: &DeviceVector<f32>) -> Result<DeviceVector<f32>> {
    let mut y = DeviceVector::uninit(gpu, x.len())?;
    sigmoid_into(gpu, x, &mut y, SigmoidKernel::default())?;
    Ok(y)
}

/// y = σ(x) into an existing output of the same length.
pub fn sigmoid_into(gpu: &Gpu, x: &DeviceVector<f32>, y: &mut DeviceVector<f32>, kernel: SigmoidKernel) -> Result<()> {
    match kernel {
        SigmoidKernel::Naive => {
            expect_shape("sigmoid", "output length", x.len(), y.len())?;
            let n = x.len();
            if n == 0 {
                return Ok(());
            }
            let cfg = LaunchConfig::for_num_elems("sigmoid_f32", n, BLOCK_1D)?;
            // SAFETY: two device arrays of n f32.
            unsafe { k::sigmoid_f32(gpu, cfg, x, y, n) }
        }
        SigmoidKernel::Vectorized => activation_into(gpu, x, y, Activation::Sigmoid),
    }
}

/// y = act(x) elementwise into an existing output (which may not alias `x`; use
/// [`activation_in_place`] for that).
pub fn activation_into(gpu: &Gpu, x: &DeviceVector<f32>, y: &mut DeviceVector<f32>, act: Activation) -> Result<()> {
    expect_shape("activation", "output length", x.len(), y.len())?;
    launch_activation(gpu, x.as_ptr(), y.as_mut_ptr(), x.len(), act)
}

/// x = act(x).
pub fn activation_in_place(gpu: &Gpu, x: &mut DeviceVector<f32>, act: Activation) -> Result<()> {
    let p = x.as_mut_ptr();
    launch_activation(gpu, p, p, x.len(), act)
}

fn launch_activation(gpu: &Gpu, x: *const f32, y: *mut f32, n: usize, act: Activation) -> Result<()> {
    if n == 0 {
        return Ok(());
    }
    // SAFETY: x and y hold n f32, 16-byte aligned, equal or disjoint.
    unsafe { k::activation_f32x4(gpu, stream_config(n), x, y, n, act as u32) }
}

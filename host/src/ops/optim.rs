//! Optimizer steps and the device-side bookkeeping of a training step (step counter, batch
//! gather), so a whole step can be replayed as a CUDA graph.

use kernels::optim::{self as k, OPTIM_BLOCK};
pub use kernels::optim::{AdamParams, SgdParams};

use super::{ELEMENTWISE_BLOCKS_PER_SM, expect_shape};
use crate::buffer::{DeviceMatrix, DeviceVector};
use crate::buffer_bf16::DeviceMatrixBf16;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::launch::{Dim3, LaunchConfig};

/// A device array of f32 that an optimizer can update: a weight matrix or a bias vector.
pub trait Tensor {
    fn device_ptr(&self) -> u64;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The device address as a kernel's `*const f32` parameter.
    fn as_ptr(&self) -> *const f32 {
        self.device_ptr() as *const f32
    }
    /// The device address as a kernel's `*mut f32` parameter.
    fn as_mut_ptr(&mut self) -> *mut f32 {
        self.device_ptr() as *mut f32
    }
}

impl Tensor for DeviceMatrix {
    fn device_ptr(&self) -> u64 {
        DeviceMatrix::device_ptr(self)
    }
    fn len(&self) -> usize {
        DeviceMatrix::len(self)
    }
}

impl Tensor for DeviceVector<f32> {
    fn device_ptr(&self) -> u64 {
        DeviceVector::device_ptr(self)
    }
    fn len(&self) -> usize {
        DeviceVector::len(self)
    }
}

fn elementwise(gpu: &Gpu, n: usize) -> LaunchConfig {
    LaunchConfig::grid_stride(n, OPTIM_BLOCK, gpu.info().multiprocessors * ELEMENTWISE_BLOCKS_PER_SM)
}

/// p ← p − lr·v with v ← μ·v + g (+ weight decay); `velocity` may be `None` only when μ = 0.
pub fn sgd_step<P: Tensor, G: Tensor, V: Tensor>(gpu: &Gpu, p: &mut P, g: &G, velocity: Option<&mut V>, hp: SgdParams) -> Result<()> {
    sgd_launch(gpu, p, g, velocity, std::ptr::null_mut(), hp)
}

/// [`sgd_step`] on f32 master weights `p` that also writes the updated weights, rounded to bf16,
/// into `copy` (same shape) in the same kernel: the mixed-precision step's weight refresh.
pub fn sgd_step_bf16<G: Tensor, V: Tensor>(
    gpu: &Gpu,
    p: &mut DeviceMatrix,
    copy: &mut DeviceMatrixBf16,
    g: &G,
    velocity: Option<&mut V>,
    hp: SgdParams,
) -> Result<()> {
    expect_shape("sgd_step_bf16", "bf16 copy shape", p.shape(), copy.shape())?;
    sgd_launch(gpu, p, g, velocity, copy.as_mut_ptr(), hp)
}

fn sgd_launch<P: Tensor, G: Tensor, V: Tensor>(gpu: &Gpu, p: &mut P, g: &G, velocity: Option<&mut V>, copy: *mut u16, hp: SgdParams) -> Result<()> {
    expect_shape("sgd_step", "gradient length", p.len(), g.len())?;
    let v = match velocity {
        Some(v) => {
            expect_shape("sgd_step", "velocity length", p.len(), v.len())?;
            v.as_mut_ptr()
        }
        None if hp.momentum == 0.0 => std::ptr::null_mut(),
        None => return Err(Error::InvalidArgument { op: "sgd_step", reason: "momentum needs a velocity buffer".into() }),
    };
    let n = p.len();
    if n == 0 {
        return Ok(());
    }
    // SAFETY: p, g, v hold n f32 each (checked), distinct buffers; `copy` is null or n u16
    // (the callers check its shape).
    unsafe { k::sgd_momentum_f32(gpu, elementwise(gpu, n), p.as_mut_ptr(), g.as_ptr(), v, copy, n, hp) }
}

/// One Adam step at the step number held in `step` (a device counter, see [`count_step`]).
pub fn adam_step<P: Tensor, G: Tensor, M: Tensor>(gpu: &Gpu, p: &mut P, g: &G, m: &mut M, v: &mut M, step: &DeviceVector<u32>, hp: AdamParams) -> Result<()> {
    adam_launch(gpu, p, g, (m, v), std::ptr::null_mut(), step, hp)
}

/// [`adam_step`] on f32 master weights `p` that also writes the updated weights, rounded to
/// bf16, into `copy` (same shape) in the same kernel: the mixed-precision step's weight refresh.
#[allow(clippy::too_many_arguments)]
pub fn adam_step_bf16<G: Tensor, M: Tensor>(
    gpu: &Gpu,
    p: &mut DeviceMatrix,
    copy: &mut DeviceMatrixBf16,
    g: &G,
    m: &mut M,
    v: &mut M,
    step: &DeviceVector<u32>,
    hp: AdamParams,
) -> Result<()> {
    expect_shape("adam_step_bf16", "bf16 copy shape", p.shape(), copy.shape())?;
    adam_launch(gpu, p, g, (m, v), copy.as_mut_ptr(), step, hp)
}

fn adam_launch<P: Tensor, G: Tensor, M: Tensor>(
    gpu: &Gpu,
    p: &mut P,
    g: &G,
    (m, v): (&mut M, &mut M),
    copy: *mut u16,
    step: &DeviceVector<u32>,
    hp: AdamParams,
) -> Result<()> {
    expect_shape("adam_step", "gradient length", p.len(), g.len())?;
    expect_shape("adam_step", "first moment length", p.len(), m.len())?;
    expect_shape("adam_step", "second moment length", p.len(), v.len())?;
    expect_shape("adam_step", "step counter length", 1, step.len())?;
    let n = p.len();
    if n == 0 {
        return Ok(());
    }
    // SAFETY: p, g, m, v hold n f32 each (checked), distinct; `copy` is null or n u16 (the
    // callers check its shape); step holds one u32.
    unsafe { k::adam_f32(gpu, elementwise(gpu, n), p.as_mut_ptr(), g.as_ptr(), m.as_mut_ptr(), v.as_mut_ptr(), copy, n, step, hp) }
}

/// counter[0] += 1, on the stream.
pub fn count_step(gpu: &Gpu, counter: &mut DeviceVector<u32>) -> Result<()> {
    expect_shape("count_step", "counter length", 1, counter.len())?;
    // SAFETY: one u32.
    unsafe { k::count_step_u32(gpu, LaunchConfig::grid_stride(1, 32, 1), counter) }
}

/// Gathers batch number `batch[0]` of a permuted dataset: dst row i = src row perm[b·rows + i].
pub fn gather_rows(
    gpu: &Gpu,
    src: &DeviceMatrix,
    src_labels: &DeviceVector<u32>,
    perm: &DeviceVector<u32>,
    batch: &DeviceVector<u32>,
    dst: &mut DeviceMatrix,
    dst_labels: &mut DeviceVector<u32>,
) -> Result<()> {
    let shape = dst.shape();
    gather_launch(gpu, (src, src_labels, perm, batch), (dst.as_mut_ptr(), std::ptr::null_mut()), shape, dst_labels)
}

/// [`gather_rows`] into a bf16 batch: the rows are rounded to bf16 as they are copied (the
/// mixed-precision step's first GEMM input, with no separate cast pass).
pub fn gather_rows_bf16(
    gpu: &Gpu,
    src: &DeviceMatrix,
    src_labels: &DeviceVector<u32>,
    perm: &DeviceVector<u32>,
    batch: &DeviceVector<u32>,
    dst: &mut DeviceMatrixBf16,
    dst_labels: &mut DeviceVector<u32>,
) -> Result<()> {
    let shape = dst.shape();
    gather_launch(gpu, (src, src_labels, perm, batch), (std::ptr::null_mut(), dst.as_mut_ptr()), shape, dst_labels)
}

/// The gather into `dst` (f32) or `dst_bf16`, whichever is not null, of shape `(rows, cols)`.
fn gather_launch(
    gpu: &Gpu,
    (src, src_labels, perm, batch): (&DeviceMatrix, &DeviceVector<u32>, &DeviceVector<u32>, &DeviceVector<u32>),
    (dst, dst_bf16): (*mut f32, *mut u16),
    (rows, cols): (usize, usize),
    dst_labels: &mut DeviceVector<u32>,
) -> Result<()> {
    expect_shape("gather_rows", "labels (one per source row)", src.rows(), src_labels.len())?;
    expect_shape("gather_rows", "columns of the batch", src.cols(), cols)?;
    expect_shape("gather_rows", "batch labels", rows, dst_labels.len())?;
    expect_shape("gather_rows", "batch counter length", 1, batch.len())?;
    if rows == 0 || cols == 0 {
        return Ok(());
    }
    let (src_rows, perm_len) = (src.rows(), perm.len());
    // Blocks walk the rows (about 16 per multiprocessor: a block per row of a 4096-row batch
    // was 16384 blocks of a few hundred bytes each), their threads the columns, four at a time.
    let sms = gpu.info().multiprocessors as usize;
    let grid = Dim3 { x: cols.div_ceil(4 * OPTIM_BLOCK as usize).min(64) as u32, y: rows.min(16 * sms).min(65535) as u32, z: 1 };
    let cfg = LaunchConfig { grid, block: Dim3::x(OPTIM_BLOCK), shared_mem_bytes: 0, ..LaunchConfig::default() };
    // SAFETY: every length is passed and checked on the device; exactly one output (rows·cols
    // values, the callers' shape) is not null; outputs are distinct buffers.
    unsafe { k::gather_rows_f32(gpu, cfg, src, src_labels, perm, batch, dst, dst_bf16, dst_labels, rows, cols, src_rows, perm_len) }
}

//! Softmax + cross-entropy (loss and dL/dlogits in one pass) and argmax / accuracy.

use kernels::softmax::{self as k, ROW_BLOCK};

use super::{ELEMENTWISE_BLOCKS_PER_SM, expect_shape};
use crate::buffer::{DeviceMatrix, DeviceVector};
use crate::buffer_bf16::DeviceMatrixBf16;
use crate::context::Gpu;
use crate::error::Result;
use crate::launch::LaunchConfig;

/// One warp per row, grid-stride.
fn row_config(gpu: &Gpu, rows: usize) -> LaunchConfig {
    LaunchConfig::grid_stride(rows.saturating_mul(32), ROW_BLOCK, gpu.info().multiprocessors * ELEMENTWISE_BLOCKS_PER_SM)
}

/// For logits z (rows×classes) and labels: row_loss[r] = −log softmax(z_r)[label_r] and
/// dlogits = grad_scale·(softmax(z) − onehot(labels)), max-subtracted. Labels must be below the
/// number of classes (a row with a larger label gets a NaN loss).
pub fn softmax_cross_entropy(
    gpu: &Gpu,
    logits: &DeviceMatrix,
    labels: &DeviceVector<u32>,
    grad_scale: f32,
    dlogits: &mut DeviceMatrix,
    row_loss: &mut DeviceVector<f32>,
) -> Result<()> {
    softmax_cross_entropy_into(gpu, logits, labels, grad_scale, dlogits, None, row_loss)
}

/// [`softmax_cross_entropy`] that, with `dlogits_bf16`, also writes dlogits rounded to bf16 there
/// in the same pass (the mixed-precision backward's first GEMM input).
pub fn softmax_cross_entropy_into(
    gpu: &Gpu,
    logits: &DeviceMatrix,
    labels: &DeviceVector<u32>,
    grad_scale: f32,
    dlogits: &mut DeviceMatrix,
    dlogits_bf16: Option<&mut DeviceMatrixBf16>,
    row_loss: &mut DeviceVector<f32>,
) -> Result<()> {
    let (rows, cols) = logits.shape();
    let copy = match dlogits_bf16 {
        Some(c) => {
            expect_shape("softmax_cross_entropy", "bf16 dlogits shape", logits.shape(), c.shape())?;
            c.as_mut_ptr()
        }
        None => std::ptr::null_mut(),
    };
    expect_shape("softmax_cross_entropy", "labels (one per row)", rows, labels.len())?;
    expect_shape("softmax_cross_entropy", "dlogits shape", logits.shape(), dlogits.shape())?;
    expect_shape("softmax_cross_entropy", "row_loss length", rows, row_loss.len())?;
    if rows == 0 || cols == 0 {
        return Ok(());
    }
    let cfg = row_config(gpu, rows);
    // SAFETY: shapes checked above; dlogits, its bf16 copy (null or rows·cols u16) and row_loss
    // are distinct buffers from the inputs.
    unsafe { k::softmax_xent_f32(gpu, cfg, logits, labels, dlogits, copy, row_loss, rows, cols, grad_scale) }
}

/// pred[r] = argmax of row r (first on ties), and correct[0] += #rows with pred = label.
/// `correct` is not cleared: zero it to start a count.
pub fn argmax_count(gpu: &Gpu, logits: &DeviceMatrix, labels: &DeviceVector<u32>, pred: &mut DeviceVector<u32>, correct: &mut DeviceVector<u32>) -> Result<()> {
    let (rows, cols) = logits.shape();
    expect_shape("argmax_count", "labels (one per row)", rows, labels.len())?;
    expect_shape("argmax_count", "pred length", rows, pred.len())?;
    expect_shape("argmax_count", "correct length", 1, correct.len())?;
    if rows == 0 {
        return Ok(());
    }
    if cols == 0 {
        return Err(crate::Error::InvalidArgument { op: "argmax_count", reason: "rows with no columns have no argmax".into() });
    }
    let cfg = row_config(gpu, rows);
    // SAFETY: shapes checked above.
    unsafe { k::argmax_f32(gpu, cfg, logits, labels, pred, correct, rows, cols) }
}

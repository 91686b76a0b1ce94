//! The host side of the custom-kernel example: the kernels of `kernels/` embedded by the build
//! script, one function per kernel that checks shapes, derives the launch configuration and
//! launches through the typed launcher, and the CPU references the results are checked against.

use custom_kernels as k;
use host::{DeviceMatrix, DeviceVector, Dim3, Error, KernelImages, LaunchConfig, LoadedKernels, Result};

/// The PTX and cubins `build.rs` wrote for `custom_kernels`, with its kernel table.
pub static KERNELS: KernelImages = host::include_kernels!(custom_kernels);

fn expect<T: std::fmt::Debug + PartialEq>(op: &'static str, expected: T, got: T) -> Result<()> {
    if expected == got { Ok(()) } else { Err(Error::ShapeMismatch { op, expected: format!("{expected:?}"), got: format!("{got:?}") }) }
}

/// y = a·x + y.
pub fn saxpy(kernels: &LoadedKernels, a: f32, x: &DeviceVector<f32>, y: &mut DeviceVector<f32>) -> Result<()> {
    expect("saxpy", x.len(), y.len())?;
    let n = x.len();
    if n == 0 {
        return Ok(());
    }
    let cfg = LaunchConfig::for_num_elems("saxpy", n, k::SAXPY_BLOCK)?;
    // SAFETY: x and y hold n f32 each and are distinct buffers (one is borrowed mutably).
    unsafe { k::saxpy_f32(kernels, cfg, a, x, y, n) }
}

/// dst = srcᵀ.
pub fn transpose(kernels: &LoadedKernels, src: &DeviceMatrix, dst: &mut DeviceMatrix) -> Result<()> {
    let (rows, cols) = src.shape();
    expect("transpose", (cols, rows), dst.shape())?;
    if src.is_empty() {
        return Ok(());
    }
    // One block per 32×32 tile; LaunchConfig::for_2d checks the grid against the limits.
    let cfg = LaunchConfig::for_2d("transpose", rows.div_ceil(k::TILE as usize), cols.div_ceil(k::TILE as usize), (1, 1))?;
    let cfg = LaunchConfig { block: Dim3::xy(k::TRANSPOSE_BLOCK.0, k::TRANSPOSE_BLOCK.1), ..cfg };
    // SAFETY: src is rows×cols, dst cols×rows (checked), distinct buffers.
    unsafe { k::transpose_f32(kernels, cfg, src, dst, rows, cols) }
}

/// y = softmax of each row of x.
pub fn row_softmax(kernels: &LoadedKernels, x: &DeviceMatrix, y: &mut DeviceMatrix) -> Result<()> {
    expect("row_softmax", x.shape(), y.shape())?;
    let (rows, cols) = x.shape();
    if x.is_empty() {
        return Ok(());
    }
    let cfg = LaunchConfig::grid_stride(rows * k::SOFTMAX_BLOCK as usize, k::SOFTMAX_BLOCK, 65_535).with_shared_mem(k::SOFTMAX_SHARED_BYTES);
    // SAFETY: x and y are rows×cols (checked) and distinct; the shared memory is what the kernel needs.
    unsafe { k::row_softmax_f32(kernels, cfg, x, y, rows, cols) }
}

/// The CPU references, in f64 where it matters.
pub mod cpu {
    pub fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
        for (y, x) in y.iter_mut().zip(x) {
            *y += a * x;
        }
    }

    pub fn transpose(src: &[f32], rows: usize, cols: usize) -> Vec<f32> {
        let mut dst = vec![0.0; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                dst[c * rows + r] = src[r * cols + c];
            }
        }
        dst
    }

    pub fn row_softmax(x: &[f32], cols: usize) -> Vec<f32> {
        let mut y = Vec::with_capacity(x.len());
        for row in x.chunks(cols.max(1)) {
            let m = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let e: Vec<f64> = row.iter().map(|&v| f64::from(v - m).exp()).collect();
            let s: f64 = e.iter().sum();
            y.extend(e.iter().map(|&v| (v / s) as f32));
        }
        y
    }
}

/// The first index where `got` and `want` differ by more than `max(rtol·|want|, atol)` (NaN
/// never matches), with both values.
pub fn first_mismatch(got: &[f32], want: &[f32], rtol: f32, atol: f32) -> Option<(usize, f32, f32)> {
    if got.len() != want.len() {
        return Some((got.len().min(want.len()), f32::NAN, f32::NAN));
    }
    let close = |g: f32, w: f32| (g - w).abs() <= (rtol * w.abs()).max(atol); // false for NaN
    got.iter().zip(want).enumerate().find(|&(_, (&g, &w))| !close(g, w)).map(|(i, (&g, &w))| (i, g, w))
}

//! Kernels of the custom-kernel example, written outside the project's `kernels` crate with the
//! device-support crate `kernel-std`, as any crate would: SAXPY (one thread per element), a
//! matrix transpose tiled through static shared memory (2-D blocks), and a row softmax whose
//! block-wide reductions go through warp shuffles and dynamic shared memory.
//!
//! On the GPU every `#[kernel]` is a PTX entry; on the host this crate compiles too, and then
//! each `#[kernel]` is a typed launcher of the same name and parameters, plus the descriptor
//! (`SAXPY_F32`, …) listed in [`KERNELS`].
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, asm_experimental_arch))]

use kernel_std::{KernelInfo, kernel};
#[cfg(target_arch = "nvptx64")]
use kernel_std::{math, shared, static_shared, thread, warp};

/// Threads per block of [`saxpy_f32`].
pub const SAXPY_BLOCK: u32 = 256;
/// The square tile [`transpose_f32`] moves through shared memory.
pub const TILE: u32 = 32;
/// Block shape of [`transpose_f32`] (x = columns, y = rows): each thread moves `TILE / 8` rows.
pub const TRANSPOSE_BLOCK: (u32, u32) = (TILE, 8);
/// Threads per block of [`row_softmax_f32`] (a multiple of 32).
pub const SOFTMAX_BLOCK: u32 = 256;
/// Dynamic shared memory of [`row_softmax_f32`]: one f32 per warp.
pub const SOFTMAX_SHARED_BYTES: u32 = SOFTMAX_BLOCK / 32 * 4;

/// Every kernel of this crate: what the host loads and the builder checks the PTX against.
pub const KERNELS: &[KernelInfo] = &[SAXPY_F32, TRANSPOSE_F32, ROW_SOFTMAX_F32];

/// y[i] = a·x[i] + y[i], one thread per element.
///
/// # Safety
/// `x` and `y` hold `n` f32 on the device and do not overlap.
///
/// # Thread mapping
/// 1-D: element `blockIdx.x·blockDim.x + threadIdx.x`; the grid covers `n`.
#[kernel]
pub unsafe fn saxpy_f32(a: f32, x: *const f32, y: *mut f32, n: usize) {
    let i = thread::index_1d();
    if i < n {
        // SAFETY: i < n, and the caller guarantees n elements in each array.
        unsafe { *y.add(i) = a * *x.add(i) + *y.add(i) };
    }
}

/// dst = srcᵀ for a row-major `rows × cols` src (dst is `cols × rows`), through a 32×33 tile of
/// static shared memory, so that both the reads of src and the writes of dst are along rows
/// (coalesced); the padding column keeps the tile's column reads free of bank conflicts.
///
/// # Safety
/// `src` holds `rows·cols` f32, `dst` as many, disjoint from `src`. Launched with blocks of
/// [`TRANSPOSE_BLOCK`] and a grid of `(cols / TILE, rows / TILE)` blocks, rounded up.
///
/// # Thread mapping
/// Block (bx, by) moves the tile of src at rows `by·32..`, columns `bx·32..`; thread (x, y)
/// loads its rows y, y + 8, y + 16, y + 24 at column x, then stores the same from the transposed
/// tile.
#[kernel]
pub unsafe fn transpose_f32(src: *const f32, dst: *mut f32, rows: usize, cols: usize) {
    let tile = static_shared!(TRANSPOSE_TILE: [f32; (TILE * (TILE + 1)) as usize]);
    let (tx, ty) = (thread::thread_idx_x() as usize, thread::thread_idx_y() as usize);
    let (t, step) = (TILE as usize, TRANSPOSE_BLOCK.1 as usize);
    let (col0, row0) = (thread::block_idx_x() as usize * t, thread::block_idx_y() as usize * t);
    let mut dy = ty;
    while dy < t {
        let (r, c) = (row0 + dy, col0 + tx);
        if r < rows && c < cols {
            // SAFETY: r < rows and c < cols; the tile index is below 32·33.
            unsafe { (*tile)[dy * (t + 1) + tx] = *src.add(r * cols + c) };
        }
        dy += step;
    }
    thread::sync_threads();
    // The block's tile of dst starts at row col0, column row0.
    let mut dy = ty;
    while dy < t {
        let (r, c) = (col0 + dy, row0 + tx);
        if r < cols && c < rows {
            // SAFETY: dst is cols × rows; the tile element was loaded above (its source is in bounds).
            unsafe { *dst.add(r * rows + c) = (*tile)[tx * (t + 1) + dy] };
        }
        dy += step;
    }
}

/// A reduction over the block with `op` (max or sum): every warp reduces with shuffles, warp
/// leaders meet in `scratch` (one f32 per warp), and every thread returns the block's result.
/// A device helper, inlined into the kernel.
///
/// # Safety
/// `scratch` holds `blockDim.x / 32` f32 of shared memory; every thread of the block calls this.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn block_reduce(v: f32, scratch: *mut f32, identity: f32, op: impl Fn(f32) -> f32) -> f32 {
    let (lane, warp_id, warps) = (thread::lane_id(), thread::warp_id(), thread::block_dim_x() / 32);
    let w = op(v);
    if lane == 0 {
        // SAFETY: warp_id < warps, the size of scratch.
        unsafe { *scratch.add(warp_id as usize) = w };
    }
    thread::sync_threads();
    // SAFETY: lane < warps is inside scratch.
    let r = op(if lane < warps { unsafe { *scratch.add(lane as usize) } } else { identity });
    // Everyone has read scratch before its next use.
    thread::sync_threads();
    r
}

/// y[r, :] = softmax(x[r, :]) for a row-major `rows × cols` x, max-subtracted, with
/// `kernel_std::math::exp` (the same function the CPU reference calls).
///
/// # Safety
/// `x` and `y` hold `rows·cols` f32 (equal or disjoint). Launched with blocks of
/// [`SOFTMAX_BLOCK`] threads and [`SOFTMAX_SHARED_BYTES`] of dynamic shared memory.
///
/// # Thread mapping
/// One block per row (grid-stride over rows); thread t handles columns t, t + blockDim.x, ….
#[kernel]
pub unsafe fn row_softmax_f32(x: *const f32, y: *mut f32, rows: usize, cols: usize) {
    let scratch = shared::dynamic_shared::<f32>();
    let (t, stride) = (thread::thread_idx_x() as usize, thread::block_dim_x() as usize);
    let mut row = thread::block_idx_x() as usize;
    while row < rows {
        let (xr, yr) = (x.wrapping_add(row * cols), y.wrapping_add(row * cols));
        let mut m = f32::NEG_INFINITY;
        let mut c = t;
        while c < cols {
            // SAFETY: c < cols within row < rows.
            let v = unsafe { *xr.add(c) };
            m = if v > m { v } else { m };
            c += stride;
        }
        // SAFETY: the launch gives SOFTMAX_SHARED_BYTES; every thread of the block is here.
        let m = unsafe { block_reduce(m, scratch, f32::NEG_INFINITY, warp::warp_max) };
        let mut s = 0.0;
        let mut c = t;
        while c < cols {
            // SAFETY: as above.
            s += math::exp(unsafe { *xr.add(c) } - m);
            c += stride;
        }
        // SAFETY: as above.
        let inv = 1.0 / unsafe { block_reduce(s, scratch, 0.0, warp::warp_sum) };
        let mut c = t;
        while c < cols {
            // SAFETY: as above; y equals x or is disjoint from it, and each element is read
            // before it is written by the same thread.
            unsafe { *yr.add(c) = math::exp(*xr.add(c) - m) * inv };
            c += stride;
        }
        row += thread::grid_dim_x() as usize;
    }
}

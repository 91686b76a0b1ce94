//! Elementwise binary ops: vector add (the article's first kernel, then a vectorized version)
//! and matrix add on 2-D blocks (the article's kernel; contiguous matrices are faster through the
//! vector kernel).

use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use crate::{thread, vector::stream_map};

/// Threads per block of the 1-D elementwise kernels.
pub const BLOCK_1D: u32 = 256;
/// Block shape (x = columns, y = rows) of [`mat_add_f32`].
pub const BLOCK_2D: (u32, u32) = (32, 8);

/// c[i] = a[i] + b[i], one thread per element, as in the article.
///
/// # Safety
/// `a`, `b`, `c` point to at least `n` f32 on the device; `c` does not overlap `a` or `b`
/// unless it equals one of them.
///
/// # Thread mapping
/// 1-D: element `blockIdx.x·blockDim.x + threadIdx.x`; the grid covers `n`.
#[kernel]
pub unsafe fn vec_add_f32(a: *const f32, b: *const f32, c: *mut f32, n: usize) {
    let i = thread::index_1d();
    if i < n {
        // SAFETY: i < n and the caller guarantees n elements.
        unsafe { *c.add(i) = *a.add(i) + *b.add(i) };
    }
}

/// c = a + b with 16-byte loads and stores, four quads in flight per thread per input
/// ([`stream_map`]).
///
/// # Safety
/// As [`vec_add_f32`], and all three pointers are 16-byte aligned.
///
/// # Thread mapping
/// 1-D: block g → floats g·4096 .. (g+1)·4096 (then every gridDim.x-th chunk), thread t → its
/// quads t, t + 256, t + 512, t + 768 of the chunk; launch with `STREAM_BLOCK` threads.
#[kernel]
pub unsafe fn vec_add_f32x4(a: *const f32, b: *const f32, c: *mut f32, n: usize) {
    // SAFETY: forwarded from the caller.
    unsafe { stream_map::<true>(a, b, c, n, |x, y| x + y) }
}

/// C = A + B for row-major `rows × cols` matrices on 2-D blocks.
///
/// # Safety
/// Each pointer holds `rows·cols` f32.
///
/// # Thread mapping
/// x → column (contiguous, so a warp's accesses coalesce), y → row; grid-stride in both, so a
/// grid capped at the hardware's limits still covers any shape.
#[kernel]
pub unsafe fn mat_add_f32(a: *const f32, b: *const f32, c: *mut f32, rows: usize, cols: usize) {
    let (x0, y0) = thread::index_2d();
    let (sx, sy) = (thread::grid_stride_x(), thread::grid_stride_y());
    let mut row = y0;
    while row < rows {
        let mut col = x0;
        while col < cols {
            let i = row * cols + col;
            // SAFETY: row < rows, col < cols.
            unsafe { *c.add(i) = *a.add(i) + *b.add(i) };
            col += sx;
        }
        row += sy;
    }
}

//! Matrix multiplication C = A·B (row-major, f32).

use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use crate::thread;

/// Block shape (x = columns of C, y = rows) of [`matmul_naive_f32`].
pub const NAIVE_BLOCK: (u32, u32) = (16, 16);

/// The article's naive matmul: one thread per element of C, reading a row of A and a column of B
/// from global memory.
///
/// # Safety
/// `a` is `m×k`, `b` is `k×n`, `c` is `m×n`, all row-major f32 on the device; `c` is disjoint.
///
/// # Thread mapping
/// x → column of C (so a warp reads B and writes C contiguously), y → row.
#[kernel]
pub unsafe fn matmul_naive_f32(a: *const f32, b: *const f32, c: *mut f32, m: usize, n: usize, k: usize) {
    let (col, row) = thread::index_2d();
    if row < m && col < n {
        let mut acc = 0.0f32;
        for p in 0..k {
            // SAFETY: row < m, col < n, p < k.
            acc += unsafe { *a.add(row * k + p) * *b.add(p * n + col) };
        }
        // SAFETY: in bounds as above.
        unsafe { *c.add(row * n + col) = acc };
    }
}

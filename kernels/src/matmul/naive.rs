//! The first rung: one thread per output element, operands read straight from global memory.

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use crate::thread;

/// Block shape (x = columns of C, y = rows) of `matmul_naive_f32`.
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

/// Block shape of `gemm_naive_f32`.
pub const GEMM_NAIVE_BLOCK: (u32, u32) = (16, 16);

/// Reference GEMM for any layout and epilogue: one thread per element of C.
///
/// # Safety
/// `a`, `b`, `c` (and `bias` if `p.has_bias != 0`, with n entries) cover every element the
/// strides address; `c` is disjoint from the inputs.
///
/// # Thread mapping
/// x → column of C, y → row.
#[kernel]
pub unsafe fn gemm_naive_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    let (col, row) = thread::index_2d();
    let (m, n) = (p.m as usize, p.n as usize);
    if row < m && col < n {
        let mut acc = 0.0f32;
        for q in 0..p.k as usize {
            // SAFETY: row < m, col < n, q < k; strides describe the caller's buffers.
            acc += unsafe {
                *a.add(row * p.a_row_stride as usize + q * p.a_col_stride as usize) * *b.add(q * p.b_row_stride as usize + col * p.b_col_stride as usize)
            };
        }
        // SAFETY: (row, col) is inside C.
        unsafe { super::gemm_epilogue(c, bias, &p, row, col, acc) };
    }
}

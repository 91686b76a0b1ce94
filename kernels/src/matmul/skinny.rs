//! GEMM with few columns (n ≤ 16): the forward product of a narrow output layer (the MLP's
//! B×10×1024). A 64×64 tile leaves most of its lanes idle there, and split over k it spent most
//! of its time adding partial tiles (256×10×1024: 28 µs on an H100, against cuBLAS's 7 µs).
//! `gemm_rowdot_f32` gives every lane useful work instead: one warp per row of C; its lanes
//! split k and keep the n dot products of that row, summed with shuffles at the end; split-K
//! over z when there are few rows. A k-contiguous A (x·Wᵀ) is read once, coalesced.
//!
//! Its twin for few rows (a thread per column of C, split-K) was measured and dropped: the tile
//! kernels beat it on every weight-gradient shape of the sweep (10×1024×4096: 113 against
//! 48 µs).

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use {
    super::{
        common::{DotElem, fma},
        split::{split_index, split_k_range, split_reduce, sync_threads_or},
    },
    crate::{reduce::warp_sum, thread},
};

/// Most columns of C (`gemm_rowdot_f32`).
pub const SKINNY_MAX: usize = 16;
/// Warps (rows of C) per block of `gemm_rowdot_f32`.
pub const ROWDOT_WARPS: u32 = 8;
/// k per split-K slice of `gemm_rowdot_f32` (one pass of its 32 lanes × 4 steps).
pub const ROWDOT_BK: usize = 128;

/// C = act(α·op(A)·op(B) + bias + β·C) for n ≤ 16: one warp per row of C, split-K over z.
///
/// # Safety
/// As `gemm_warpdot_f32`, with n ≤ `SKINNY_MAX`. Launch: block 32·`ROWDOT_WARPS`, grid
/// (⌈m/ROWDOT_WARPS⌉, 1, `p.splits`) with `p.slices_per_split` counted in `ROWDOT_BK` slices;
/// with split-K a counter per block and a workspace of ⌈m/8⌉·splits·16·256 floats.
///
/// # Thread mapping
/// Warp w of block (x, 0, z) → row x·8 + w; with both operands k-contiguous lane l sums
/// k = 4l + 128i + 0..4 (vector loads), else k = l + 32i, of split z's range for every column.
///
/// One block per multiprocessor's worth of registers (255): at two (128 registers) ptxas 13.5
/// spilled 508 bytes per thread.
#[kernel(max_threads = 256, min_blocks = 1)]
pub unsafe fn gemm_rowdot_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded.
    unsafe { rowdot(a, b, c, bias, p) }
}

/// [`gemm_rowdot_f32`] with bf16 A and B, f32 accumulation.
///
/// # Safety
/// As [`gemm_rowdot_f32`].
///
/// # Thread mapping
/// As [`gemm_rowdot_f32`].
#[kernel(max_threads = 256, min_blocks = 1)]
pub unsafe fn gemm_rowdot_bf16(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded.
    unsafe { rowdot(a, b, c, bias, p) }
}

/// The body of the row-per-warp kernels.
///
/// # Safety
/// As [`gemm_rowdot_f32`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn rowdot<T: DotElem>(a: *const T, b: *const T, c: *mut f32, bias: *const f32, p: GemmParams) {
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    let tid = thread::thread_idx_x() as usize;
    let lane = thread::lane_id() as usize;
    let row = thread::block_idx_x() as usize * ROWDOT_WARPS as usize + thread::warp_id() as usize;
    let z = split_index(&p);
    let (mut base, kend) = split_k_range(&p, z, ROWDOT_BK, k);
    let (ars, acs) = (p.a_row_stride as usize, p.a_col_stride as usize);
    let (brs, bcs) = (p.b_row_stride as usize, p.b_col_stride as usize);
    // Rows past m read row m − 1 (their sums are never stored), so every warp takes part in
    // the split-K barriers.
    let arow = a.wrapping_add((if row < m { row } else { m - 1 }) * ars);
    let mut acc = [[0f32; SKINNY_MAX]; 1];
    let aligned = |x: usize| x % T::QUAD_BYTES == 0;
    if acs == 1 && brs == 1 && ars % 4 == 0 && bcs % 4 == 0 && aligned(a as usize) && aligned(b as usize) {
        // Four k per lane and load, two loads of A per pass (256 k): the row streams in
        // a quarter of the round trips of the scalar loop below (1024×10×1024: 16.8 µs on
        // it, cuBLAS 9.5; H100). Every load of a pass is issued before its FMAs.
        while base + 2 * ROWDOT_BK <= kend {
            let q = base + 4 * lane;
            // SAFETY: q + 128 + 4 ≤ kend ≤ k; the row is inside A, columns below n inside B;
            // aligned (checked above).
            unsafe {
                let av = [T::load4(arow.add(q)), T::load4(arow.add(q + ROWDOT_BK))];
                unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                    if j < n {
                        unroll!(u in [0, 1] {
                            let bv = T::load4(b.add(j * bcs + q + ROWDOT_BK * u));
                            acc[0][j] = fma(av[u][3], bv[3], fma(av[u][2], bv[2], fma(av[u][1], bv[1], fma(av[u][0], bv[0], acc[0][j]))));
                        });
                    }
                });
            }
            base += 2 * ROWDOT_BK;
        }
        if base + ROWDOT_BK <= kend {
            let q = base + 4 * lane;
            // SAFETY: as above, for one 128-k step.
            unsafe {
                let av = T::load4(arow.add(q));
                unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                    if j < n {
                        let bv = T::load4(b.add(j * bcs + q));
                        acc[0][j] = fma(av[3], bv[3], fma(av[2], bv[2], fma(av[1], bv[1], fma(av[0], bv[0], acc[0][j]))));
                    }
                });
            }
            base += ROWDOT_BK;
        }
    }
    // Two k-steps per pass with every load of the pass issued first and unguarded (the
    // guarded loads of a first version were issued one after the other: 256×10×4096 took
    // 148 µs; four steps per pass, 80 loads in flight, spilled with ptxas 13.5); the tail is
    // guarded.
    let mut q = base + lane;
    while q + 32 < kend {
        // SAFETY: q + 32 < k, the row is inside A, columns below n inside B.
        unsafe {
            let av = [T::load(arow.add(q * acs)), T::load(arow.add((q + 32) * acs))];
            unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                if j < n {
                    unroll!(u in [0, 1] {
                        acc[0][j] = fma(av[u], T::load(b.add((q + 32 * u) * brs + j * bcs)), acc[0][j]);
                    });
                }
            });
        }
        q += 64;
    }
    while q < kend {
        // SAFETY: q < k, as above.
        unsafe {
            let av = T::load(arow.add(q * acs));
            unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                if j < n {
                    acc[0][j] = fma(av, T::load(b.add(q * brs + j * bcs)), acc[0][j]);
                }
            });
        }
        q += 32;
    }
    // SAFETY: the split-K counters and workspace are the host's (forwarded).
    if !unsafe { split_reduce(&p, thread::block_idx_x() as usize, z, &mut acc, (tid, 32 * ROWDOT_WARPS as usize), sync_threads_or) } {
        return;
    }
    unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
        if j < n {
            acc[0][j] = warp_sum(acc[0][j]);
        }
    });
    if lane == 0 && row < m {
        unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
            if j < n {
                // SAFETY: (row, j) is inside C.
                unsafe { super::gemm_epilogue_act::<true>(c, bias, &p, row, j, acc[0][j]) };
            }
        });
    }
}

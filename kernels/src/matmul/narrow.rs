//! GEMM with a narrow side: at most [`NARROW_MAX`] rows or columns of C (a batch-few layer, the
//! weight gradient of a narrow output layer, a product with a thin operand). Such a product is
//! a pass over its wide operand: every element of it is used by at most 16 outputs, so the time
//! is the time to read it, and a tile of 64 or 128 rows spends most of its lanes and its loads on
//! rows that do not exist (f32 1×4096×4096 with B n-contiguous: 44 µs on the column kernel,
//! cuBLAS 23; BF16 16×4096×4096: 16.7 µs on the `wgmma` tiles, cuBLAS 9.2; H100).
//!
//! The kernels here call the wide operand G (big × k: op(B)ᵀ for few rows, op(A) for few
//! columns) and the narrow one H (small × k). Each block stages H's slice of k in shared memory
//! (as f32, in the order its loop reads it) and streams its own part of G once, with 8 to 16
//! independent 16-byte (f32) or 8-byte (bf16) loads per thread in flight, whatever G's layout:
//!
//! - G big-contiguous (`gemm_narrow_mn{4,8,16}_*`): a warp reads 128 consecutive big indices of
//!   one k-row per load, its lanes four each; the block's 8 warps take turns over k-rows and add
//!   their S×128 partial sums through shared memory in a fixed tree.
//! - G k-contiguous (`gemm_narrow_k{4,8,16}_*`): a warp reads four G rows, its lanes along k,
//!   and folds its 4S sums over the lanes (a butterfly that halves the values each step: 62
//!   shuffles instead of 320 at S = 16); a block holds 32 big indices.
//!
//! Split-K over z adds the blocks' partials in z order (`split_reduce`), so the result has the
//! same bits on every run.

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use {
    super::common::{DotElem, fma},
    crate::{shared::dynamic_shared, thread, vector::F32x4},
};

/// Most rows or columns of C the narrow kernels take.
pub const NARROW_MAX: usize = 16;
/// Threads per block of the narrow kernels.
pub const NARROW_THREADS: u32 = 256;
/// Warps per block.
#[cfg(target_arch = "nvptx64")]
const NARROW_WARPS: usize = NARROW_THREADS as usize / 32;
/// k per split-K slice.
pub const NARROW_BK: usize = 32;
/// k of H staged in shared memory at a time.
pub const NARROW_CHUNK: usize = 512;
/// Big indices per block of `gemm_narrow_mn_*` (32 lanes × 4).
pub const NARROW_MN_BIG: usize = 128;
/// Big indices per block of `gemm_narrow_k_*` (8 warps × 4 rows).
pub const NARROW_K_BIG: usize = 32;
/// Dynamic shared memory of the narrow kernels: a chunk of H as f32 (which the end of the block
/// reuses for its partial sums).
pub const NARROW_SHARED: u32 = (NARROW_MAX * NARROW_CHUNK * 4) as u32;
/// Whether the narrow kernels treat an m×n product as a few columns (G = op(A)) rather than a
/// few rows (G = op(B)ᵀ): the smaller side is the narrow one, rows on a tie. Shared by the
/// host's grid and the kernels.
pub const fn narrow_few_cols(m: usize, n: usize) -> bool {
    n < m
}

/// The (small, big) sides of an m×n product for the narrow kernels.
pub const fn narrow_sides(m: usize, n: usize) -> (usize, usize) {
    if narrow_few_cols(m, n) { (n, m) } else { (m, n) }
}

/// The narrow side a kernel is compiled for (its accumulators and FMAs per element of G) for
/// a product whose narrow side is `small` (1..=`NARROW_MAX`): 4, 8 or 16. The rows past
/// `small` are computed from whatever shared memory holds and never stored; with the width
/// fixed at compile time the inner loops have no branch per row (with a guard per row, the
/// first k-row's FMAs sat between the loads of a turn).
pub const fn narrow_width(small: usize) -> usize {
    if small <= 4 {
        4
    } else if small <= 8 {
        8
    } else {
        NARROW_MAX
    }
}

/// The narrow kernels, per form, element type and width: (`body`, width S, loads per turn,
/// blocks per multiprocessor). Loads per turn are k-rows of G per warp (`narrow_mn`) or quads
/// per G row and lane (`narrow_k`), as many as the registers of `blocks` blocks hold with S·4
/// accumulators; they read G with `DotElem::load4_streamed`.
macro_rules! narrow_kernels {
    ($($name:ident: $t:ty, $body:ident, $s:literal, $u:literal, $mb:literal;)*) => {$(
        #[doc = concat!("`", stringify!($body), "` for ", stringify!($t), " operands and a narrow side of at most ", stringify!($s), " (see the module doc).")]
        ///
        /// # Safety
        /// `a`, `b`, `c` and `bias` (n floats if `p.has_bias != 0`) cover every element the
        /// strides address; `c` is disjoint from the inputs; min(m, n) ≤ the width. Launch: block
        /// `NARROW_THREADS`, grid (⌈big/`NARROW_MN_BIG`⌉ or ⌈big/`NARROW_K_BIG`⌉, 1,
        /// `p.splits`), `NARROW_SHARED` bytes of dynamic shared memory; `p.slices_per_split`
        /// counted in `NARROW_BK` slices; with split-K a counter per block of the x grid and a
        /// workspace of 16·(its big indices) floats per block.
        ///
        /// # Thread mapping
        /// `narrow_mn`: lane l of warp w in block (x, 0, z) → big indices 128x + 4l + 0..4,
        /// k-rows of split z taken U at a time, warp w's turn w of every 8. `narrow_k`: warp w →
        /// G rows 32x + 4w + 0..4, lane l → k = 4l + 128i + 0..4 of split z.
        #[kernel(max_threads = 256, min_blocks = $mb)]
        pub unsafe fn $name(a: *const $t, b: *const $t, c: *mut f32, bias: *const f32, p: GemmParams) {
            #[cfg(target_arch = "nvptx64")]
            // SAFETY: forwarded.
            unsafe {
                $body::<_, $s, $u>(a, b, c, bias, p)
            }
        }
    )*};
}

// Measured on an H100 (docs/runs/2026-11-24-h100-s10/e1): at width 16, f32 `narrow_mn` with 4
// rows per turn and two blocks per multiprocessor ran as fast as 8 rows and one block, and 16
// rows ran slower; compiled per width, 4 rows at two blocks spilled (ptxas, sm_80), so it runs 8
// rows at one. `narrow_k` at width 16 spilled at two blocks with two quads per row, so it runs
// one; bf16 `narrow_mn` at width 8 spilled with 16 rows, so it takes 8.
narrow_kernels! {
    gemm_narrow_mn4_f32: f32, narrow_mn, 4, 16, 2;
    gemm_narrow_mn8_f32: f32, narrow_mn, 8, 8, 2;
    gemm_narrow_mn16_f32: f32, narrow_mn, 16, 8, 1;
    gemm_narrow_mn4_bf16: u16, narrow_mn, 4, 16, 2;
    gemm_narrow_mn8_bf16: u16, narrow_mn, 8, 8, 2;
    gemm_narrow_mn16_bf16: u16, narrow_mn, 16, 8, 2;
    gemm_narrow_k4_f32: f32, narrow_k, 4, 4, 2;
    gemm_narrow_k8_f32: f32, narrow_k, 8, 2, 2;
    gemm_narrow_k16_f32: f32, narrow_k, 16, 2, 1;
    gemm_narrow_k4_bf16: u16, narrow_k, 4, 4, 2;
    gemm_narrow_k8_bf16: u16, narrow_k, 8, 2, 2;
    gemm_narrow_k16_bf16: u16, narrow_k, 16, 2, 1;
}

/// The two operands as the narrow kernels see them: G (big × k) and H (small × k), element
/// (i, q) of each at `ptr + i·outer + q·inner`.
#[cfg(target_arch = "nvptx64")]
#[derive(Clone, Copy)]
struct Narrow<T> {
    g: *const T,
    g_outer: usize,
    g_inner: usize,
    h: *const T,
    h_outer: usize,
    h_inner: usize,
    small: usize,
    big: usize,
    few_cols: bool,
}

#[cfg(target_arch = "nvptx64")]
impl<T: DotElem> Narrow<T> {
    fn of(a: *const T, b: *const T, p: &GemmParams) -> Self {
        let (m, n) = (p.m as usize, p.n as usize);
        let (ars, acs, brs, bcs) = (p.a_row_stride as usize, p.a_col_stride as usize, p.b_row_stride as usize, p.b_col_stride as usize);
        if narrow_few_cols(m, n) {
            Narrow { g: a, g_outer: ars, g_inner: acs, h: b, h_outer: bcs, h_inner: brs, small: n, big: m, few_cols: true }
        } else {
            Narrow { g: b, g_outer: bcs, g_inner: brs, h: a, h_outer: ars, h_inner: acs, small: m, big: n, few_cols: false }
        }
    }

    /// Stages H's k in [c0, c1) in shared memory as f32: at `s·NARROW_CHUNK + q` (`K_ROWS`,
    /// k-rows for a lane each) or `q·NARROW_MAX + s` (a k-row's 16 values together), reading
    /// along whichever of H's strides is 1.
    ///
    /// # Safety
    /// c1 − c0 ≤ NARROW_CHUNK, c1 ≤ k; every thread of the block calls it between barriers.
    unsafe fn stage<const K_ROWS: bool>(&self, sm: *mut f32, c0: usize, c1: usize) {
        let len = c1 - c0;
        let total = self.small * len;
        let mut i = thread::thread_idx_x() as usize;
        while i < total {
            let (s, q) = if self.h_inner == 1 { (i / len, i % len) } else { (i % self.small, i / self.small) };
            // SAFETY: s < small, c0 + q < k: inside H; the slot is inside the chunk.
            unsafe {
                let x = T::load(self.h.add(s * self.h_outer + (c0 + q) * self.h_inner));
                *sm.add(if K_ROWS { s * NARROW_CHUNK + q } else { q * NARROW_MAX + s }) = x;
            }
            i += NARROW_THREADS as usize;
        }
    }
}

/// The block's S×`BIG` partial sums (in shared memory at `s·BIG + j`, written by the caller)
/// through split-K and the epilogue: thread t holds entries t + 256·i, i < `PER` (16·BIG/256:
/// the workspace slot is the same for every width).
///
/// # Safety
/// `sm` holds the block's partials; every thread calls it; the split-K counters and workspace
/// are the host's (see the kernels).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn narrow_finish<T: DotElem, const S: usize, const BIG: usize, const PER: usize>(
    x: &Narrow<T>,
    sm: *mut f32,
    big0: usize,
    c: *mut f32,
    bias: *const f32,
    p: &GemmParams,
) {
    use super::split::{split_index, split_reduce, sync_threads_or};
    const { assert!(PER <= 16 && PER * (NARROW_THREADS as usize) == NARROW_MAX * BIG && S <= NARROW_MAX) };
    let tid = thread::thread_idx_x() as usize;
    let threads = NARROW_THREADS as usize;
    let area = S * BIG;
    if p.splits > 1 {
        let mut part = [[0f32; PER]; 1];
        // SAFETY (whole block): entries below area of the partials (the rest stay 0); the
        // workspace is the host's, 16·BIG floats per block and split (forwarded).
        unsafe {
            unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                if i < PER && tid + threads * i < area {
                    part[0][i] = *sm.add(tid + threads * i);
                }
            });
            let tile = thread::block_idx_x() as usize;
            if !split_reduce(p, tile, split_index(p), &mut part, (tid, threads), sync_threads_or) {
                return;
            }
            unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                if i < PER && tid + threads * i < area {
                    *sm.add(tid + threads * i) = part[0][i];
                }
            });
        }
    }
    // One copy of the epilogue, over this thread's own entries (the ones it just wrote).
    let mut f = tid;
    while f < area {
        let (s, g) = (f / BIG, big0 + f % BIG);
        if s < x.small && g < x.big {
            let (row, col) = if x.few_cols { (g, s) } else { (s, g) };
            // SAFETY: (row, col) is inside C; the entry is this block's.
            unsafe { super::gemm_epilogue_act::<true>(c, bias, p, row, col, *sm.add(f)) };
        }
        f += threads;
    }
}

/// acc[s][j] += H(s, row) · g[j] for every s < S: H's k-row `row` of the staged chunk (16
/// values at `row·16`) times a quad of G.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn fma_row<const S: usize>(acc: &mut [[f32; 4]; NARROW_MAX], sm: *const f32, row: usize, g: [f32; 4]) {
    let h = sm.wrapping_add(row * NARROW_MAX) as *const F32x4;
    unroll!(qd in [0, 1, 2, 3] {
        if 4 * qd < S {
            // SAFETY: inside the staged chunk (row < NARROW_CHUNK).
            let hv = unsafe { *h.add(qd) }.0;
            unroll!(e in [0, 1, 2, 3] {
                unroll!(j in [0, 1, 2, 3] {
                    acc[4 * qd + e][j] = fma(hv[e], g[j], acc[4 * qd + e][j]);
                });
            });
        }
    });
}

/// The body of `gemm_narrow_mn*`: width S, U k-rows per warp and turn.
///
/// # Safety
/// As the kernels.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn narrow_mn<T: DotElem, const S: usize, const U: usize>(a: *const T, b: *const T, c: *mut f32, bias: *const f32, p: GemmParams) {
    use super::split::{split_index, split_k_range};
    let x = Narrow::of(a, b, &p);
    let k = p.k as usize;
    let (lane, warp) = (thread::lane_id() as usize, thread::warp_id() as usize);
    let big0 = thread::block_idx_x() as usize * NARROW_MN_BIG;
    let g0 = big0 + 4 * lane;
    let (q0, q1) = split_k_range(&p, split_index(&p), NARROW_BK, k);
    let vec = g0 + 4 <= x.big && x.g_outer == 1 && x.g_inner % 4 == 0 && (x.g as usize).is_multiple_of(T::QUAD_BYTES);
    let sm = dynamic_shared::<f32>();
    let mut acc = [[0f32; 4]; NARROW_MAX];
    let mut c0 = q0;
    while c0 < q1 {
        let c1 = if c0 + NARROW_CHUNK < q1 { c0 + NARROW_CHUNK } else { q1 };
        thread::sync_threads();
        // SAFETY: c1 − c0 ≤ NARROW_CHUNK, c1 ≤ k; between barriers.
        unsafe { x.stage::<false>(sm, c0, c1) };
        thread::sync_threads();
        let mut r = c0 + U * warp;
        if vec {
            // U k-rows per turn, every load issued before the FMAs.
            while r + U <= c1 {
                let mut gv = [[0f32; 4]; U];
                unroll!(u in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                    if u < U {
                        // SAFETY: r + u < k; g0 + 4 ≤ big; aligned (checked above).
                        gv[u] = unsafe { T::load4_streamed(x.g.add((r + u) * x.g_inner + g0)) };
                    }
                });
                unroll!(u in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                    if u < U {
                        fma_row::<S>(&mut acc, sm, r + u - c0, gv[u]);
                    }
                });
                r += U * NARROW_WARPS;
            }
        }
        // Without vector loads (a k-row stride that breaks their alignment, or the last quad
        // of big), full turns of one element at a time, every load of the turn issued first:
        // one row at a time, f32 6609×12×2773 with its 6609-float k-rows took 121 µs (H100,
        // docs/runs/2026-11-24-h100-s10/r2).
        if !vec && g0 < x.big {
            while r + U <= c1 {
                // Four k-rows of four elements at a time (16 loads: more held too many
                // addresses and spilled).
                let mut t = 0;
                while t < U {
                    let mut gv = [[0f32; 4]; 4];
                    unroll!(u in [0, 1, 2, 3] {
                        unroll!(j in [0, 1, 2, 3] {
                            if g0 + j < x.big {
                                // SAFETY: r + t + u < k; g0 + j < big.
                                gv[u][j] = unsafe { T::load(x.g.add((r + t + u) * x.g_inner + (g0 + j) * x.g_outer)) };
                            }
                        });
                    });
                    unroll!(u in [0, 1, 2, 3] {
                        fma_row::<S>(&mut acc, sm, r + t + u - c0, gv[u]);
                    });
                    t += 4;
                }
                r += U * NARROW_WARPS;
            }
        }
        // The warp's last turn one k-row at a time, zero past big.
        if g0 < x.big {
            while r < c1 {
                let stop = if r + U < c1 { r + U } else { c1 };
                while r < stop {
                    // SAFETY: r < k; the indices read are below big.
                    let g = core::array::from_fn(|j| if g0 + j < x.big { unsafe { T::load(x.g.add(r * x.g_inner + (g0 + j) * x.g_outer)) } } else { 0.0 });
                    fma_row::<S>(&mut acc, sm, r - c0, g);
                    r += 1;
                }
                r += U * (NARROW_WARPS - 1);
            }
        }
        c0 = c1;
    }
    // The warps' partials, added in a fixed tree (4 + 0.., then 2 + 0.., then 1 + 0) through
    // shared memory: slot w holds a warp's S×128 sums at s·128 + 4·lane + j.
    let slot = |w: usize, s: usize| sm.wrapping_add(w * S * NARROW_MN_BIG + s * NARROW_MN_BIG + 4 * lane) as *mut F32x4;
    unroll!(level in [0, 1, 2] {
        let half = 4 >> level;
        thread::sync_threads();
        if warp >= half && warp < 2 * half {
            unroll!(s in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                if s < S {
                    // SAFETY: slot warp − half < 4: inside the shared memory.
                    unsafe { *slot(warp - half, s) = F32x4(acc[s]) };
                }
            });
        }
        thread::sync_threads();
        if warp < half {
            unroll!(s in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                if s < S {
                    // SAFETY: as above.
                    let o = unsafe { *slot(warp, s) }.0;
                    unroll!(j in [0, 1, 2, 3] {
                        acc[s][j] += o[j];
                    });
                }
            });
        }
    });
    thread::sync_threads();
    if warp == 0 {
        unroll!(s in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
            if s < S {
                // SAFETY: slot 0.
                unsafe { *slot(0, s) = F32x4(acc[s]) };
            }
        });
    }
    thread::sync_threads();
    // SAFETY: slot 0 holds the block's S×128 partials; every thread calls it.
    unsafe { narrow_finish::<T, S, NARROW_MN_BIG, 8>(&x, sm, big0, c, bias, &p) };
}

/// The body of `gemm_narrow_k*`: width S, V quads per G row, lane and turn.
///
/// # Safety
/// As the kernels.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn narrow_k<T: DotElem, const S: usize, const V: usize>(a: *const T, b: *const T, c: *mut f32, bias: *const f32, p: GemmParams) {
    use super::split::{split_index, split_k_range};
    let x = Narrow::of(a, b, &p);
    let k = p.k as usize;
    let (lane, warp) = (thread::lane_id() as usize, thread::warp_id() as usize);
    let big0 = thread::block_idx_x() as usize * NARROW_K_BIG;
    let row0 = big0 + 4 * warp;
    let (q0, q1) = split_k_range(&p, split_index(&p), NARROW_BK, k);
    let vec = x.g_inner == 1 && x.g_outer % 4 == 0 && (x.g as usize).is_multiple_of(T::QUAD_BYTES);
    // Rows past big read row big − 1 (their sums are never stored): every lane takes part in
    // the shuffles.
    let rows: [*const T; 4] = core::array::from_fn(|r| x.g.wrapping_add((if row0 + r < x.big { row0 + r } else { x.big - 1 }) * x.g_outer));
    let sm = dynamic_shared::<f32>();
    let mut acc = [[0f32; 4]; NARROW_MAX];
    let mut c0 = q0;
    while c0 < q1 {
        let c1 = if c0 + NARROW_CHUNK < q1 { c0 + NARROW_CHUNK } else { q1 };
        thread::sync_threads();
        // SAFETY: c1 − c0 ≤ NARROW_CHUNK, c1 ≤ k; between barriers.
        unsafe { x.stage::<true>(sm, c0, c1) };
        thread::sync_threads();
        let h = |s: usize, q: usize| sm.wrapping_add(s * NARROW_CHUNK + q - c0);
        if vec {
            // acc[s][r] += H(s, q..q + 4) · G(r, q..q + 4).
            let dot = |acc: &mut [[f32; 4]; NARROW_MAX], q: usize, gv: &[[f32; 4]; 4]| {
                unroll!(s in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                    if s < S {
                        // SAFETY: q − c0 + 4 ≤ c1 − c0, 16-byte aligned (q − c0 is a multiple of 4).
                        let hv = unsafe { *(h(s, q) as *const F32x4) }.0;
                        unroll!(r in [0, 1, 2, 3] {
                            let g = gv[r];
                            acc[s][r] = fma(hv[3], g[3], fma(hv[2], g[2], fma(hv[1], g[1], fma(hv[0], g[0], acc[s][r]))));
                        });
                    }
                });
            };
            let mut q = c0 + 4 * lane;
            // V quads of each of the four rows per turn, all loads issued first.
            while q + 128 * (V - 1) + 4 <= c1 {
                let mut g = [[[0f32; 4]; 4]; V];
                unroll!(v in [0, 1, 2, 3] {
                    if v < V {
                        // SAFETY: q + 128v + 4 ≤ k, rows inside G, aligned (checked above).
                        g[v] = unsafe { rows.map(|row| T::load4_streamed(row.add(q + 128 * v))) };
                    }
                });
                unroll!(v in [0, 1, 2, 3] {
                    if v < V {
                        dot(&mut acc, q + 128 * v, &g[v]);
                    }
                });
                q += 128 * V;
            }
            while q + 4 <= c1 {
                // SAFETY: q + 4 ≤ k, as above.
                let g = unsafe { rows.map(|row| T::load4(row.add(q))) };
                dot(&mut acc, q, &g);
                q += 128;
            }
            // The lanes' last partial quad, one element at a time.
            unroll!(e in [0, 1, 2, 3] {
                if q + e < c1 {
                    // SAFETY: q + e < k.
                    let g = unsafe { rows.map(|row| T::load(row.add(q + e))) };
                    unroll!(s in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                        if s < S {
                            // SAFETY: inside the chunk.
                            let hv = unsafe { *h(s, q + e) };
                            unroll!(r in [0, 1, 2, 3] {
                                acc[s][r] = fma(hv, g[r], acc[s][r]);
                            });
                        }
                    });
                }
            });
        } else {
            let mut q = c0 + lane;
            while q < c1 {
                // SAFETY: q < k, rows inside G.
                let g = unsafe { rows.map(|row| T::load(row.add(q * x.g_inner))) };
                unroll!(s in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                    if s < S {
                        // SAFETY: inside the chunk.
                        let hv = unsafe { *h(s, q) };
                        unroll!(r in [0, 1, 2, 3] {
                            acc[s][r] = fma(hv, g[r], acc[s][r]);
                        });
                    }
                });
                q += 32;
            }
        }
        c0 = c1;
    }
    // Fold the 4S sums over the lanes: each step a lane keeps half its values and adds its
    // partner's other half; once one value is left, partners add it whole. Lane l ends with
    // value i = (l·4S/32) + j, j < max(1, 4S/32) (both lanes of a pair with the same one when
    // 4S < 32).
    let n = 4 * S;
    let mut v = [0f32; 4 * NARROW_MAX];
    unroll!(s in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
        unroll!(r in [0, 1, 2, 3] {
            v[4 * s + r] = acc[s][r];
        });
    });
    unroll!(step in [0, 1, 2, 3, 4] {
        let half = n >> (step + 1);
        let off = 16u32 >> step;
        if half >= 1 {
            let upper = lane as u32 & off != 0;
            unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] {
                if i < half {
                    let (lo, hi) = (v[i], v[i + half]);
                    let (keep, send) = if upper { (hi, lo) } else { (lo, hi) };
                    v[i] = keep + kernel_std::warp::shfl_xor_f32(send, off);
                }
            });
        } else {
            v[0] += kernel_std::warp::shfl_xor_f32(v[0], off);
        }
    });
    thread::sync_threads();
    // Value i is (s, r) = (i / 4, i % 4): partial (s, 4w + r) of the block.
    let per_lane = if n >= 64 { n / 32 } else { 1 };
    let lanes_per_value = if n >= 32 { 1 } else { 32 / n };
    if lane % lanes_per_value == 0 {
        unroll!(j in [0, 1] {
            if j < per_lane {
                let i = lane / lanes_per_value * per_lane + j;
                // SAFETY: s·32 + 4w + r < S·32: inside the shared memory.
                unsafe { *sm.add(i / 4 * NARROW_K_BIG + 4 * warp + i % 4) = v[j] };
            }
        });
    }
    thread::sync_threads();
    // SAFETY: the S×32 partials are in shared memory; every thread calls it.
    unsafe { narrow_finish::<T, S, NARROW_K_BIG, 2>(&x, sm, big0, c, bias, &p) };
}

//! FP32 GEMM on the CUDA cores with 2-D register blocking: a 256-thread block computes a
//! 128×128 tile of C, each thread 8×8 outputs from registers, staging 128×16 slices of op(A)
//! and op(B) through shared memory. Four rungs of the ladder share this one body and differ in
//! compile-time switches:
//!
//! - `gemm_bt2d_f32`: scalar global loads, scalar shared reads, one shared stage.
//! - `gemm_vec4_f32`: 16-byte global loads along the contiguous direction of each operand,
//!   tiles stored k-major (`As[k][m]`, `Bs[k][n]`, rows padded by 4 floats) so a thread reads
//!   its 8 A and 8 B values at one k as four 16-byte shared loads.
//! - `gemm_db_f32`: two shared stages: the next k-slice is loaded into registers while the
//!   current one is multiplied, then stored into the other stage: one barrier per slice.
//! - `gemm_warptile_f32`: threads mapped onto warp tiles (each warp owns 32×64 of C, its
//!   lanes 4×8 with 4×4 sub-blocks 16 rows / 32 columns apart), so a warp's 16-byte shared reads
//!   are broadcasts or cover 128 contiguous bytes: no bank conflicts. The FP32 default.

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use {
    super::common::{Operand, fma},
    crate::{thread, vector::F32x4},
};

/// Rows of C per block.
pub const SIMT_BM: usize = 128;
/// Columns of C per block.
pub const SIMT_BN: usize = 128;
/// k per shared-memory slice.
pub const SIMT_BK: usize = 16; // the inner loop below is unrolled for exactly 16
/// Threads per block (each computes 8×8 outputs).
pub const SIMT_THREADS: u32 = 256;
/// Floats of padding per k-row of a shared tile (keeps rows 16-byte aligned and spreads the
/// transposed stores over more banks).
pub const SIMT_PAD: usize = 4;
const LDA: usize = SIMT_BM + SIMT_PAD;
const LDB: usize = SIMT_BN + SIMT_PAD;
const STAGE: usize = SIMT_BK * (LDA + LDB);

/// Dynamic shared memory of a SIMT kernel with `stages` shared stages (1, or 2 for the double
/// buffered ones).
pub const fn simt_shared_bytes(stages: usize) -> u32 {
    (stages * STAGE * 4) as u32
}
/// Shared memory of `gemm_bt2d_f32` and `gemm_vec4_f32`.
pub const SIMT_SHARED_1: u32 = simt_shared_bytes(1);
/// Shared memory of `gemm_db_f32` and `gemm_warptile_f32`.
pub const SIMT_SHARED_2: u32 = simt_shared_bytes(2);

/// Quads (4 floats) of each operand tile per thread.
#[cfg(target_arch = "nvptx64")]
const Q: usize = SIMT_BM * SIMT_BK / 4 / SIMT_THREADS as usize;

/// The shared body. VEC: 16-byte global and shared accesses; DOUBLE: two shared stages;
/// WARP: warp-tiled thread mapping.
///
/// # Safety
/// As the kernels below.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn simt_body<const VEC: bool, const DOUBLE: bool, const WARP: bool>(
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    bias: *const f32,
    p: &GemmParams,
) {
    const NT: usize = SIMT_THREADS as usize;
    let tid = thread::thread_idx_x() as usize;
    let m0 = thread::block_idx_y() as usize * SIMT_BM;
    let n0 = thread::block_idx_x() as usize * SIMT_BN;
    let mut opa = Operand::a(a, p);
    let mut opb = Operand::b(b, p);
    if !VEC {
        opa.disable_vec();
        opb.disable_vec();
    }
    // This thread's rows are row_q[h] + 0..4 and columns col_q[h] + 0..4 (h = 0, 1).
    let (row_q, col_q) = if WARP {
        let (warp, lane) = (tid / 32, tid % 32);
        let (wm, wn) = ((warp / 2) * 32, (warp % 2) * 64);
        let (lm, ln) = (lane / 8, lane % 8);
        ([wm + lm * 4, wm + lm * 4 + 16], [wn + ln * 4, wn + ln * 4 + 32])
    } else {
        let (ty, tx) = (tid / 16, tid % 16);
        ([ty * 8, ty * 8 + 4], [tx * 8, tx * 8 + 4])
    };
    let smem = crate::shared::dynamic_shared::<f32>();
    let k = p.k as usize;
    let tiles = k.div_ceil(SIMT_BK);
    let mut acc = [[0.0f32; 8]; 8];

    // SAFETY (whole loop): shared accesses stay inside the launch's `SIMT_SHARED_*` bytes; global
    // reads go through `Operand`, which bounds-checks against m, n, k.
    let mut ra = unsafe { opa.load_tile::<SIMT_BM, SIMT_BK, NT, Q>(m0, 0, tid) };
    let mut rb = unsafe { opb.load_tile::<SIMT_BN, SIMT_BK, NT, Q>(n0, 0, tid) };
    unsafe {
        opa.store_kmajor::<SIMT_BM, SIMT_BK, NT, Q, LDA>(&ra, smem, tid);
        opb.store_kmajor::<SIMT_BN, SIMT_BK, NT, Q, LDB>(&rb, smem.add(SIMT_BK * LDA), tid);
    }
    thread::sync_threads();
    for t in 0..tiles {
        let stage = if DOUBLE { t % 2 } else { 0 };
        let more = t + 1 < tiles;
        if DOUBLE && more {
            // Issue the next slice's global loads now; they land while this slice is multiplied.
            ra = unsafe { opa.load_tile::<SIMT_BM, SIMT_BK, NT, Q>(m0, (t + 1) * SIMT_BK, tid) };
            rb = unsafe { opb.load_tile::<SIMT_BN, SIMT_BK, NT, Q>(n0, (t + 1) * SIMT_BK, tid) };
        }
        let sa = unsafe { smem.add(stage * STAGE) };
        let sb = unsafe { sa.add(SIMT_BK * LDA) };
        unroll!(kk in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
            let mut af = [0.0f32; 8];
            let mut bf = [0.0f32; 8];
            unroll!(h in [0, 1] {
                // SAFETY: kk < BK, row_q[h] + 4 ≤ BM ≤ LDA (likewise for B): inside the stage.
                unsafe {
                    if VEC {
                        let x = *(sa.add(kk * LDA + row_q[h]) as *const F32x4);
                        let y = *(sb.add(kk * LDB + col_q[h]) as *const F32x4);
                        unroll!(i in [0, 1, 2, 3] {
                            af[h * 4 + i] = x.0[i];
                            bf[h * 4 + i] = y.0[i];
                        });
                    } else {
                        unroll!(i in [0, 1, 2, 3] {
                            af[h * 4 + i] = *sa.add(kk * LDA + row_q[h] + i);
                            bf[h * 4 + i] = *sb.add(kk * LDB + col_q[h] + i);
                        });
                    }
                }
            });
            unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
                unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7] {
                    acc[i][j] = fma(af[i], bf[j], acc[i][j]);
                });
            });
        });
        if more {
            if !DOUBLE {
                // Everyone is done reading the single stage before it is overwritten.
                thread::sync_threads();
                ra = unsafe { opa.load_tile::<SIMT_BM, SIMT_BK, NT, Q>(m0, (t + 1) * SIMT_BK, tid) };
                rb = unsafe { opb.load_tile::<SIMT_BN, SIMT_BK, NT, Q>(n0, (t + 1) * SIMT_BK, tid) };
            }
            // With two stages the other one was last read in the previous iteration, which
            // every thread finished before that iteration's barrier.
            let next = if DOUBLE { (t + 1) % 2 } else { 0 };
            unsafe {
                let sa = smem.add(next * STAGE);
                opa.store_kmajor::<SIMT_BM, SIMT_BK, NT, Q, LDA>(&ra, sa, tid);
                opb.store_kmajor::<SIMT_BN, SIMT_BK, NT, Q, LDB>(&rb, sa.add(SIMT_BK * LDA), tid);
            }
            thread::sync_threads();
        }
    }
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
        let row = m0 + row_q[i / 4] + i % 4;
        unroll!(h in [0, 1] {
            let v = [acc[i][h * 4], acc[i][h * 4 + 1], acc[i][h * 4 + 2], acc[i][h * 4 + 3]];
            // SAFETY: gemm_epilogue4 bounds-checks (row, col..col+4) against m and n.
            unsafe { super::gemm_epilogue4(c, bias, p, row, n0 + col_q[h], v) };
        });
    });
}

/// 2-D register blocking: 8×8 outputs per thread, scalar loads.
///
/// # Safety
/// `a`, `b`, `c` (and `bias` if `p.has_bias != 0`, with n entries) cover every element the
/// strides address; `c` is disjoint from the inputs. Launch: block `SIMT_THREADS`, grid
/// (⌈n/SIMT_BN⌉, ⌈m/SIMT_BM⌉), `SIMT_SHARED_1` bytes of dynamic shared memory.
///
/// # Thread mapping
/// Block (x, y) → C tile at rows y·128, columns x·128; thread t → rows (t/16)·8 + 0..8,
/// columns (t%16)·8 + 0..8 of it.
#[kernel]
pub unsafe fn gemm_bt2d_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { simt_body::<false, false, false>(a, b, c, bias, &p) }
}

/// `gemm_bt2d_f32` with 16-byte global loads and k-major padded shared tiles read 16 bytes
/// at a time.
///
/// # Safety
/// As `gemm_bt2d_f32` (`SIMT_SHARED_1` bytes of shared memory).
///
/// # Thread mapping
/// As `gemm_bt2d_f32`.
#[kernel]
pub unsafe fn gemm_vec4_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { simt_body::<true, false, false>(a, b, c, bias, &p) }
}

/// `gemm_vec4_f32` with two shared stages (the next slice prefetched into registers).
///
/// # Safety
/// As `gemm_bt2d_f32`, with `SIMT_SHARED_2` bytes of shared memory.
///
/// # Thread mapping
/// As `gemm_bt2d_f32`.
#[kernel]
pub unsafe fn gemm_db_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { simt_body::<true, true, false>(a, b, c, bias, &p) }
}

/// `gemm_db_f32` with warp tiling: the fastest FP32 kernel, what `GemmKernel::Auto` runs.
///
/// # Safety
/// As `gemm_bt2d_f32`, with `SIMT_SHARED_2` bytes of shared memory.
///
/// # Thread mapping
/// Block (x, y) → C tile at rows y·128, columns x·128. Warp w → rows (w/2)·32, columns
/// (w%2)·64 of it; lane l → rows (l/8)·4 + {0..4, 16..20}, columns (l%8)·4 + {0..4, 32..36}
/// of the warp's tile.
#[kernel]
pub unsafe fn gemm_warptile_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { simt_body::<true, true, true>(a, b, c, bias, &p) }
}

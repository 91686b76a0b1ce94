//! FP32 GEMM on the CUDA cores with 8×16 outputs per thread: a 256-thread block computes a
//! 128×256 tile of C, one block per multiprocessor, staging 8-deep k-slices of op(A) and op(B)
//! through two shared stages.
//!
//! Against the 8×8-per-thread kernels (`simt.rs`) this halves the shared-memory reads per FMA
//! (6 16-byte reads feed 128 FMAs instead of 4 feeding 64) and gives each warp twice the
//! independent accumulators, so two warps per scheduler keep the FMA pipe busy where the 8×8
//! kernel needed four (Nsight Compute at 4096³ on an H100: 0.79 instructions issued per
//! scheduler cycle, 21% of cycles with no eligible warp).
//!
//! The kernel covers whole tiles only (m a multiple of 128, n of 256, operands that allow
//! 16-byte loads); the host runs the edge strips of C with `gemm_warptile_fast_f32`. Any k: a
//! ragged last slice goes through the bounds-checked loader.

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use {
    super::common::{Operand, fma, load_quads},
    crate::{thread, vector::F32x4},
};

/// Rows of C per block.
pub const WIDE_BM: usize = 128;
/// Columns of C per block.
pub const WIDE_BN: usize = 256;
/// k per shared-memory slice.
pub const WIDE_BK: usize = 8; // slice_fma below is unrolled for exactly 8
/// Threads per block (each computes 8×16 outputs).
pub const WIDE_THREADS: u32 = 256;
/// Floats of padding per k-row of a shared tile: keeps rows 16-byte aligned and makes the
/// transposed (k-contiguous operand) stores conflict-free.
const PAD: usize = 4;
const LDA: usize = WIDE_BM + PAD;
const STAGE: usize = WIDE_BK * (LDA + WIDE_BN + PAD);
/// Dynamic shared memory of `gemm_wide_f32`: two stages (25 KiB).
pub const WIDE_SHARED: u32 = (2 * STAGE * 4) as u32;


/// This thread's rows (row_q[h] + 0..4, h < 2) and columns (col_q[g] + 0..4, g < 4) of the
/// block tile. Warps tile the block 4 (m) × 2 (n), 32×128 each; lanes tile a warp 4 × 8, so a
/// warp's 16-byte shared reads of A are 4-way broadcasts and those of B cover 128 contiguous
/// bytes: no bank conflicts.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn wide_map(tid: usize, wn_warps: usize) -> ([usize; 2], [usize; 4]) {
    let (warp, lane) = (tid / 32, tid % 32);
    let (wm, wn) = ((warp / wn_warps) * 32, (warp % wn_warps) * 128);
    let (lm, ln) = (lane / 8, lane % 8);
    let r = wm + lm * 4;
    let c = wn + ln * 4;
    ([r, r + 16], [c, c + 32, c + 64, c + 96])
}

/// Multiplies the 8 k-rows of both shared tiles into this thread's 8×16 accumulators.
///
/// # Safety
/// `sa` and `sb` hold 8 rows of LDA and LDB floats of shared memory.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn slice_fma<const LDB: usize>(sa: *const f32, sb: *const f32, row_q: [usize; 2], col_q: [usize; 4], acc: &mut [[f32; 16]; 8]) {
    unroll!(kk in [0, 1, 2, 3, 4, 5, 6, 7] {
        let mut af = [0.0f32; 8];
        let mut bf = [0.0f32; 16];
        // SAFETY: kk < 8, row_q[h] + 4 ≤ BM ≤ LDA, col_q[g] + 4 ≤ BN ≤ LDB: inside the stage.
        unsafe {
            unroll!(h in [0, 1] {
                let x = *(sa.add(kk * LDA + row_q[h]) as *const F32x4);
                unroll!(i in [0, 1, 2, 3] { af[h * 4 + i] = x.0[i]; });
            });
            unroll!(g in [0, 1, 2, 3] {
                let y = *(sb.add(kk * LDB + col_q[g]) as *const F32x4);
                unroll!(i in [0, 1, 2, 3] { bf[g * 4 + i] = y.0[i]; });
            });
        }
        unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
            unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                acc[i][j] = fma(af[i], bf[j], acc[i][j]);
            });
        });
    });
}

/// The whole kernel for one layout (AKC, BKC: op(A), op(B) k-contiguous): full slices are
/// loaded through per-thread pointers stepped once per slice, with no bounds or layout
/// branches; the next slice's global loads are issued before the current slice's FMAs and land
/// in the other shared stage, one barrier per slice.
///
/// # Safety
/// As the kernel; the block's tile lies inside C, the operands allow 16-byte loads and their
/// layouts match AKC, BKC.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn wide_body<const AKC: bool, const BKC: bool, const BN: usize, const NT: usize, const QA: usize, const QB: usize, const LDB: usize>(
    opa: &Operand,
    opb: &Operand,
    c: *mut f32,
    bias: *const f32,
    p: &GemmParams,
    m0: usize,
    n0: usize,
) {
    const BK: usize = WIDE_BK;
    let stage = BK * (LDA + LDB);
    let la = BK * LDA; // B's tile offset within a stage, in floats
    let tid = thread::thread_idx_x() as usize;
    let (row_q, col_q) = wide_map(tid, BN / 128);
    let smem = crate::shared::dynamic_shared::<f32>();
    let k = p.k as usize;
    let full = k / BK;
    let mut pa = opa.quad_ptrs::<WIDE_BM, BK, NT, QA, AKC>(m0, tid);
    let mut pb = opb.quad_ptrs::<BN, BK, NT, QB, BKC>(n0, tid);
    let (da, db) = (opa.slice_step::<BK, AKC>(), opb.slice_step::<BK, BKC>());
    let mut acc = [[0.0f32; 16]; 8];
    const { assert!(QA * 4 * NT == WIDE_BM * BK && QB * 4 * NT == BN * BK && LDB == BN + PAD && QA <= 2 && QB <= 2) };
    // SAFETY (whole body): slices below `full` are inside A and B (the tile is inside C, the
    // slice inside k) and 16-byte aligned; the ragged slice goes through the bounds-checked
    // loader; shared accesses stay inside the two stages the launch provides.
    unsafe {
        if full > 0 {
            let (mut ra, mut rb) = (load_quads(&pa), load_quads(&pb));
            Operand::store_kmajor_kc::<WIDE_BM, BK, NT, QA, LDA, AKC>(&ra, smem, tid);
            Operand::store_kmajor_kc::<BN, BK, NT, QB, LDB, BKC>(&rb, smem.add(la), tid);
            thread::sync_threads();
            for t in 0..full {
                let more = t + 1 < full;
                if more {
                    unroll!(j in [0, 1] {
                        if j < QA {
                            pa[j] = (pa[j] as *const f32).wrapping_add(da) as *const F32x4;
                        }
                        if j < QB {
                            pb[j] = (pb[j] as *const f32).wrapping_add(db) as *const F32x4;
                        }
                    });
                    ra = load_quads(&pa);
                    rb = load_quads(&pb);
                }
                let s = smem.add((t % 2) * stage);
                slice_fma::<LDB>(s, s.add(la), row_q, col_q, &mut acc);
                if more {
                    let s = smem.add(((t + 1) % 2) * stage);
                    Operand::store_kmajor_kc::<WIDE_BM, BK, NT, QA, LDA, AKC>(&ra, s, tid);
                    Operand::store_kmajor_kc::<BN, BK, NT, QB, LDB, BKC>(&rb, s.add(la), tid);
                    thread::sync_threads();
                }
            }
        }
        if full * BK < k {
            // The ragged last slice. Its stage was last read two slices ago, before that
            // slice's barrier; with no full slice it was never read.
            let ra = opa.load_tile::<WIDE_BM, BK, NT, QA>(m0, full * BK, tid);
            let rb = opb.load_tile::<BN, BK, NT, QB>(n0, full * BK, tid);
            let s = smem.add((full % 2) * stage);
            Operand::store_kmajor_kc::<WIDE_BM, BK, NT, QA, LDA, AKC>(&ra, s, tid);
            Operand::store_kmajor_kc::<BN, BK, NT, QB, LDB, BKC>(&rb, s.add(la), tid);
            thread::sync_threads();
            slice_fma::<LDB>(s, s.add(la), row_q, col_q, &mut acc);
        }
        unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
            let row = m0 + row_q[i / 4] + i % 4;
            unroll!(g in [0, 1, 2, 3] {
                let v = [acc[i][g * 4], acc[i][g * 4 + 1], acc[i][g * 4 + 2], acc[i][g * 4 + 3]];
                super::gemm_epilogue4(c, bias, p, row, n0 + col_q[g], v);
            });
        });
    }
}

/// Checks the whole-tile conditions and runs the body for the operands' layouts.
///
/// # Safety
/// As the kernels.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn wide_kernel<const BN: usize, const NT: usize, const QA: usize, const QB: usize, const LDB: usize>(
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    bias: *const f32,
    p: &GemmParams,
) {
    let m0 = thread::block_idx_y() as usize * WIDE_BM;
    let n0 = thread::block_idx_x() as usize * BN;
    let (opa, opb) = (Operand::a(a, p), Operand::b(b, p));
    if !(opa.vec_ok() && opb.vec_ok() && m0 + WIDE_BM <= p.m as usize && n0 + BN <= p.n as usize) {
        // SAFETY: aborts the launch; the host sees the error.
        unsafe { core::arch::nvptx::trap() }
    }
    // SAFETY: the body's conditions were just checked; the rest is forwarded from the caller.
    unsafe {
        match (opa.k_contig, opb.k_contig) {
            (true, true) => wide_body::<true, true, BN, NT, QA, QB, LDB>(&opa, &opb, c, bias, p, m0, n0),
            (true, false) => wide_body::<true, false, BN, NT, QA, QB, LDB>(&opa, &opb, c, bias, p, m0, n0),
            (false, true) => wide_body::<false, true, BN, NT, QA, QB, LDB>(&opa, &opb, c, bias, p, m0, n0),
            (false, false) => wide_body::<false, false, BN, NT, QA, QB, LDB>(&opa, &opb, c, bias, p, m0, n0),
        }
    }
}

/// 8×16 outputs per thread on 128×256 tiles, for the whole-tile interior of C.
///
/// # Safety
/// As `gemm_bt2d_f32` (`simt.rs`), plus: m is a multiple of `WIDE_BM`, n of `WIDE_BN`, and
/// both operands allow 16-byte loads (contiguous one way, the other stride a multiple of 4,
/// 16-byte aligned); a launch that breaks this traps. Launch: block `WIDE_THREADS`, grid
/// (n/`WIDE_BN`, m/`WIDE_BM`), `WIDE_SHARED` bytes of dynamic shared memory.
///
/// # Thread mapping
/// Block (x, y) → C tile at rows y·128, columns x·256. Warp w → rows (w/2)·32, columns
/// (w%2)·128 of it; lane l → rows (l/8)·4 + {0..4, 16..20}, columns (l%8)·4 + {0, 32, 64, 96}
/// + 0..4 of the warp's tile.
#[kernel(max_threads = 256, min_blocks = 1)]
pub unsafe fn gemm_wide_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { wide_kernel::<WIDE_BN, 256, 1, 2, { WIDE_BN + PAD }>(a, b, c, bias, &p) }
}

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
//! Any m and n in one launch: tiles that overhang C read clamped rows and store only inside C.
//! The operands must allow 16-byte loads (else the host runs `gemm_warptile_f32`). Split-K
//! (`split.rs`) over gridDim.z. Any k: a
//! ragged last slice goes through the bounds-checked loader.

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use {
    super::common::{Operand, fma, load_quads},
    super::split::{split_index, split_range, split_reduce, sync_threads_or},
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
/// `sa` and `sb` hold 8 rows of LDA and LDB floats of shared memory; `row_q[h] + 4 ≤ LDA`,
/// `col_q[g] + 4 ≤ LDB`, all multiples of 4 (16-byte reads).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub(super) unsafe fn slice_fma<const LDA: usize, const LDB: usize>(
    sa: *const f32,
    sb: *const f32,
    row_q: [usize; 2],
    col_q: [usize; 4],
    acc: &mut [[f32; 16]; 8],
) {
    unroll!(kk in [0, 1, 2, 3, 4, 5, 6, 7] {
        let mut af = [0.0f32; 8];
        let mut bf = [0.0f32; 16];
        // SAFETY: kk < 8, row_q[h] + 4 ≤ LDA, col_q[g] + 4 ≤ LDB: inside the stage.
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

/// The main loop for one layout (AKC, BKC: op(A), op(B) k-contiguous) over the full k-slices
/// `first..full_end`: per-thread pointers stepped once per slice (rows clamped inside the
/// matrix, so edge tiles run it too), no bounds or layout branches; the next slice's global
/// loads are issued before the current slice's FMAs and land in the other shared stage, one
/// barrier per slice.
///
/// # Safety
/// As the kernel; the operands allow 16-byte loads, their layouts match AKC, BKC, and
/// `full_end ≤ k / 8`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn wide_mainloop<const AKC: bool, const BKC: bool, const BN: usize, const NT: usize, const QA: usize, const QB: usize, const LDB: usize>(
    opa: &Operand,
    opb: &Operand,
    (m0, n0): (usize, usize),
    (first, full_end): (usize, usize),
    (row_q, col_q): ([usize; 2], [usize; 4]),
    acc: &mut [[f32; 16]; 8],
) {
    const BK: usize = WIDE_BK;
    let stage = BK * (LDA + LDB);
    let la = BK * LDA; // B's tile offset within a stage, in floats
    let tid = thread::thread_idx_x() as usize;
    let smem = crate::shared::dynamic_shared::<f32>();
    if first >= full_end {
        return;
    }
    let (mut pa, _) = opa.quad_ptrs::<WIDE_BM, BK, NT, QA, AKC, true>(m0, tid);
    let (mut pb, _) = opb.quad_ptrs::<BN, BK, NT, QB, BKC, true>(n0, tid);
    let (da, db) = (opa.slice_step::<BK, AKC>(), opb.slice_step::<BK, BKC>());
    // SAFETY (whole body): slices below `k / BK` are inside A and B in k, rows are clamped
    // inside the matrix, quads are 16-byte aligned; shared accesses stay inside the two stages
    // the launch provides.
    unsafe {
        unroll!(j in [0, 1] {
            if j < QA {
                pa[j] = (pa[j] as *const f32).wrapping_add(first * da) as *const F32x4;
            }
            if j < QB {
                pb[j] = (pb[j] as *const f32).wrapping_add(first * db) as *const F32x4;
            }
        });
        let (mut ra, mut rb) = (load_quads(&pa), load_quads(&pb));
        Operand::store_kmajor_kc::<WIDE_BM, BK, NT, QA, LDA, AKC>(&ra, smem, tid);
        Operand::store_kmajor_kc::<BN, BK, NT, QB, LDB, BKC>(&rb, smem.add(la), tid);
        thread::sync_threads();
        for t in 0..full_end - first {
            let more = first + t + 1 < full_end;
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
            slice_fma::<LDA, LDB>(s, s.add(la), row_q, col_q, acc);
            if more {
                let s = smem.add(((t + 1) % 2) * stage);
                Operand::store_kmajor_kc::<WIDE_BM, BK, NT, QA, LDA, AKC>(&ra, s, tid);
                Operand::store_kmajor_kc::<BN, BK, NT, QB, LDB, BKC>(&rb, s.add(la), tid);
                thread::sync_threads();
            }
        }
    }
}

/// The kernel: the main loop for the operands' layouts, then (emitted once for all layouts) the
/// ragged last k-slice through the bounds-checked loader and the epilogue, with split-K
/// turn-taking around it.
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
    const BK: usize = WIDE_BK;
    const { assert!(QA * 4 * NT == WIDE_BM * BK && QB * 4 * NT == BN * BK && LDB == BN + PAD && QA <= 2 && QB <= 2) };
    let (opa, opb) = (Operand::a(a, p), Operand::b(b, p));
    if !(opa.vec_ok() && opb.vec_ok()) {
        // SAFETY: aborts the launch; the host sees the error.
        unsafe { core::arch::nvptx::trap() }
    }
    let tid = thread::thread_idx_x() as usize;
    let origin = (thread::block_idx_y() as usize * WIDE_BM, thread::block_idx_x() as usize * BN);
    let map = wide_map(tid, BN / 128);
    let k = p.k as usize;
    let z = split_index(p);
    let (first, end) = split_range(p, z, k.div_ceil(BK));
    let full_end = if end < k / BK { end } else { k / BK };
    let range = (first, full_end);
    let mut acc = [[0.0f32; 16]; 8];
    // SAFETY: the main loop's conditions were just checked; the rest is forwarded.
    unsafe {
        match (opa.k_contig, opb.k_contig) {
            (true, true) => wide_mainloop::<true, true, BN, NT, QA, QB, LDB>(&opa, &opb, origin, range, map, &mut acc),
            (true, false) => wide_mainloop::<true, false, BN, NT, QA, QB, LDB>(&opa, &opb, origin, range, map, &mut acc),
            (false, true) => wide_mainloop::<false, true, BN, NT, QA, QB, LDB>(&opa, &opb, origin, range, map, &mut acc),
            (false, false) => wide_mainloop::<false, false, BN, NT, QA, QB, LDB>(&opa, &opb, origin, range, map, &mut acc),
        }
    }
    let smem = crate::shared::dynamic_shared::<f32>();
    let (stage, la) = (BK * (LDA + LDB), BK * LDA);
    // SAFETY: bounds-checked loads; shared stores inside one stage; the split protocol's
    // counters are the host's (forwarded); the epilogue bounds-checks C.
    unsafe {
        if full_end < end {
            // The ragged last slice. Its stage was last read two slices ago, before that
            // slice's barrier; with no full slice it was never read.
            let done = full_end.saturating_sub(first);
            let ra = opa.load_tile::<WIDE_BM, BK, NT, QA>(origin.0, full_end * BK, tid);
            let rb = opb.load_tile::<BN, BK, NT, QB>(origin.1, full_end * BK, tid);
            let s = smem.add((done % 2) * stage);
            opa.store_kmajor::<WIDE_BM, BK, NT, QA, LDA>(&ra, s, tid);
            opb.store_kmajor::<BN, BK, NT, QB, LDB>(&rb, s.add(la), tid);
            thread::sync_threads();
            slice_fma::<LDA, LDB>(s, s.add(la), map.0, map.1, &mut acc);
        }
        let tile = thread::block_idx_y() as usize * thread::grid_dim_x() as usize + thread::block_idx_x() as usize;
        if !split_reduce(p, tile, z, &mut acc, (tid, NT), sync_threads_or) {
            return;
        }
        unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
            let row = origin.0 + map.0[i / 4] + i % 4;
            unroll!(g in [0, 1, 2, 3] {
                let v = [acc[i][g * 4], acc[i][g * 4 + 1], acc[i][g * 4 + 2], acc[i][g * 4 + 3]];
                super::gemm_epilogue4(c, bias, p, row, origin.1 + map.1[g], v);
            });
        });
    }
}

/// 8×16 outputs per thread on 128×256 tiles.
///
/// # Safety
/// As `gemm_bt2d_f32` (`simt.rs`), plus: both operands allow 16-byte loads (contiguous one
/// way, the other stride a multiple of 4, 16-byte aligned, m or n a multiple of 4 where it is
/// the contiguous direction); a launch that breaks this traps. Launch: block `WIDE_THREADS`,
/// grid (⌈n/`WIDE_BN`⌉, ⌈m/`WIDE_BM`⌉, `p.splits`), `WIDE_SHARED` bytes of dynamic shared
/// memory; with split-K `p.sem` holds a zeroed counter per tile (`split.rs`).
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

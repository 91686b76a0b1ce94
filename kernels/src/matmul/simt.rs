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
//!   are broadcasts or cover 128 contiguous bytes: no bank conflicts.
//! - `gemm_warptile_fast_f32` and its smaller-tile twins `gemm_tile64_f32`,
//!   `gemm_tile128x64_f32`, `gemm_tile64x128_f32`: the hot loop specialized for the operands'
//!   layouts, with unguarded 16-byte loads (the per-quad bounds/alignment branches were ~460 of
//!   the warp-tiled loop's ~1640 instructions per slice; now ~1140, 1024 of them FFMA); edge
//!   tiles read clamped rows; split-K over gridDim.z (`split.rs`); operands without 16-byte
//!   loads take the same loop with 4-byte loads; the slice loop rolled to 4 k-steps per
//!   iteration and the epilogue through shared memory (`tile_store.rs`), so a small product
//!   does not spend its time fetching code. `GemmKernel::Auto` picks among them
//!   (`host::ops::matmul::plan`).

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use {
    super::common::{Operand, fma, load_quads},
    super::split::{split_index, split_range},
    super::tile_store::{store_tile, tile_ld},
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
/// Dynamic shared memory of the two-stage BM×BN tile kernels (`gemm_warptile_fast_f32`,
/// `gemm_tile*_f32`).
/// The epilogue reuses it for the tile of C (`tile_store.rs`).
pub const fn simt_tile_shared_bytes(bm: usize, bn: usize) -> u32 {
    let stages = (2 * SIMT_BK * (bm + SIMT_PAD + bn + SIMT_PAD) * 4) as u32;
    let tile = super::tile_store_bytes(bm, bn);
    if stages > tile { stages } else { tile }
}

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
unsafe fn simt_body<const VEC: bool, const DOUBLE: bool, const WARP: bool>(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: &GemmParams) {
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
        warp_map::<8>(tid, 2)
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
        // SAFETY: the stage is inside the launch's shared memory.
        unsafe {
            let sa = smem.add(stage * STAGE);
            slice_fma::<VEC, LDA, LDB>(sa, sa.add(SIMT_BK * LDA), row_q, col_q, &mut acc);
        }
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
    // SAFETY: store_acc bounds-checks every output.
    unsafe { store_acc(c, bias, p, m0, n0, row_q, col_q, &acc) };
}

/// Multiplies 16 k-rows of both shared tiles (`sa`: LDA floats per k, `sb`: LDB) into this
/// thread's 8×8 accumulators: rows row_q[h] + 0..4, columns col_q[h] + 0..4.
///
/// # Safety
/// `sa` and `sb` hold 16 rows of LDA and LDB floats of shared memory.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn slice_fma<const VEC: bool, const LDA_: usize, const LDB_: usize>(
    sa: *mut f32,
    sb: *mut f32,
    row_q: [usize; 2],
    col_q: [usize; 2],
    acc: &mut [[f32; 8]; 8],
) {
    unroll!(kk in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
        let mut af = [0.0f32; 8];
        let mut bf = [0.0f32; 8];
        unroll!(h in [0, 1] {
            // SAFETY: kk < BK, row_q[h] + 4 ≤ BM ≤ LDA (likewise for B): inside the stage.
            unsafe {
                if VEC {
                    let x = *(sa.add(kk * LDA_ + row_q[h]) as *const F32x4);
                    let y = *(sb.add(kk * LDB_ + col_q[h]) as *const F32x4);
                    unroll!(i in [0, 1, 2, 3] {
                        af[h * 4 + i] = x.0[i];
                        bf[h * 4 + i] = y.0[i];
                    });
                } else {
                    unroll!(i in [0, 1, 2, 3] {
                        af[h * 4 + i] = *sa.add(kk * LDA_ + row_q[h] + i);
                        bf[h * 4 + i] = *sb.add(kk * LDB_ + col_q[h] + i);
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
}

/// [`slice_fma`] (16-byte shared reads) as a loop of four k-steps at a time instead of sixteen
/// unrolled ones: a quarter of the code per slice (about 4.5 KB of SASS instead of 18), so the
/// loop stays in the instruction cache when few warps share a multiprocessor (small products),
/// for one loop branch per 256 FMAs. TS×TS accumulators per thread (TS = 8: rows row_q[h] + 0..4
/// and columns col_q[h] + 0..4, h = 0, 1; TS = 4: h = 0 only).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn slice_fma_rolled<const LDA_: usize, const LDB_: usize, const TS: usize>(
    sa: *mut f32,
    sb: *mut f32,
    row_q: [usize; 2],
    col_q: [usize; 2],
    acc: &mut [[f32; TS]; TS],
) {
    const { assert!(TS == 4 || TS == 8) };
    let groups = super::opaque(SIMT_BK / 4);
    for g in 0..groups {
        unroll!(k4 in [0, 1, 2, 3] {
            let kk = g * 4 + k4;
            let mut af = [0.0f32; TS];
            let mut bf = [0.0f32; TS];
            unroll!(h in [0, 1] {
                if h < TS / 4 {
                    // SAFETY: kk < BK, row_q[h] + 4 ≤ BM ≤ LDA (likewise for B): inside the stage.
                    let (x, y) = unsafe { (*(sa.add(kk * LDA_ + row_q[h]) as *const F32x4), *(sb.add(kk * LDB_ + col_q[h]) as *const F32x4)) };
                    unroll!(i in [0, 1, 2, 3] {
                        af[h * 4 + i] = x.0[i];
                        bf[h * 4 + i] = y.0[i];
                    });
                }
            });
            unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
                unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7] {
                    if i < TS && j < TS {
                        acc[i][j] = fma(af[i], bf[j], acc[i][j]);
                    }
                });
            });
        });
    }
}

/// The warp-tiled thread mapping for TS×TS outputs per thread: this thread's rows are
/// row_q[h] + 0..4 and columns col_q[h] + 0..4 (h < TS/4) of the block tile, with `wn` warps
/// along n. A warp covers (4·TS)×(8·TS) outputs (32×64 for TS = 8, its lanes' two 4×4 blocks 16
/// rows / 32 columns apart; 16×32 for TS = 4), lanes 4 along m × 8 along n, so a warp's 16-byte
/// shared reads are broadcasts or cover 128 contiguous bytes.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn warp_map<const TS: usize>(tid: usize, wn: usize) -> ([usize; 2], [usize; 2]) {
    let (warp, lane) = (tid / 32, tid % 32);
    let (wm, wn) = ((warp / wn) * (4 * TS), (warp % wn) * (8 * TS));
    let (lm, ln) = (lane / 8, lane % 8);
    ([wm + lm * 4, wm + lm * 4 + 16], [wn + ln * 4, wn + ln * 4 + 32])
}

/// Stores the 8×8 accumulators through the epilogue.
///
/// # Safety
/// As [`super::gemm_epilogue4`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn store_acc(c: *mut f32, bias: *const f32, p: &GemmParams, m0: usize, n0: usize, row_q: [usize; 2], col_q: [usize; 2], acc: &[[f32; 8]; 8]) {
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
        let row = m0 + row_q[i / 4] + i % 4;
        unroll!(h in [0, 1] {
            let v = [acc[i][h * 4], acc[i][h * 4 + 1], acc[i][h * 4 + 2], acc[i][h * 4 + 3]];
            // SAFETY: gemm_epilogue4 bounds-checks (row, col..col+4) against m and n.
            unsafe { super::gemm_epilogue4(c, bias, p, row, n0 + col_q[h], v) };
        });
    });
}

/// The warp-tiled main loop with unguarded loads (16-byte ones if VEC, else four 4-byte ones per
/// quad), for any tile of C (tiles that overhang m or
/// n read clamped rows, see `Operand::quad_ptrs`) and the full k-slices of any range (split-K),
/// generic over the block tile: BM×BN with TS×TS outputs per thread (warps of 32×64 for TS = 8,
/// 16×32 for TS = 4: [`warp_map`]), NT threads; QA and QB quads of op(A) and op(B) per thread and
/// slice; LDA = BM + 4, LDB = BN + 4. Both layouts are fixed at compile time (AKC, BKC: op(A),
/// op(B) k-contiguous): per-thread pointers stepped once per slice, no bounds or layout
/// branches. Multiplies slices `first..full_end` into `acc` and returns how many it ran.
///
/// # Safety
/// As the kernels below; `opa.vec_ok() && opb.vec_ok()` if VEC, the layouts match AKC, BKC,
/// `full_end ≤ k / 16`, and the launch gives `simt_tile_shared_bytes(BM, BN)` bytes of shared
/// memory.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn tile_mainloop<
    const BM: usize,
    const BN: usize,
    const NT: usize,
    const QA: usize,
    const QB: usize,
    const LDA_: usize,
    const LDB_: usize,
    const AKC: bool,
    const BKC: bool,
    const TS: usize,
    const VEC: bool,
>(
    opa: &Operand,
    opb: &Operand,
    (m0, n0): (usize, usize),
    (first, full_end): (usize, usize),
    (row_q, col_q): ([usize; 2], [usize; 2]),
    acc: &mut [[f32; TS]; TS],
) {
    const BK: usize = SIMT_BK;
    let (la, st) = (BK * LDA_, BK * (LDA_ + LDB_)); // B's tile offset and the stage size, in floats
    let tid = thread::thread_idx_x() as usize;
    let smem = crate::shared::dynamic_shared::<f32>();
    if first >= full_end {
        return;
    }
    let (mut pa, lima) = opa.quad_ptrs::<BM, BK, NT, QA, AKC, VEC>(m0, tid);
    let (mut pb, limb) = opb.quad_ptrs::<BN, BK, NT, QB, BKC, VEC>(n0, tid);
    // SAFETY: `quad_ptrs`' pointers and limits, stepped along k inside the full slices (below).
    let load = |pa: &[*const F32x4; QA], pb: &[*const F32x4; QB]| unsafe {
        if VEC { (load_quads(pa), load_quads(pb)) } else { (opa.load_scalar_quads::<QA, AKC>(pa, &lima), opb.load_scalar_quads::<QB, BKC>(pb, &limb)) }
    };
    let (da, db) = (opa.slice_step::<BK, AKC>(), opb.slice_step::<BK, BKC>());
    // SAFETY (whole body): slices below `k / BK` are inside A and B in k, and every row is
    // clamped inside the matrix; with VEC, quads are 16-byte aligned (vec_ok, quads start at
    // multiples of 4); shared accesses stay inside the two stages of `st` floats the launch
    // provides.
    unsafe {
        unroll!(j in [0, 1, 2, 3] {
            if j < QA {
                pa[j] = (pa[j] as *const f32).wrapping_add(first * da) as *const F32x4;
            }
            if j < QB {
                pb[j] = (pb[j] as *const f32).wrapping_add(first * db) as *const F32x4;
            }
        });
        let (mut ra, mut rb) = load(&pa, &pb);
        Operand::store_kmajor_kc::<BM, BK, NT, QA, LDA_, AKC>(&ra, smem, tid);
        Operand::store_kmajor_kc::<BN, BK, NT, QB, LDB_, BKC>(&rb, smem.add(la), tid);
        thread::sync_threads();
        for t in 0..full_end - first {
            let more = first + t + 1 < full_end;
            if more {
                unroll!(j in [0, 1, 2, 3] {
                    if j < QA {
                        pa[j] = (pa[j] as *const f32).wrapping_add(da) as *const F32x4;
                    }
                    if j < QB {
                        pb[j] = (pb[j] as *const f32).wrapping_add(db) as *const F32x4;
                    }
                });
                (ra, rb) = load(&pa, &pb);
            }
            let sa = smem.add((t % 2) * st);
            slice_fma_rolled::<LDA_, LDB_, TS>(sa, sa.add(la), row_q, col_q, acc);
            if more {
                let s = smem.add(((t + 1) % 2) * st);
                Operand::store_kmajor_kc::<BM, BK, NT, QA, LDA_, AKC>(&ra, s, tid);
                Operand::store_kmajor_kc::<BN, BK, NT, QB, LDB_, BKC>(&rb, s.add(la), tid);
                thread::sync_threads();
            }
        }
    }
}

/// A BM×BN tile kernel (see [`tile_mainloop`]): the main loop specialized for the operands'
/// layouts, then, shared by all layouts, the ragged last k-slice through the guarded loader and
/// the epilogue (split-K turn-taking around it). Code outside the layout-specialized loop is
/// emitted once, not eight times.
///
/// Operands that rule out 16-byte loads (a stride, m or n not a multiple of 4, an unaligned
/// base) run the same loop with 4-byte loads (`VEC = false`): rows clamped as on the 16-byte
/// path, no bounds checks. It replaced a loop that bounds-checked every element and read the
/// layout at run time: 2267×737×1007 (tt) had taken 146 µs there against cuBLAS's 85 (H100,
/// docs/gemm-sweep.md, fifth pass).
///
/// # Safety
/// As [`tile_mainloop`], except the layouts and alignment, which this checks.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn tile_kernel<
    const BM: usize,
    const BN: usize,
    const NT: usize,
    const QA: usize,
    const QB: usize,
    const LDA_: usize,
    const LDB_: usize,
    const TS: usize,
>(
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    bias: *const f32,
    p: &GemmParams,
) {
    const BK: usize = SIMT_BK;
    const { assert!(QA * 4 * NT == BM * BK && QB * 4 * NT == BN * BK && QA <= 4 && QB <= 4) };
    const { assert!(LDA_ == BM + SIMT_PAD && LDB_ == BN + SIMT_PAD && NT == (BM / (4 * TS)) * (BN / (8 * TS)) * 32) };
    let (opa, opb) = (Operand::a(a, p), Operand::b(b, p));
    let tid = thread::thread_idx_x() as usize;
    let (tile_m, tile_n) = (thread::block_idx_y() as usize, thread::block_idx_x() as usize);
    let origin = (tile_m * BM, tile_n * BN);
    let map = warp_map::<TS>(tid, BN / (8 * TS));
    let k = p.k as usize;
    let z = split_index(p);
    let (first, end) = split_range(p, z, k.div_ceil(BK));
    let full_end = if end < k / BK { end } else { k / BK };
    let range = (first, full_end);
    let mut acc = [[0.0f32; TS]; TS];
    let vec = opa.vec_ok() && opb.vec_ok();
    // SAFETY: forwarded; the specialized loop runs only on operands that allow it.
    unsafe {
        match (vec, opa.k_contig, opb.k_contig) {
            (true, true, true) => tile_mainloop::<BM, BN, NT, QA, QB, LDA_, LDB_, true, true, TS, true>(&opa, &opb, origin, range, map, &mut acc),
            (true, true, false) => tile_mainloop::<BM, BN, NT, QA, QB, LDA_, LDB_, true, false, TS, true>(&opa, &opb, origin, range, map, &mut acc),
            (true, false, true) => tile_mainloop::<BM, BN, NT, QA, QB, LDA_, LDB_, false, true, TS, true>(&opa, &opb, origin, range, map, &mut acc),
            (true, false, false) => tile_mainloop::<BM, BN, NT, QA, QB, LDA_, LDB_, false, false, TS, true>(&opa, &opb, origin, range, map, &mut acc),
            (false, true, true) => tile_mainloop::<BM, BN, NT, QA, QB, LDA_, LDB_, true, true, TS, false>(&opa, &opb, origin, range, map, &mut acc),
            (false, true, false) => tile_mainloop::<BM, BN, NT, QA, QB, LDA_, LDB_, true, false, TS, false>(&opa, &opb, origin, range, map, &mut acc),
            (false, false, true) => tile_mainloop::<BM, BN, NT, QA, QB, LDA_, LDB_, false, true, TS, false>(&opa, &opb, origin, range, map, &mut acc),
            (false, false, false) => tile_mainloop::<BM, BN, NT, QA, QB, LDA_, LDB_, false, false, TS, false>(&opa, &opb, origin, range, map, &mut acc),
        }
    }
    let smem = crate::shared::dynamic_shared::<f32>();
    let (la, st) = (BK * LDA_, BK * (LDA_ + LDB_));
    if full_end < end {
        // The ragged last slice, peeled so the main loop has no guarded loads. Its stage was
        // last read two slices ago, before that slice's barrier (or never).
        let done = full_end.saturating_sub(first);
        // SAFETY: bounds-checked loads; the stores stay inside one stage.
        unsafe {
            let ra = opa.load_tile::<BM, BK, NT, QA>(origin.0, full_end * BK, tid);
            let rb = opb.load_tile::<BN, BK, NT, QB>(origin.1, full_end * BK, tid);
            let s = smem.add((done % 2) * st);
            opa.store_kmajor::<BM, BK, NT, QA, LDA_>(&ra, s, tid);
            opb.store_kmajor::<BN, BK, NT, QB, LDB_>(&rb, s.add(la), tid);
            thread::sync_threads();
            slice_fma_rolled::<LDA_, LDB_, TS>(s, s.add(la), map.0, map.1, &mut acc);
        }
    }
    // Every warp is done with the stages: they become C's tile (rows of tile_ld(BN) floats).
    thread::sync_threads();
    let ld = tile_ld(BN);
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
        unroll!(h in [0, 1] {
            if i < TS && h < TS / 4 {
                let (row, col) = (map.0[i / 4] + i % 4, map.1[h] + 0);
                let v = F32x4([acc[i][h * 4], acc[i][h * 4 + 1], acc[i][h * 4 + 2], acc[i][h * 4 + 3]]);
                // SAFETY: (row, col..col + 4) is inside the BM×BN tile, which fits the launch's
                // shared memory (`simt_tile_shared_bytes`); col and ld are multiples of 4.
                unsafe { *(smem.add(row * ld + col) as *mut F32x4) = v };
            }
        });
    });
    thread::sync_threads();
    let tile = tile_m * thread::grid_dim_x() as usize + tile_n;
    // SAFETY: every thread calls it with the whole tile written; the split-K counters and
    // workspace are the host's (forwarded); the epilogue bounds-checks C.
    // 32 quads in flight in the split sum: the 8×8 kernels have 233 to 255 registers, the 4×4
    // one keeps its four quads of each of four splits.
    unsafe { store_tile(c, bias, p, smem, (BM, BN), origin, (tile, z), (tid, NT), 32) };
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

/// `gemm_db_f32` with warp tiling (what `GemmKernel::Auto` runs when a row stride rules out
/// 16-byte loads).
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

/// `gemm_warptile_f32` with unguarded loads specialized for the operands' layouts (no
/// per-quad bounds, alignment or layout branches in the hot loop; edge tiles read clamped rows,
/// a ragged k-slice is peeled), and split-K (`p.splits` blocks along z per tile). One block per
/// multiprocessor: under a 128-register cap for two (its earlier launch bounds) ptxas spilled
/// 64 bytes once edge tiles and split-K ran in the same kernel. Operands that rule out 16-byte
/// loads take the same loop with 4-byte loads.
///
/// # Safety
/// As `gemm_warptile_f32`; grid (⌈n/128⌉, ⌈m/128⌉, `p.splits`), and with split-K `p.sem` holds
/// ⌈n/128⌉·⌈m/128⌉ zeroed counters (`split.rs`).
///
/// # Thread mapping
/// As `gemm_warptile_f32`.
#[kernel(max_threads = 256, min_blocks = 1)]
pub unsafe fn gemm_warptile_fast_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tile_kernel::<128, 128, 256, 2, 2, 132, 132, 8>(a, b, c, bias, &p) }
}

/// `gemm_warptile_fast_f32` on 64×64 tiles of 64 threads (two warps of 32×64), at least four
/// blocks per multiprocessor (238 registers on sm_90a; a cap of 5 blocks spilled): for outputs with few
/// 128×128 tiles (the MLP's small-batch layers).
///
/// # Safety
/// As `gemm_warptile_fast_f32`, with grid (⌈n/64⌉, ⌈m/64⌉, `p.splits`) and
/// `simt_tile_shared_bytes(64, 64)` bytes of shared memory.
///
/// # Thread mapping
/// Warp w → rows w·32 of the tile; lanes as in `gemm_warptile_f32`.
#[kernel(max_threads = 64, min_blocks = 4)]
pub unsafe fn gemm_tile64_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tile_kernel::<64, 64, 64, 4, 4, 68, 68, 8>(a, b, c, bias, &p) }
}

/// `gemm_warptile_fast_f32` on 128×64 tiles of 128 threads (four warps of 32×64 along m),
/// at least two blocks per multiprocessor (the cap of three, 168 registers, spilled 12 bytes
/// on sm_80).
///
/// # Safety
/// As `gemm_tile64_f32`, with grid (⌈n/64⌉, ⌈m/128⌉, `p.splits`) and
/// `simt_tile_shared_bytes(128, 64)` bytes of shared memory.
///
/// # Thread mapping
/// Warp w → rows w·32 of the tile; lanes as in `gemm_warptile_f32`.
#[kernel(max_threads = 128, min_blocks = 2)]
pub unsafe fn gemm_tile128x64_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tile_kernel::<128, 64, 128, 4, 2, 132, 68, 8>(a, b, c, bias, &p) }
}

/// `gemm_warptile_fast_f32` on 64×128 tiles of 128 threads (2×2 warps of 32×64), at least two
/// blocks per multiprocessor.
///
/// # Safety
/// As `gemm_tile64_f32`, with grid (⌈n/128⌉, ⌈m/64⌉, `p.splits`) and
/// `simt_tile_shared_bytes(64, 128)` bytes of shared memory.
///
/// # Thread mapping
/// Warp w → rows (w/2)·32, columns (w%2)·64 of the tile; lanes as in `gemm_warptile_f32`.
#[kernel(max_threads = 128, min_blocks = 2)]
pub unsafe fn gemm_tile64x128_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tile_kernel::<64, 128, 128, 2, 4, 68, 132, 8>(a, b, c, bias, &p) }
}

/// `gemm_tile64_f32`'s 64×64 tile on 256 threads of 4×4 outputs (eight warps of 16×32), for
/// products too small to fill the GPU with the 8×8 kernels: a slice is 256 FMAs per thread
/// instead of 1024, and a block's work is spread over eight warps instead of two. ncu on the
/// 64-thread kernel at 189×16×832 (18 blocks; H100): 2.5 cycles per issued instruction, so
/// its time was the two warps' instruction stream, 36 µs against cuBLAS's 6.8.
///
/// # Safety
/// As `gemm_tile64_f32`, with block size 256. Two blocks per multiprocessor: 128 registers
/// (a cap of three spilled 76 bytes on sm_80).
///
/// # Thread mapping
/// Warp w → rows (w/2)·16, columns (w%2)·32 of the tile; lane l → rows (l/8)·4 + 0..4,
/// columns (l%8)·4 + 0..4 of the warp's tile.
#[kernel(max_threads = 256, min_blocks = 2)]
pub unsafe fn gemm_tile64_fine_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tile_kernel::<64, 64, 256, 1, 1, 68, 68, 4>(a, b, c, bias, &p) }
}

/// `gemm_tile64_fine_f32`'s 4×4 outputs per thread on 32×64 tiles of 128 threads (2×2 warps of
/// 16×32), for products of at most 32 rows: a 64-row tile computes as many padding rows as
/// rows there (FP32 32×4096×4096 took 66 µs on 64×64 tiles in 8 splits, as long as 64 rows,
/// against cuBLAS's 43; H100, docs/runs/2026-11-25-h100-s13/r1).
///
/// # Safety
/// As `gemm_tile64_f32`, with block size 128, grid (⌈n/64⌉, ⌈m/32⌉, `p.splits`) and
/// `simt_tile_shared_bytes(32, 64)` bytes of shared memory.
///
/// # Thread mapping
/// Warp w → rows (w/2)·16, columns (w%2)·32 of the tile; lanes as in `gemm_tile64_fine_f32`.
#[kernel(max_threads = 128, min_blocks = 4)]
pub unsafe fn gemm_tile32x64_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tile_kernel::<32, 64, 128, 1, 2, 36, 68, 4>(a, b, c, bias, &p) }
}

/// The 64×32 twin of `gemm_tile32x64_f32` (four warps of 16×32 along m), for products of at
/// most 32 columns.
///
/// # Safety
/// As `gemm_tile64_f32`, with block size 128, grid (⌈n/32⌉, ⌈m/64⌉, `p.splits`) and
/// `simt_tile_shared_bytes(64, 32)` bytes of shared memory.
///
/// # Thread mapping
/// Warp w → rows w·16 of the tile; lanes as in `gemm_tile64_fine_f32`.
#[kernel(max_threads = 128, min_blocks = 4)]
pub unsafe fn gemm_tile64x32_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tile_kernel::<64, 32, 128, 2, 1, 68, 36, 4>(a, b, c, bias, &p) }
}

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
//! - `gemm_warptile_fast_f32` (the FP32 default up to 2²³ outputs, and the edge strips of
//!   `gemm_wide_f32`; two blocks per multiprocessor): blocks whose tile lies inside C run the hot loop specialized for the
//!   operands' layouts, with unguarded 16-byte loads (the per-quad bounds/alignment branches were
//!   ~460 of the warp-tiled loop's ~1640 instructions per slice; now ~1140, 1024 of them FFMA).

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use {
    super::common::{Operand, fma, load_quads},
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
        warp_map(tid)
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
            slice_fma::<VEC>(sa, sa.add(SIMT_BK * LDA), row_q, col_q, &mut acc);
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
unsafe fn slice_fma<const VEC: bool>(sa: *mut f32, sb: *mut f32, row_q: [usize; 2], col_q: [usize; 2], acc: &mut [[f32; 8]; 8]) {
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
}

/// The warp-tiled thread mapping: this thread's rows are row_q[h] + 0..4 and columns
/// col_q[h] + 0..4 (h = 0, 1) of the block tile.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn warp_map(tid: usize) -> ([usize; 2], [usize; 2]) {
    let (warp, lane) = (tid / 32, tid % 32);
    let (wm, wn) = ((warp / 2) * 32, (warp % 2) * 64);
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

/// The warp-tiled body for a block whose 128×128 tile of C lies inside C and whose operands
/// allow 16-byte loads, with both layouts fixed at compile time (AKC, BKC: op(A), op(B)
/// k-contiguous). Slices fully inside k are loaded through per-thread pointers stepped once
/// per slice, with no bounds or layout branches; a ragged last slice is peeled off the loop and
/// goes through the guarded loader.
///
/// # Safety
/// As the kernels below; `opa.vec_ok() && opb.vec_ok()`, m0 + BM ≤ m, n0 + BN ≤ n, and the
/// layouts match AKC, BKC.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn warptile_interior<const AKC: bool, const BKC: bool>(
    opa: &Operand,
    opb: &Operand,
    c: *mut f32,
    bias: *const f32,
    p: &GemmParams,
    m0: usize,
    n0: usize,
) {
    const NT: usize = SIMT_THREADS as usize;
    const BK: usize = SIMT_BK;
    const QF: usize = Q;
    let (la, st) = (BK * LDA, STAGE); // B's tile offset and the stage size, in floats
    let tid = thread::thread_idx_x() as usize;
    let (row_q, col_q) = warp_map(tid);
    let smem = crate::shared::dynamic_shared::<f32>();
    let k = p.k as usize;
    let tiles = k.div_ceil(BK);
    let full = k / BK;
    let mut pa = opa.quad_ptrs::<SIMT_BM, BK, NT, QF, AKC>(m0, tid);
    let mut pb = opb.quad_ptrs::<SIMT_BN, BK, NT, QF, BKC>(n0, tid);
    let (da, db) = (opa.slice_step::<BK, AKC>(), opb.slice_step::<BK, BKC>());
    let mut acc = [[0.0f32; 8]; 8];
    const { assert!(QF * 4 * NT == SIMT_BM * BK && QF <= 4) };
    // SAFETY (whole body): slices below `full` are inside A and B (the tile is interior in m
    // and n, and the slice in k) and 16-byte aligned (vec_ok, quads start at multiples of 4);
    // the ragged slice goes through the bounds-checked loader; shared accesses stay inside the
    // two stages of `st` floats the launch provides.
    unsafe {
        if full > 0 {
            let (mut ra, mut rb) = (load_quads(&pa), load_quads(&pb));
            Operand::store_kmajor_kc::<SIMT_BM, BK, NT, QF, LDA, AKC>(&ra, smem, tid);
            Operand::store_kmajor_kc::<SIMT_BN, BK, NT, QF, LDB, BKC>(&rb, smem.add(la), tid);
            thread::sync_threads();
            for t in 0..full {
                let more = t + 1 < full;
                if more {
                    unroll!(j in [0, 1, 2, 3] {
                        if j < QF {
                            pa[j] = (pa[j] as *const f32).wrapping_add(da) as *const F32x4;
                            pb[j] = (pb[j] as *const f32).wrapping_add(db) as *const F32x4;
                        }
                    });
                    ra = load_quads(&pa);
                    rb = load_quads(&pb);
                }
                let sa = smem.add((t % 2) * st);
                slice_fma::<true>(sa, sa.add(la), row_q, col_q, &mut acc);
                if more {
                    let s = smem.add(((t + 1) % 2) * st);
                    Operand::store_kmajor_kc::<SIMT_BM, BK, NT, QF, LDA, AKC>(&ra, s, tid);
                    Operand::store_kmajor_kc::<SIMT_BN, BK, NT, QF, LDB, BKC>(&rb, s.add(la), tid);
                    thread::sync_threads();
                }
            }
        }
        if full < tiles {
            // The ragged last slice, peeled so the loop above has no guarded loads. Its stage
            // was last read two slices ago, before that slice's barrier.
            let ra = opa.load_tile::<SIMT_BM, BK, NT, QF>(m0, full * BK, tid);
            let rb = opb.load_tile::<SIMT_BN, BK, NT, QF>(n0, full * BK, tid);
            let s = smem.add((full % 2) * st);
            Operand::store_kmajor_kc::<SIMT_BM, BK, NT, QF, LDA, AKC>(&ra, s, tid);
            Operand::store_kmajor_kc::<SIMT_BN, BK, NT, QF, LDB, BKC>(&rb, s.add(la), tid);
            thread::sync_threads();
            slice_fma::<true>(s, s.add(la), row_q, col_q, &mut acc);
        }
        store_acc(c, bias, p, m0, n0, row_q, col_q, &acc);
    }
}

/// `gemm_warptile_f32` with an interior fast path: blocks whose tile lies inside C (and
/// operands that allow 16-byte loads) run [`warptile_interior`] for their layout; edge blocks
/// run the general body.
///
/// # Safety
/// As the kernels below.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn warptile_fast_body(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: &GemmParams) {
    let m0 = thread::block_idx_y() as usize * SIMT_BM;
    let n0 = thread::block_idx_x() as usize * SIMT_BN;
    let (opa, opb) = (Operand::a(a, p), Operand::b(b, p));
    let interior = opa.vec_ok() && opb.vec_ok() && m0 + SIMT_BM <= p.m as usize && n0 + SIMT_BN <= p.n as usize;
    // SAFETY: forwarded; the interior body's conditions were just checked.
    unsafe {
        match (interior, opa.k_contig, opb.k_contig) {
            (true, true, true) => warptile_interior::<true, true>(&opa, &opb, c, bias, p, m0, n0),
            (true, true, false) => warptile_interior::<true, false>(&opa, &opb, c, bias, p, m0, n0),
            (true, false, true) => warptile_interior::<false, true>(&opa, &opb, c, bias, p, m0, n0),
            (true, false, false) => warptile_interior::<false, false>(&opa, &opb, c, bias, p, m0, n0),
            (false, ..) => simt_body::<true, true, true>(a, b, c, bias, p),
        }
    }
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

/// `gemm_warptile_f32` with the interior fast path: tiles inside C take unguarded 16-byte
/// loads through pointers stepped per slice, specialized for the operands' layouts (no
/// per-quad bounds, alignment or layout branches in the hot loop); edge tiles run the general
/// body. Launch bounds ask for two blocks per multiprocessor (at most 128 registers: only the
/// edge-tile body spills). What `GemmKernel::Auto` runs for large outputs. (Without the bounds:
/// 191 registers, one block per SM, 44.2 against 45.1 TFLOP/s at 4096 on an H100.)
///
/// # Safety
/// As `gemm_warptile_f32`.
///
/// # Thread mapping
/// As `gemm_warptile_f32`.
#[kernel(max_threads = 256, min_blocks = 2)]
pub unsafe fn gemm_warptile_fast_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { warptile_fast_body(a, b, c, bias, &p) }
}

//! FP32 GEMM on the CUDA cores, fed by a `cp.async` pipeline: a 128-thread block computes a
//! 128×128 tile of C with 8×16 outputs per thread, two blocks per multiprocessor, and copies
//! 8-deep k-slices of op(A) and op(B) straight from global to shared memory, four slices in
//! flight.
//!
//! Why, against the register-staged kernels (`simt.rs`, `simt_wide.rs`): Nsight Compute on the
//! MLP's 4096×1024×1024 (H100) showed the 128×256 kernel (one block of 8 warps per
//! multiprocessor, each slice staged through registers, one barrier for all 8 warps) issuing
//! 2.65 instructions per cycle (63.5 % of issue slots) against cuBLAS's 3.52 (84 %) for a kernel
//! of the same registers per thread and warps per multiprocessor, but two independent blocks of
//! four warps and a multi-stage asynchronous copy: while one block waits at its barrier the
//! other issues, and no registers hold a slice in transit.
//!
//! Shared tiles are k-major (`s[q·LD + o]`), read by the 8×16 outer product of `simt_wide.rs`.
//! How a slice gets there depends on the operand:
//! - k-contiguous (x·Wᵀ's both operands): 4-byte copies, each lane one element of a row, eight
//!   lanes per 32-byte row segment, stored transposed (conflict-free with the padded rows);
//! - contiguous along m or n and 16-byte aligned: 16-byte copies;
//! - anything else (odd strides, misaligned views): 4-byte copies along m or n.
//!
//! Rows of a tile past m or n read clamped rows (stored nowhere); a ragged last k-slice is
//! zero-filled by the copies themselves, so every tile and every k runs the same loop. Split-K
//! over gridDim.z (`split.rs`), the epilogue through shared memory (`tile_store.rs`).

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use {
    super::common::{Operand, cp_async_4, cp_async_16, cp_async_commit, cp_async_wait},
    super::simt_wide::slice_fma,
    super::split::{split_index, split_range, split_reduce, sync_threads_or},
    super::tile_store::{store_tile_loop, tile_ld},
    crate::{thread, vector::F32x4},
};

/// Rows and columns of C per block.
pub const PIPE_TILE: usize = 128;
/// k per pipeline slice (`slice_fma` is unrolled for exactly 8).
pub const PIPE_BK: usize = 8;
/// Threads per block: four warps of 64×64 outputs.
pub const PIPE_THREADS: u32 = 128;
/// Slices in flight: three copies ahead of the one being multiplied.
pub const PIPE_STAGES: usize = 4;
/// Floats per k-row of a shared tile (16-byte rows, and the transposed 4-byte stores of a
/// k-contiguous operand hit 32 different banks).
const LD: usize = PIPE_TILE + 4;
/// Floats of one stage: A's slice, then B's.
const STAGE: usize = 2 * PIPE_BK * LD;
/// Dynamic shared memory of `gemm_pipelined_f32`: the stages, reused for C's tile by the
/// epilogue (the larger of the two: 66 KiB, so two blocks fit a multiprocessor).
pub const PIPE_SHARED: u32 = {
    let stages = (PIPE_STAGES * STAGE * 4) as u32;
    let tile = super::tile_store_bytes(PIPE_TILE, PIPE_TILE);
    if stages > tile { stages } else { tile }
};

/// How one operand's slices are copied (see the module doc).
#[cfg(target_arch = "nvptx64")]
#[derive(Clone, Copy, PartialEq, Eq)]
enum CopyKind {
    /// k-contiguous: 8 elements per thread, transposed.
    KContig,
    /// Contiguous along m or n, 16-byte aligned: 2 quads per thread.
    Quads,
    /// Contiguous along m or n (or neither), any alignment: 8 elements per thread.
    Elements,
}

/// What a thread needs to copy its part of every slice of one operand.
#[cfg(target_arch = "nvptx64")]
struct Feed {
    kind: CopyKind,
    ptr: *const f32,
    /// Floats between consecutive k (1 when k-contiguous).
    ks: usize,
    /// Offsets (floats, from `ptr` at k = 0) of this thread's rows: 8 for `KContig`, 2 quads'
    /// starts for `Quads`, 1 for `Elements`; rows past the matrix are clamped onto it.
    off: [usize; 8],
    /// Where this thread's first copy lands in a stage's tile, and its k within the slice.
    dst: usize,
    q: usize,
}

#[cfg(target_arch = "nvptx64")]
impl Feed {
    #[inline(always)]
    fn new(op: &Operand, o0: usize, tid: usize) -> Feed {
        let (ptr, os, ks) = op.raw();
        let last = op.outer() - 1;
        let clamp = |o: usize| if o > last { last } else { o };
        let mut off = [0usize; 8];
        if op.k_contig {
            // Element (o = tid/8 + 16j, q = tid%8): a warp reads 4 rows × 32 bytes.
            unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7] { off[j] = clamp(o0 + tid / 8 + 16 * j) * os; });
            Feed { kind: CopyKind::KContig, ptr, ks: 1, off, dst: (tid % 8) * LD + tid / 8, q: tid % 8 }
        } else if op.vec_ok() {
            // Quad (o = 4·(tid%32), q = tid/32 + 4j), j < 2; the last quad along o ends at outer.
            let o = o0 + 4 * (tid % 32);
            let o = if o + 4 > op.outer() { op.outer() - 4 } else { o };
            off[0] = o;
            Feed { kind: CopyKind::Quads, ptr, ks, off, dst: (tid / 32) * LD + 4 * (tid % 32), q: tid / 32 }
        } else {
            // Element (o = tid, q = j), j < 8.
            off[0] = clamp(o0 + tid) * os;
            Feed { kind: CopyKind::Elements, ptr, ks, off, dst: tid, q: 0 }
        }
    }

    /// Issues this thread's copies of the slice at k0 into the tile `s`; k-rows at or past `k`
    /// are zero-filled (read from k0 instead, which is inside the matrix).
    ///
    /// # Safety
    /// `s` is a stage's tile of BK rows of LD floats; k0 < k; the offsets are inside the matrix.
    #[inline(always)]
    unsafe fn copy(&self, s: *mut f32, k0: usize, k: usize) {
        let rem = k - k0;
        // SAFETY (whole body): every source is (clamped row, k0 + q) with k0 + q < k, or k0;
        // every destination inside the tile (q < BK, o < 128).
        unsafe {
            match self.kind {
                CopyKind::KContig => {
                    let (q, n) = if self.q < rem { (self.q, 4) } else { (0, 0) };
                    let src = self.ptr.add(k0 + q);
                    unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7] {
                        cp_async_4(s.add(self.dst + 16 * j), src.add(self.off[j]), n);
                    });
                }
                CopyKind::Quads => {
                    unroll!(j in [0, 1] {
                        let q = self.q + 4 * j;
                        let (q, n) = if q < rem { (q, 16) } else { (0, 0) };
                        let src = self.ptr.add(self.off[0] + (k0 + q) * self.ks);
                        cp_async_16(s.add(self.dst + 4 * j * LD) as *mut u8, src as *const u8, n);
                    });
                }
                CopyKind::Elements => {
                    unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7] {
                        let (q, n) = if j < rem { (j, 4) } else { (0, 0) };
                        cp_async_4(s.add(self.dst + j * LD), self.ptr.add(self.off[0] + (k0 + q) * self.ks), n);
                    });
                }
            }
        }
    }
}

/// This thread's rows (row_q[h] + 0..4) and columns (col_q[g] + 0..4) of the block tile: warps
/// 2 × 2 of 64×64, lanes 8 (m) × 4 (n). A warp's 16-byte shared reads of A cover 128
/// contiguous bytes and those of B 64: no bank conflicts.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn pipe_map(tid: usize) -> ([usize; 2], [usize; 4]) {
    let (warp, lane) = (tid / 32, tid % 32);
    let r = (warp / 2) * 64 + (lane / 4) * 4;
    let c = (warp % 2) * 64 + (lane % 4) * 4;
    ([r, r + 32], [c, c + 16, c + 32, c + 48])
}

/// The kernel body (see the module doc).
///
/// # Safety
/// As [`gemm_pipelined_f32`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn pipelined(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: &GemmParams) {
    const BK: usize = PIPE_BK;
    const S: usize = PIPE_STAGES;
    const NT: usize = PIPE_THREADS as usize;
    let tid = thread::thread_idx_x() as usize;
    let (tile_m, tile_n) = super::grouped_tile();
    let origin = (tile_m * PIPE_TILE, tile_n * PIPE_TILE);
    let (opa, opb) = (Operand::a(a, p), Operand::b(b, p));
    let fa = Feed::new(&opa, origin.0, tid);
    let fb = Feed::new(&opb, origin.1, tid);
    let k = p.k as usize;
    let z = split_index(p);
    let (first, end) = split_range(p, z, k.div_ceil(BK));
    let n = end.saturating_sub(first);
    let smem = crate::shared::dynamic_shared::<f32>();
    let map = pipe_map(tid);
    let mut acc = [[0.0f32; 16]; 8];
    // SAFETY (whole loop): slices first..end are inside k (the last one zero-filled past it);
    // stage t % S is rewritten only after the barrier that follows every thread's multiply of
    // slice t − 1, which read it.
    unsafe {
        unroll!(s in [0, 1, 2] {
            if s < n {
                let st = smem.add(s * STAGE);
                fa.copy(st, (first + s) * BK, k);
                fb.copy(st.add(BK * LD), (first + s) * BK, k);
            }
            cp_async_commit();
        });
        const { assert!(S == 4) };
        for t in 0..n {
            cp_async_wait::<{ S - 2 }>();
            thread::sync_threads();
            let next = t + S - 1;
            if next < n {
                let st = smem.add((next % S) * STAGE);
                fa.copy(st, (first + next) * BK, k);
                fb.copy(st.add(BK * LD), (first + next) * BK, k);
            }
            cp_async_commit();
            let st = smem.add((t % S) * STAGE);
            slice_fma::<LD, LD>(st, st.add(BK * LD), map.0, map.1, &mut acc);
        }
        cp_async_wait::<0>();
    }
    let tile = tile_m * thread::grid_dim_x() as usize + tile_n;
    // SAFETY: the split-K counters and workspace are the host's (forwarded).
    if !unsafe { split_reduce(p, tile, z, &mut acc, (tid, NT), sync_threads_or) } {
        return;
    }
    // Every warp is done with the stages: they become C's tile.
    thread::sync_threads();
    let ld = tile_ld(PIPE_TILE);
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
        unroll!(g in [0, 1, 2, 3] {
            let (row, col) = (map.0[i / 4] + i % 4, map.1[g]);
            let v = F32x4([acc[i][g * 4], acc[i][g * 4 + 1], acc[i][g * 4 + 2], acc[i][g * 4 + 3]]);
            // SAFETY: inside the 128×128 tile, which fits PIPE_SHARED; col and ld are multiples of 4.
            unsafe { *(smem.add(row * ld + col) as *mut F32x4) = v };
        });
    });
    thread::sync_threads();
    // SAFETY: the whole tile is written; the epilogue bounds-checks C.
    unsafe { store_tile_loop(c, bias, p, smem, (PIPE_TILE, PIPE_TILE), origin, (tid, NT)) };
}

/// 8×16 outputs per thread on 128×128 tiles, a four-slice `cp.async` pipeline, two blocks per
/// multiprocessor. Any shape, layout and alignment.
///
/// # Safety
/// `a`, `b`, `c` (and `bias` if `p.has_bias != 0`, with n entries) cover every element the
/// strides address; `c` is disjoint from the inputs; m, n ≥ 1. Launch: block `PIPE_THREADS`,
/// grid (⌈n/128⌉, ⌈m/128⌉, `p.splits`), `PIPE_SHARED` bytes of dynamic shared memory; with
/// split-K `p.sem` holds a zeroed counter per tile (`split.rs`).
#[kernel(max_threads = 128, min_blocks = 2)]
pub unsafe fn gemm_pipelined_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { pipelined(a, b, c, bias, &p) }
}

//! TF32 `wgmma` fed by `cp.async` instead of the copy engine (sm_90a): operands whose rows break
//! 16-byte alignment, which TMA cannot read (its global strides are multiples of 16 bytes).
//!
//! One warpgroup per block both copies and multiplies, on a multi-stage `cp.async` ring as the
//! `mma.sync` kernels do (`pipeline.rs`). The wide operand is the register operand: op(A), or
//! op(B)ᵀ when the kernel computes Cᵀ = op(B)ᵀ·op(A)ᵀ (`SWAP`). Its rows (k-contiguous, or
//! MN-contiguous k-rows) are copied as whole 16-byte chunks of global memory starting at the
//! aligned address at or before each row's first element: row r of the slice then sits in
//! shared memory shifted by its phase φ_r (its first element's offset in its 16-byte chunk,
//! 0–3 floats), one chunk longer than the slice. Every row a thread reads its `wgmma` fragments
//! from has the same phase (fragment rows differ by multiples of 4, slices start at multiples of
//! 32 k), so the shift costs one add per thread: the copies stay 16 bytes wide at any
//! alignment, where the `mma.sync` tiles copy such operands 4 bytes at a time.
//!
//! The other operand is `wgmma`'s shared operand: K-major, in the 128-byte swizzled rows the
//! instruction reads, copied 16 bytes at a time; the host stages it k-contiguous with aligned
//! rows first where it is not. It is the narrow side of the products this kernel is for (the
//! host swaps to make it so), so the staging pass is short. One 4-byte copy per element instead
//! made the kernel issue-bound: a lone warpgroup spent about 3 cycles per instruction on 32
//! copies per thread and slice (nt 1000×1000×1001: 55 µs, 1 warp per scheduler under Nsight
//! Compute; H200, docs/runs/2026-11-29-s42/b2).
//!
//! Rows past m or n are not copied: they only feed rows or columns of the tile past C, which
//! the epilogue never stores. k past the end is zero-filled.

use super::GemmParams;
use crate::kernel;

/// Rows of the register operand per block (one warpgroup: `wgmma`'s m = 64).
pub const WGCP_BM: usize = 64;
/// k per stage.
pub const WGCP_BK: usize = 32;
/// Threads per block: one warpgroup.
pub const WGCP_THREADS: u32 = 128;
/// Row length (floats) of a k-contiguous register operand's shared tile: the slice's 32 k and
/// the chunk its phase adds (9 chunks of 4).
pub const WGCP_LDK: usize = WGCP_BK + 4;
/// Row length (floats) of an MN-contiguous register operand's k-rows: 64 + 4 for the phase's
/// chunk, padded to 72 so that a warp's fragment loads (4 k-rows × 8 rows) start 8 banks apart.
pub const WGCP_LDO: usize = WGCP_BM + 8;
/// Bytes of the register operand's tile in one stage (either orientation), a multiple of 1024 so
/// that the shared operand's tile after it keeps the swizzle's alignment.
pub const WGCP_A_BYTES: usize = {
    let kc = WGCP_BM * WGCP_LDK * 4;
    let mn = WGCP_BK * WGCP_LDO * 4;
    let max = if kc > mn { kc } else { mn };
    max.next_multiple_of(1024)
};
/// Pipeline stages.
pub const WGCP_STAGES: usize = 4;

/// Bytes of one stage for a `bn`-wide shared operand (rows of 128 bytes: 32 f32 of k).
pub const fn wgcp_stage_bytes(bn: usize) -> usize {
    WGCP_A_BYTES + bn * 128
}

/// Dynamic shared memory of a kernel of this family with a `bn`-wide shared operand: 1024 bytes
/// of slack to align the ring, the stages, and at least the epilogue's f32 tile (either way
/// round), which it lays over them.
pub const fn wgcp_shared(bn: usize) -> u32 {
    let ring = WGCP_STAGES * wgcp_stage_bytes(bn);
    let t1 = super::tile_store_bytes(WGCP_BM, bn) as usize;
    let t2 = super::tile_store_bytes(bn, WGCP_BM) as usize;
    let tile = if t1 > t2 { t1 } else { t2 };
    (1024 + if ring > tile { ring } else { tile }) as u32
}

const _: () = assert!(WGCP_BM * WGCP_LDK * 4 <= WGCP_A_BYTES && WGCP_BK * WGCP_LDO * 4 <= WGCP_A_BYTES);
const _: () = assert!(2 * wgcp_shared(128) as usize <= 228 * 1024);
const _: () = assert!(3 * wgcp_shared(64) as usize <= 228 * 1024);

#[cfg(all(target_arch = "nvptx64", target_feature = "sm_90a"))]
mod device {
    use super::*;
    use crate::matmul::common::{cp_async_16, cp_async_commit, cp_async_wait};
    use crate::matmul::hopper::{fence_proxy_async, kmajor_chunk, shared_addr, smem_desc, wgmma_commit, wgmma_fence, wgmma_tf32_rega, wgmma_wait};
    use crate::matmul::opaque;
    use crate::matmul::split::{split_index, split_range};
    use crate::matmul::tile_store::{store_tile, tile_ld};
    use crate::thread;

    /// An operand as the kernel sees it: element (o, q) (o along its m or n, q along k) at
    /// `ptr[o·os + q·ks]`.
    #[derive(Clone, Copy)]
    struct Operand {
        ptr: *const f32,
        os: usize,
        ks: usize,
        outer: usize,
        k: usize,
    }

    impl Operand {
        /// The float offset of `ptr` within its 16-byte chunk's grid.
        #[inline(always)]
        fn base4(&self) -> usize {
            self.ptr as usize / 4
        }

        /// Copies the register operand's slice at (o0, k0) into the tile at `s` (layout KC:
        /// k-contiguous rows of `WGCP_LDK`, else k-rows of `WGCP_LDO`), each row as the 16-byte
        /// chunks of global memory that hold it, from the aligned one at or before its first
        /// element. Each thread copies chunks of one row (KC: 2 threads a row, 4–5 chunks each;
        /// else 4 threads a k-row, 4–5 chunks each): no division in the loop.
        ///
        /// # Safety
        /// `s` is a stage's register-operand tile; the operand is contiguous along k (KC) or
        /// along its rows (!KC) and its strides address only inside its buffer, whose start is
        /// 16-byte aligned (a chunk before a row's first element then lies inside it).
        #[inline(always)]
        unsafe fn issue_shifted<const KC: bool>(&self, s: *mut f32, (o0, k0): (usize, usize), tid: usize) {
            // Chunks per row, threads per row, and the row length in shared memory.
            let (per_row, tpr, ld) = if KC { (WGCP_BK / 4 + 1, 2, WGCP_LDK) } else { (WGCP_BM / 4 + 1, 4, WGCP_LDO) };
            let (r, c0) = (tid / tpr, tid % tpr);
            // The row's first element, how many elements it has from there (along the chunks),
            // and whether it exists.
            let (first, len, inside) = if KC {
                let o = o0 + r;
                (o * self.os + k0, self.k as isize - k0 as isize, o < self.outer)
            } else {
                let q = k0 + r;
                (q * self.ks + o0, self.outer as isize - o0 as isize, q < self.k)
            };
            // A row past m or n (KC) feeds only rows of C past m: not copied. A k-row past k
            // must read as zeros.
            if !inside && KC {
                return;
            }
            let phase = (self.base4() + first) & 3;
            // The aligned chunk at or before the first element (inside the buffer, see above).
            let row = self.ptr.wrapping_add(first).wrapping_sub(phase);
            let dst = unsafe { s.add(r * ld) };
            let mut c = c0;
            while c < per_row {
                // Elements of chunk c from the row's first: those before it (the previous slice
                // or row: read, never used) and those past the end (zero-filled).
                let start = 4 * c as isize - phase as isize;
                let avail = if inside { (len - start).clamp(0, 4) as u32 } else { 0 };
                // SAFETY: with avail > 0 the chunk is 16-byte aligned, inside the buffer and
                // holds avail readable floats; with 0 nothing is read. The destination is
                // inside the row's tile.
                unsafe {
                    let src = if avail > 0 { row.wrapping_add(4 * c) } else { self.ptr };
                    cp_async_16(dst.add(4 * c) as *mut u8, src as *const u8, 4 * avail);
                }
                c += tpr;
            }
        }

        /// Copies the shared operand's slice at (o0, k0) into the K-major swizzled tile at `dst`
        /// (`hopper::kmajor_chunk`: row o at o·128, its 16-byte chunk c4 at (c4 ⊕ o%8)·16), 16 bytes at a time:
        /// 8 threads a row, 16 rows per pass. Rows past m or n are not copied.
        ///
        /// # Safety
        /// `dst` is a stage's shared-operand tile of `bn` rows (1024-byte aligned); the operand is
        /// k-contiguous with 16-byte aligned rows and its strides address only inside it.
        #[inline(always)]
        unsafe fn issue_kmajor(&self, dst: *mut u8, bn: usize, (o0, k0): (usize, usize), tid: usize) {
            let rows = bn.min(self.outer.saturating_sub(o0));
            let per_pass = WGCP_THREADS as usize / 8;
            let (c4, mut o) = (tid % 8, tid / 8);
            let q = k0 + 4 * c4;
            let avail = self.k.saturating_sub(q).min(4) as u32;
            let mut src = self.ptr.wrapping_add((o0 + o) * self.os + q);
            while o < rows {
                // SAFETY: inside the matrix (16-byte aligned) when avail > 0; else nothing is
                // read. The destination is inside the tile.
                unsafe { cp_async_16(dst.add(kmajor_chunk(0, o, c4) as usize), if avail > 0 { src } else { self.ptr } as *const u8, 4 * avail) };
                o += per_pass;
                src = src.wrapping_add(per_pass * self.os);
            }
        }
    }

    /// The kernel body: `NACC` accumulators per thread (the shared operand's tile is 2·NACC
    /// wide), `KC`: the register operand is k-contiguous, `SWAP`: it is op(B)ᵀ and the block
    /// computes a tile of Cᵀ.
    ///
    /// # Safety
    /// As the kernels.
    #[inline(always)]
    pub unsafe fn wgcp_gemm<const NACC: usize, const KC: bool, const SWAP: bool>(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: &GemmParams) {
        let bn = 2 * NACC;
        let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
        let opa = Operand { ptr: a, os: p.a_row_stride as usize, ks: p.a_col_stride as usize, outer: m, k };
        let opb = Operand { ptr: b, os: p.b_col_stride as usize, ks: p.b_row_stride as usize, outer: n, k };
        let (reg, sh) = if SWAP { (opb, opa) } else { (opa, opb) };
        let tid = thread::thread_idx_x() as usize;
        let (warp, lane) = (tid / 32, tid % 32);
        let (bx, by) = (thread::block_idx_x() as usize, thread::block_idx_y() as usize);
        // Rows of the register operand, and of the shared one, this block covers.
        let (o0, s0) = (by * WGCP_BM, bx * bn);
        let smem = crate::shared::dynamic_shared::<u8>();
        let base = (shared_addr(smem) + 1023) & !1023;
        // The generic address of the ring (the fragment loads and the epilogue's tile).
        let ring = unsafe { smem.add((base - shared_addr(smem)) as usize) };
        let stage_bytes = wgcp_stage_bytes(bn);
        let z = split_index(p);
        let (first, end) = split_range(p, z, k.div_ceil(WGCP_BK).max(1));
        let ktiles = end - first;

        let issue = |kt: usize| {
            let s = (kt - first) % WGCP_STAGES;
            let k0 = kt * WGCP_BK;
            // SAFETY: stage s is inside the launch's shared memory and free (see the loop).
            unsafe {
                let at = ring.add(s * stage_bytes) as *mut f32;
                reg.issue_shifted::<KC>(at, (o0, k0), tid);
                sh.issue_kmajor(ring.add(s * stage_bytes + WGCP_A_BYTES), bn, (s0, k0), tid);
            }
        };
        // This thread's phase: every row its fragments come from starts at the same offset in
        // its 16-byte chunk (rows o0 + lane/4 + multiples of 8; k-rows lane%4 + multiples of 4).
        let phase = if KC { (reg.base4() + (o0 + lane / 4) * reg.os) & 3 } else { (reg.base4() + (lane % 4) * reg.ks + o0) & 3 };

        let prologue = opaque(WGCP_STAGES - 1);
        let mut ahead = 0;
        while ahead < prologue {
            if ahead < ktiles {
                issue(first + ahead);
            }
            cp_async_commit();
            ahead += 1;
        }
        let mut d = [0f32; NACC];
        let mut i = 0;
        // At least one pass (ktiles ≥ 1): a path around the loop from the zeroed accumulators
        // to the final wait would make ptxas serialize the `wgmma`s.
        loop {
            // Slice i has landed for this thread; its shared-operand bytes reach `wgmma` (the
            // async proxy); then every thread's have, and every thread is done with slice i − 1.
            cp_async_wait::<{ WGCP_STAGES - 2 }>();
            fence_proxy_async();
            thread::sync_threads();
            let s = i % WGCP_STAGES;
            let ta = unsafe { ring.add(s * stage_bytes) } as *const f32;
            let tb = base + (s * stage_bytes + WGCP_A_BYTES) as u32;
            // This thread's fragments of the slice: a[i] at row 16·warp + lane/4 + 8·(i%2),
            // k lane%4 + 4·(i/2) of each 8-k step.
            let mut f = [[0f32; 4]; 4];
            unroll!(kk in [0, 1, 2, 3] {
                unroll!(h in [0, 1, 2, 3] {
                    let row = 16 * warp + lane / 4 + 8 * (h % 2);
                    let q = 8 * kk + lane % 4 + 4 * (h / 2);
                    let at = if KC { row * WGCP_LDK + q } else { q * WGCP_LDO + row };
                    // SAFETY: inside the stage's tile (the phase is at most 3 floats of its
                    // row's spare chunk).
                    f[kk][h] = unsafe { *ta.add(at + phase) };
                });
            });
            wgmma_fence();
            unroll!(kk in [0, 1, 2, 3] {
                // SAFETY: the stage's shared tile has landed and is visible to `wgmma`; the
                // whole warpgroup runs this; `f` lives until the wait below.
                unsafe { wgmma_tf32_rega::<NACC>(&mut d, &f[kk], smem_desc(tb + (kk * 8 * 4) as u32, 16)) };
            });
            wgmma_commit();
            // While the `wgmma`s run: slice i + STAGES − 1 into the stage of slice i − 1, which
            // every thread is done with (its `wgmma`s waited for, its fragments loaded before
            // the barrier above).
            if i + WGCP_STAGES - 1 < ktiles {
                issue(first + i + WGCP_STAGES - 1);
            }
            cp_async_commit();
            wgmma_wait::<0>();
            i += 1;
            if i >= ktiles {
                break;
            }
        }
        // No copy in flight (the last groups are empty or past use), every thread done with the
        // stages: they become C's tile.
        cp_async_wait::<0>();
        thread::sync_threads();
        let tile = ring as *mut f32;
        let r0 = 16 * warp + lane / 4;
        let c0 = 2 * (lane % 4);
        // The tile of C this block stores: bn rows × 64 with SWAP, else 64 × bn.
        let (cm, cn) = if SWAP { (bn, WGCP_BM) } else { (WGCP_BM, bn) };
        let ld = tile_ld(cn);
        unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
            if j < NACC / 4 {
                unroll!(h in [0, 1] {
                    unroll!(e in [0, 1] {
                        let (r, col) = (r0 + 8 * h, c0 + 8 * j + e);
                        let at = if SWAP { col * ld + r } else { r * ld + col };
                        // SAFETY: inside the cm × cn tile, which fits the launch's shared memory.
                        unsafe { *tile.add(at) = d[4 * j + 2 * h + e] };
                    });
                });
            }
        });
        thread::sync_threads();
        let tile_id = by * thread::grid_dim_x() as usize + bx;
        let (m0, n0) = if SWAP { (s0, o0) } else { (o0, s0) };
        // SAFETY: every thread calls it with the whole tile written; C, the bias and the split-K
        // buffers are the caller's contract.
        unsafe { store_tile(c, bias, p, tile, (cm, cn), (m0, n0), (tile_id, z), (tid, WGCP_THREADS as usize), 32) };
    }

    /// Dispatches on the register operand's orientation.
    ///
    /// # Safety
    /// As the kernels.
    #[inline(always)]
    pub unsafe fn wgcp_dispatch<const NACC: usize, const SWAP: bool>(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: &GemmParams) {
        let reg_ks = if SWAP { p.b_row_stride } else { p.a_col_stride };
        // SAFETY: forwarded.
        unsafe { if reg_ks == 1 { wgcp_gemm::<NACC, true, SWAP>(a, b, c, bias, p) } else { wgcp_gemm::<NACC, false, SWAP>(a, b, c, bias, p) } }
    }
}

macro_rules! wgcp_kernel {
    ($(#[$doc:meta])* $name:ident, $bn:literal, $swap:literal, $blocks:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `a`, `b` (f32, strides addressing only inside buffers that start 16-byte aligned; the
        /// register operand contiguous along k or along its rows, the shared one k-contiguous with
        /// rows a multiple of 4 floats), `c` (m rows of `p.ldc`, disjoint from them)
        /// and `bias` (n f32 if `p.has_bias != 0`). Launch: block `WGCP_THREADS`, grid
        /// (⌈cols/bn⌉, ⌈rows/64⌉, splits) over the tiles of C (or of Cᵀ when swapped: rows n,
        /// columns m), `wgcp_shared(bn)` bytes of dynamic shared memory; sm_90a only. Split-K
        /// over gridDim.z (`p.splits`, 32-k slices, with the counters and workspace of `split.rs`).
        #[kernel(sm_90a, max_threads = 128, min_blocks = $blocks)]
        pub unsafe fn $name(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
            // SAFETY: forwarded from the caller.
            unsafe { device::wgcp_dispatch::<{ $bn / 2 }, $swap>(a, b, c, bias, &p) }
        }
    };
}

wgcp_kernel!(
    /// C = act(α·op(A)·op(B) + bias + β·C) on TF32 `wgmma`, any alignment: op(A) is the register
    /// operand (64-row tiles, shifted 16-byte copies), op(B) the shared one (128-wide tiles).
    gemm_wgmma_tf32_cp_64x128,
    128,
    false,
    2
);
wgcp_kernel!(
    /// `gemm_wgmma_tf32_cp_64x128` with 64-wide tiles of op(B): narrow products.
    gemm_wgmma_tf32_cp_64x64,
    64,
    false,
    3
);
wgcp_kernel!(
    /// `gemm_wgmma_tf32_cp_64x128` on Cᵀ = op(B)ᵀ·op(A)ᵀ: op(B) is the register operand (64
    /// columns of C per block), op(A) the shared one (128 rows).
    gemm_wgmma_tf32_cp_64x128_swapped,
    128,
    true,
    2
);
wgcp_kernel!(
    /// `gemm_wgmma_tf32_cp_64x128_swapped` with 64 rows of C per block.
    gemm_wgmma_tf32_cp_64x64_swapped,
    64,
    true,
    3
);

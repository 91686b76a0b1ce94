//! The tensor-core kernels' shared machinery: a multi-stage `cp.async` pipeline that copies
//! BM×BK and BN×BK slices of op(A) and op(B) into shared memory in the orientation they have in
//! global memory (so every copy is a straight 16-byte `cp.async`, for any transpose), and a
//! warp-tiled mma loop that reads fragments from either orientation. The element kind (TF32
//! from f32, or BF16) supplies the fragment loads and the `mma` instruction; the block tile
//! ([`TcTile`]: 2 warps along m × `WN` along n, each warp `MT`·16 rows × 32 columns) is a
//! compile-time choice, so one body serves the 128×128 tiles of large products and the 64×64
//! tiles that give a mid-sized product enough blocks. Split-K (`split.rs`) works for every
//! tile.
//!
//! Shared layout of one operand in one stage: k-contiguous operands as `S[o][q]` (rows of
//! `LDK` elements), outer-contiguous ones as `S[q][o]` (rows of outer + 8 elements, see
//! [`tc_ldo`]); both paddings make a warp's fragment loads hit 32 different banks.

#[cfg(target_arch = "nvptx64")]
pub use device::*;

/// Rows of C per block of the 128×128 tile.
pub const TC_BM: usize = 128;
/// Columns of C per block of the 128×128 tile.
pub const TC_BN: usize = 128;
/// k per pipeline stage of the first tensor-core rung (the deeper ones set their own).
pub const TC_BK: usize = 32;
/// Threads per block of the 128×128 tile (8 warps: 2 along m × 4 along n, each 64×32 of C).
pub const TC_THREADS: u32 = 256;
/// Row length of the 128×128 tile's outer-contiguous tiles (`S[q][o]`): 128 + 8.
pub const TC_LDO: usize = tc_ldo(TC_BM);

/// Row length of an outer-contiguous tile `S[q][o]` of `outer` rows or columns of C: padded by
/// 8 elements (for f32, 8 banks; for bf16, 4: a warp's fragment loads hit 32 banks, and rows
/// stay 16-byte aligned for `ldmatrix`).
pub const fn tc_ldo(outer: usize) -> usize {
    outer + 8
}

/// Elements of one operand's tile region in one stage, for `outer` rows (or columns) of C, `bk`
/// k per stage and a k-contiguous row length `ldk`.
pub const fn tc_region(outer: usize, ldk: usize, bk: usize) -> usize {
    let kc = outer * ldk;
    let oc = bk * tc_ldo(outer);
    if kc > oc { kc } else { oc }
}

/// Dynamic shared memory, in bytes, of a tensor-core kernel with a bm×bn tile, `stages` stages of
/// `bk` k, k-contiguous rows of `ldk` elements of `elem` bytes: the pipeline's stages, which the
/// epilogue reuses for the f32 tile of C (`tile_store.rs`).
pub const fn tc_shared_bytes(bm: usize, bn: usize, ldk: usize, bk: usize, stages: usize, elem: usize) -> u32 {
    let pipeline = (stages * (tc_region(bm, ldk, bk) + tc_region(bn, ldk, bk)) * elem) as u32;
    let tile = crate::matmul::tile_store_bytes(bm, bn);
    if pipeline > tile { pipeline } else { tile }
}

/// The block tile of a tensor-core kernel: 2 warps along m × `wn` along n, each warp `mt`·16
/// rows × 32 columns of C (mma tiles of 16×8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TcTile {
    /// 16-row mma tiles per warp along m (1..=4).
    pub mt: usize,
    /// Warps along n (1..=4).
    pub wn: usize,
}

impl TcTile {
    /// Rows of C per block.
    pub const fn bm(self) -> usize {
        32 * self.mt
    }
    /// Columns of C per block.
    pub const fn bn(self) -> usize {
        32 * self.wn
    }
    /// Threads per block.
    pub const fn threads(self) -> u32 {
        (64 * self.wn) as u32
    }
}

/// The 128×128 tile (8 warps of 64×32).
pub const TC_TILE_128: TcTile = TcTile { mt: 4, wn: 4 };
/// The 64×64 tile (4 warps of 32×32): four times the blocks of [`TC_TILE_128`] for outputs
/// that have few large tiles.
pub const TC_TILE_64: TcTile = TcTile { mt: 2, wn: 2 };

/// Device side: the pipeline and the mma loop.
#[cfg(target_arch = "nvptx64")]
mod device {
    use super::*;
    use crate::matmul::GemmParams;
    use crate::matmul::common::{cp_async_4, cp_async_8, cp_async_16, cp_async_commit, cp_async_wait};
    use crate::matmul::split::{split_index, split_range};
    use crate::matmul::tile_store::{store_tile, tile_ld};
    use crate::thread;

    /// An element kind of the tensor-core GEMM.
    pub trait TcKind {
        /// The element as stored (f32, or bf16 bits as u16).
        type E: Copy;
        /// k per pipeline stage (a multiple of KSTEP, at most 8·KSTEP).
        const BK: usize;
        /// Row length of a k-contiguous tile (`S[o][q]`), padded.
        const LDK: usize;
        /// Pipeline stages.
        const STAGES: usize;
        /// k per mma instruction.
        const KSTEP: usize;
        /// Zero.
        const ZERO: Self::E;
        /// A fragment of the 16×KSTEP tile of op(A) at rows r0.., k c0.. (see `common::mma_*`);
        /// `ldo`: the row length of an outer-contiguous tile.
        ///
        /// # Safety
        /// `s` is a stage's A region; the tile lies inside it.
        unsafe fn frag_a<const KC: bool>(s: *const Self::E, ldo: usize, r0: usize, c0: usize, lane: usize) -> [u32; 4];
        /// A fragment of the KSTEP×8 tile of op(B) at columns n0.., k c0...
        ///
        /// # Safety
        /// As `frag_a`.
        unsafe fn frag_b<const KC: bool>(s: *const Self::E, ldo: usize, n0: usize, c0: usize, lane: usize) -> [u32; 2];
        /// The fragments of the two KSTEP×8 tiles at columns n0.. and n0 + 8.. (b of the first,
        /// then of the second).
        ///
        /// # Safety
        /// As `frag_a`.
        #[inline(always)]
        unsafe fn frag_b2<const KC: bool>(s: *const Self::E, ldo: usize, n0: usize, c0: usize, lane: usize) -> [u32; 4] {
            // SAFETY: forwarded.
            let (x, y) = unsafe { (Self::frag_b::<KC>(s, ldo, n0, c0, lane), Self::frag_b::<KC>(s, ldo, n0 + 8, c0, lane)) };
            [x[0], x[1], y[0], y[1]]
        }
        fn mma(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]);
    }

    /// Index of element (o, q) of a tile in the layout KC selects (`ldk`, `ldo`: the
    /// k-contiguous and outer-contiguous row lengths; compile-time constants once inlined).
    #[inline(always)]
    pub fn tile_index<const KC: bool>(ldk: usize, ldo: usize, o: usize, q: usize) -> usize {
        if KC { o * ldk + q } else { q * ldo + o }
    }

    /// One operand: element (o, q) of op(X) at `ptr[o·os + q·ks]`.
    #[derive(Clone, Copy)]
    struct TcOperand<E: Copy> {
        ptr: *const E,
        os: usize,
        ks: usize,
        outer: usize,
        k: usize,
        /// 16-byte `cp.async` allowed: stride 1 along the layout's contiguous direction, the other
        /// stride a multiple of 16 bytes, base 16-byte aligned.
        vec: bool,
        /// Otherwise, for 2-byte elements: the base and the other stride are 8-byte aligned with
        /// stride 1 along the contiguous direction (two 8-byte `cp.async`s per chunk).
        /// 4-byte copies ran slower than the element loads (bf16 nt 145×690×202 on the 64×64
        /// tile: 16.8 µs against 12.3; tn 818×84×199 15.3 against 14.0), 8-byte ones faster
        /// (nt 18×6130×5316 77 against 96, 33×1692×6780 37.5 against 45; H200,
        /// docs/runs/2026-11-27-s26/g3).
        copy8: bool,
    }

    impl<E: Copy> TcOperand<E> {
        const V: usize = 16 / core::mem::size_of::<E>();

        #[inline(always)]
        fn new<const KC: bool>(ptr: *const E, os: u64, ks: u64, outer: u64, k: u64) -> Self {
            let size = core::mem::size_of::<E>() as u64;
            let (unit, other) = if KC { (ks, os) } else { (os, ks) };
            // Bytes a copy may move: the base and the other stride's step aligned to them.
            let fits = |bytes: u64| unit == 1 && ptr as u64 % bytes == 0 && (other * size) % bytes == 0;
            let vec = fits(16);
            let copy8 = !vec && size == 2 && fits(8);
            TcOperand { ptr, os: os as usize, ks: ks as usize, outer: outer as usize, k: k as usize, vec, copy8 }
        }

        /// Starts copying the `tile_outer`×BK tile at (o0, k0) into `s` (layout KC), `threads`
        /// threads sharing the work: 16-byte `cp.async` with zero fill past the matrix, or,
        /// without `vec`, 4-byte `cp.async` of single elements for 4-byte elements
        /// ([`Self::issue_elements`]) and guarded element loads stored directly for 2-byte ones.
        ///
        /// # Safety
        /// `s` is a stage region of shared memory holding the tile; strides describe the buffer.
        #[allow(clippy::too_many_arguments)]
        #[inline(always)]
        unsafe fn issue<const KC: bool>(
            &self,
            (tile_outer, threads): (usize, usize),
            ldk: usize,
            bk: usize,
            s: *mut E,
            o0: usize,
            k0: usize,
            tid: usize,
            zero: E,
        ) {
            let v = Self::V;
            let ldo = tc_ldo(tile_outer);
            if !self.vec && core::mem::size_of::<E>() == 4 {
                // SAFETY: forwarded.
                unsafe { self.issue_elements::<KC>((tile_outer, threads), ldk, ldo, bk, s, (o0, k0), tid) };
                return;
            }
            let chunks = tile_outer * bk / v / threads;
            let mut j = 0;
            while j < chunks {
                let idx = tid + j * threads;
                let (o, q) = if KC { (idx / (bk / v), (idx % (bk / v)) * v) } else { ((idx % (tile_outer / v)) * v, idx / (tile_outer / v)) };
                // SAFETY: (o, q) is inside the tile, so the destination is inside the region.
                let dst = unsafe { s.add(tile_index::<KC>(ldk, ldo, o, q)) };
                let (go, gq) = (o0 + o, k0 + q);
                if self.vec || self.copy8 {
                    // Elements of this chunk inside the matrix (0..=V), along the contiguous direction.
                    let avail = if KC {
                        if go < self.outer && gq < self.k { (self.k - gq).min(v) } else { 0 }
                    } else if gq < self.k && go < self.outer {
                        (self.outer - go).min(v)
                    } else {
                        0
                    };
                    let size = core::mem::size_of::<E>();
                    // SAFETY: with avail > 0 the source is inside the matrix and aligned to the
                    // copy; with avail = 0 nothing is read (zero fill) from the valid base pointer.
                    let src = if avail > 0 { unsafe { self.ptr.add(go * self.os + gq * self.ks) } } else { self.ptr };
                    if self.vec {
                        unsafe { cp_async_16(dst as *mut u8, src as *const u8, (avail * size) as u32) };
                    } else {
                        // 2-byte elements in rows 8-byte aligned: the chunk as two 8-byte
                        // `cp.async`s, so the stage stays in flight as a 16-byte one does (the
                        // element loads below wait for each load before its store). The second
                        // half reads from src + 4 elements only where it holds some.
                        let (lo, hi) = (avail.min(4), avail.saturating_sub(4));
                        let src_hi = if hi > 0 { unsafe { src.add(4) } } else { self.ptr };
                        unsafe {
                            cp_async_8(dst as *mut u8, src as *const u8, (lo * size) as u32);
                            cp_async_8((dst as *mut u8).add(4 * size), src_hi as *const u8, (hi * size) as u32);
                        }
                    }
                } else {
                    // 2-byte elements in rows only 2-byte aligned (`cp.async` copies 4 bytes at
                    // least): the chunk's V loads, then its stores. One element per thread and copy, as the 4-byte path,
                    // ran BF16 1.34-1.38 times slower (H100, docs/runs/2026-11-25-h100-s20/d3).
                    for i in 0..v {
                        let (eo, eq) = if KC { (go, gq + i) } else { (go + i, gq) };
                        let x = if eo < self.outer && eq < self.k {
                            // SAFETY: inside the matrix.
                            unsafe { *self.ptr.add(eo * self.os + eq * self.ks) }
                        } else {
                            zero
                        };
                        let (to, tq) = if KC { (o, q + i) } else { (o + i, q) };
                        // SAFETY: inside the tile.
                        unsafe { *s.add(tile_index::<KC>(ldk, ldo, to, tq)) = x };
                    }
                }
                j += 1;
            }
        }

        /// [`Self::issue`] without `vec`, for 4-byte elements: a 4-byte `cp.async` per element,
        /// element e = j·threads + tid of the tile in its contiguous direction first, so a
        /// warp's copies are contiguous where the matrix is, and the stage stays in flight like
        /// a vector one. A thread's former V consecutive elements, loaded one after the other,
        /// left the stage's loads in flight only as long as their stores (TF32 tt 2447×204×3873:
        /// 190 µs on the 128×128 tile, 73 on the staged `wgmma` one; H100,
        /// docs/runs/2026-11-25-h100-s20/d2).
        ///
        /// # Safety
        /// As [`Self::issue`].
        #[allow(clippy::too_many_arguments)]
        #[inline(always)]
        unsafe fn issue_elements<const KC: bool>(
            &self,
            (tile_outer, threads): (usize, usize),
            ldk: usize,
            ldo: usize,
            bk: usize,
            s: *mut E,
            (o0, k0): (usize, usize),
            tid: usize,
        ) {
            // Opaque, so the loop stays a loop: unrolled, its per-element offsets were hoisted
            // out of the main loop and spilled (the 128×128 TF32 tile: 628 bytes, sm_90a).
            let per_thread = crate::matmul::opaque(tile_outer * bk / threads);
            let mut j = 0;
            while j < per_thread {
                let e = j * threads + tid;
                let (o, q) = if KC { (e / bk, e % bk) } else { (e % tile_outer, e / tile_outer) };
                let (go, gq) = (o0 + o, k0 + q);
                let inside = go < self.outer && gq < self.k;
                // SAFETY: (o, q) is inside the tile, so the destination is inside the region.
                let dst = unsafe { s.add(tile_index::<KC>(ldk, ldo, o, q)) };
                // SAFETY: inside the matrix when `inside` (4-byte elements are 4-byte aligned);
                // else nothing is read (zero fill) from the valid base pointer.
                let src = if inside { unsafe { self.ptr.add(go * self.os + gq * self.ks) } } else { self.ptr };
                unsafe { cp_async_4(dst as *mut f32, src as *const f32, if inside { 4 } else { 0 }) };
                j += 1;
            }
        }
    }

    /// Dispatches on the operands' orientations (k-contiguous or not) to a specialized body for
    /// the block tile (MT, WN) of [`TcTile`].
    ///
    /// # Safety
    /// As the tensor-core kernels: the pointers cover what the strides address, C is disjoint, and
    /// the launch has the tile's threads, grid (⌈n/BN⌉, ⌈m/BM⌉, splits), the kind's shared
    /// bytes ([`tc_shared_bytes`]) and, with split-K, the counters and workspace of `p`.
    #[inline(always)]
    pub unsafe fn tc_gemm<K: TcKind, const MT: usize, const WN: usize>(a: *const K::E, b: *const K::E, c: *mut f32, bias: *const f32, p: &GemmParams) {
        // An operand is taken as k-contiguous when its k stride is 1; anything else is laid out
        // outer-contiguous (correct for any strides; 16-byte copies only when the outer stride is 1).
        // SAFETY (all four): forwarded.
        unsafe {
            match (p.a_col_stride == 1, p.b_row_stride == 1) {
                (true, true) => tc_body::<K, true, true, MT, WN>(a, b, c, bias, p),
                (true, false) => tc_body::<K, true, false, MT, WN>(a, b, c, bias, p),
                (false, true) => tc_body::<K, false, true, MT, WN>(a, b, c, bias, p),
                (false, false) => tc_body::<K, false, false, MT, WN>(a, b, c, bias, p),
            }
        }
    }

    #[inline(always)]
    unsafe fn tc_body<K: TcKind, const AKC: bool, const BKC: bool, const MT: usize, const WN: usize>(
        a: *const K::E,
        b: *const K::E,
        c: *mut f32,
        bias: *const f32,
        p: &GemmParams,
    ) {
        const { assert!(MT >= 1 && MT <= 4 && WN >= 1 && WN <= 4) };
        let tile = TcTile { mt: MT, wn: WN };
        let (bm, bn, threads) = (tile.bm(), tile.bn(), tile.threads() as usize);
        let (lda, ldb) = (tc_ldo(bm), tc_ldo(bn));
        let tid = thread::thread_idx_x() as usize;
        let (bx, by) = (thread::block_idx_x() as usize, thread::block_idx_y() as usize);
        let (m0, n0) = (by * bm, bx * bn);
        let opa = TcOperand::<K::E>::new::<AKC>(a, p.a_row_stride, p.a_col_stride, p.m, p.k);
        let opb = TcOperand::<K::E>::new::<BKC>(b, p.b_col_stride, p.b_row_stride, p.n, p.k);
        let (warp, lane) = (tid / 32, tid % 32);
        let (wm, wn) = ((warp % 2) * 16 * MT, (warp / 2) * 32);
        let (region_a, region_b) = (tc_region(bm, K::LDK, K::BK), tc_region(bn, K::LDK, K::BK));
        let stage = region_a + region_b;
        let smem = crate::shared::dynamic_shared::<K::E>();
        let z = split_index(p);
        let (first, end) = split_range(p, z, (p.k as usize).div_ceil(K::BK));
        // acc[mt][4·nt + r]: register r of the accumulator of mma tile (mt, nt).
        let mut acc = [[0.0f32; 16]; MT];

        // SAFETY (whole body): every shared access stays inside STAGES·stage elements, which the
        // launch provides; global reads are bounds-checked (zero fill outside the matrix).
        let issue = |kt: usize| unsafe {
            let s = smem.add(((kt - first) % K::STAGES) * stage);
            opa.issue::<AKC>((bm, threads), K::LDK, K::BK, s, m0, kt * K::BK, tid, K::ZERO);
            opb.issue::<BKC>((bn, threads), K::LDK, K::BK, s.add(region_a), n0, kt * K::BK, tid, K::ZERO);
        };
        // Prologue: the first STAGES − 1 slices in flight (empty groups past the end keep the
        // group count in step with the waits below). A loop, not unrolled: one copy of the
        // copy code (see `opaque`).
        let prologue = crate::matmul::opaque(K::STAGES - 1);
        let mut s0 = 0;
        while s0 < prologue {
            if first + s0 < end {
                issue(first + s0);
            }
            cp_async_commit();
            s0 += 1;
        }
        for kt in first..end {
            // Slice kt has landed (for this thread), then for every thread; and every thread is done
            // with slice kt − 1, whose stage the next issue overwrites.
            cp_async_wait_stages::<K>();
            thread::sync_threads();
            let next = kt + K::STAGES - 1;
            if next < end {
                issue(next);
            }
            cp_async_commit();
            let sa = unsafe { smem.add(((kt - first) % K::STAGES) * stage) } as *const K::E;
            let sb = unsafe { sa.add(region_a) };
            // Unrolled, so the compiler can load the next step's fragments during this step's mmas.
            unroll!(step in [0, 1, 2, 3, 4, 5, 6, 7] {
                if step * K::KSTEP < K::BK {
                    let ks = step * K::KSTEP;
                    let mut af = [[0u32; 4]; MT];
                    let mut bf = [[0u32; 4]; 2];
                    unroll!(mt in [0, 1, 2, 3] {
                        if mt < MT {
                            // SAFETY: rows wm + mt·16 + 0..16 < BM, k ks..ks + KSTEP ≤ BK.
                            af[mt] = unsafe { K::frag_a::<AKC>(sa, lda, wm + mt * 16, ks, lane) };
                        }
                    });
                    unroll!(np in [0, 1] {
                        // SAFETY: columns wn + np·16 + 0..16 < BN.
                        bf[np] = unsafe { K::frag_b2::<BKC>(sb, ldb, wn + np * 16, ks, lane) };
                    });
                    unroll!(mt in [0, 1, 2, 3] {
                        if mt < MT {
                            unroll!(nt in [0, 1, 2, 3] {
                                let b = [bf[nt / 2][2 * (nt % 2)], bf[nt / 2][2 * (nt % 2) + 1]];
                                let mut d = [acc[mt][4 * nt], acc[mt][4 * nt + 1], acc[mt][4 * nt + 2], acc[mt][4 * nt + 3]];
                                K::mma(&mut d, af[mt], b);
                                acc[mt][4 * nt] = d[0];
                                acc[mt][4 * nt + 1] = d[1];
                                acc[mt][4 * nt + 2] = d[2];
                                acc[mt][4 * nt + 3] = d[3];
                            });
                        }
                    });
                }
            });
        }
        // No copy in flight, and every warp done with the stages: they become C's tile.
        cp_async_wait::<0>();
        thread::sync_threads();
        let tile = smem as *mut f32;
        let ld = tile_ld(bn);
        let (g, t) = (lane / 4, lane % 4);
        unroll!(mt in [0, 1, 2, 3] {
            if mt < MT {
                unroll!(nt in [0, 1, 2, 3] {
                    unroll!(r in [0, 1, 2, 3] {
                        let row = wm + mt * 16 + g + 8 * (r / 2);
                        let col = wn + nt * 8 + 2 * t + r % 2;
                        // SAFETY: (row, col) is inside the bm×bn tile, which fits the launch's
                        // shared memory (`tc_shared_bytes`).
                        unsafe { *tile.add(row * ld + col) = acc[mt][4 * nt + r] };
                    });
                });
            }
        });
        thread::sync_threads();
        let tile_id = by * thread::grid_dim_x() as usize + bx;
        // SAFETY: every thread calls it with the whole tile written; C, the bias and the split-K
        // buffers are the caller's contract.
        // Quads in flight in the split sum: 8 (one split at a time) on the 64×64 tiles (the BF16
        // one runs three blocks per multiprocessor at 170 registers: two splits at a time
        // spilled), 32 on the larger ones.
        let inflight = if bm * bn <= 64 * 64 { 8 } else { 32 };
        unsafe { store_tile(c, bias, p, tile, (bm, bn), (m0, n0), (tile_id, z), (tid, threads), inflight) };
    }

    /// `cp_async_wait::<STAGES − 2>()` for the kind's stage count.
    #[inline(always)]
    fn cp_async_wait_stages<K: TcKind>() {
        match K::STAGES {
            2 => cp_async_wait::<0>(),
            3 => cp_async_wait::<1>(),
            4 => cp_async_wait::<2>(),
            _ => cp_async_wait::<3>(),
        }
    }
}

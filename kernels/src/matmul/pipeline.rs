//! The tensor-core kernels' shared machinery: a multi-stage `cp.async` pipeline that copies
//! 128×32 slices of op(A) and op(B) into shared memory in the orientation they have in global
//! memory (so every copy is a straight 16-byte `cp.async`, for any transpose), and a warp-tiled
//! mma loop that reads fragments from either orientation. The element kind (TF32 from f32, or
//! BF16) supplies the fragment loads and the `mma` instruction.
//!
//! Shared layout of one operand in one stage: k-contiguous operands as `S[o][q]` (rows of
//! `LDK` elements), outer-contiguous ones as `S[q][o]` (rows of [`TC_LDO`] elements); both
//! paddings make a warp's fragment loads hit 32 different banks.

#[cfg(target_arch = "nvptx64")]
pub use device::*;

/// Rows of C per block.
pub const TC_BM: usize = 128;
/// Columns of C per block.
pub const TC_BN: usize = 128;
/// k per pipeline stage of the first tensor-core rung (the deeper ones set their own).
pub const TC_BK: usize = 32;
/// Threads per block (8 warps: 2 along m × 4 along n, each 64×32 of C).
pub const TC_THREADS: u32 = 256;
/// Row length of an outer-contiguous tile (`S[q][o]`): 128 + 8.
pub const TC_LDO: usize = TC_BM + 8;

/// Elements of one operand's tile region in one stage, for `bk` k per stage and a k-contiguous
/// row length `ldk`.
pub const fn tc_region(ldk: usize, bk: usize) -> usize {
    let kc = TC_BM * ldk;
    let oc = bk * TC_LDO;
    if kc > oc { kc } else { oc }
}

/// Device side: the pipeline and the mma loop.
#[cfg(target_arch = "nvptx64")]
mod device {
    use super::*;
    use crate::matmul::GemmParams;
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
        /// A fragment of the 16×KSTEP tile of op(A) at rows r0.., k c0.. (see `common::mma_*`).
        ///
        /// # Safety
        /// `s` is a stage's A region; the tile lies inside it.
        unsafe fn frag_a<const KC: bool>(s: *const Self::E, r0: usize, c0: usize, lane: usize) -> [u32; 4];
        /// A fragment of the KSTEP×8 tile of op(B) at columns n0.., k c0...
        ///
        /// # Safety
        /// As `frag_a`.
        unsafe fn frag_b<const KC: bool>(s: *const Self::E, n0: usize, c0: usize, lane: usize) -> [u32; 2];
        /// The fragments of the two KSTEP×8 tiles at columns n0.. and n0 + 8.. (b of the first,
        /// then of the second).
        ///
        /// # Safety
        /// As `frag_a`.
        #[inline(always)]
        unsafe fn frag_b2<const KC: bool>(s: *const Self::E, n0: usize, c0: usize, lane: usize) -> [u32; 4] {
            // SAFETY: forwarded.
            let (x, y) = unsafe { (Self::frag_b::<KC>(s, n0, c0, lane), Self::frag_b::<KC>(s, n0 + 8, c0, lane)) };
            [x[0], x[1], y[0], y[1]]
        }
        fn mma(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]);
    }

    /// Index of element (o, q) of a tile in the layout KC selects (`ldk`: the k-contiguous row
    /// length; a compile-time constant once inlined).
    #[inline(always)]
    pub fn tile_index<const KC: bool>(ldk: usize, o: usize, q: usize) -> usize {
        if KC { o * ldk + q } else { q * TC_LDO + o }
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
    }

    impl<E: Copy> TcOperand<E> {
        const V: usize = 16 / core::mem::size_of::<E>();

        #[inline(always)]
        fn new<const KC: bool>(ptr: *const E, os: u64, ks: u64, outer: u64, k: u64) -> Self {
            let v = Self::V as u64;
            let aligned = ptr as usize % 16 == 0;
            let vec = aligned && if KC { ks == 1 && os % v == 0 } else { os == 1 && ks % v == 0 };
            TcOperand { ptr, os: os as usize, ks: ks as usize, outer: outer as usize, k: k as usize, vec }
        }

        /// Starts copying the OUTER×BK tile at (o0, k0) into `s` (layout KC): 16-byte `cp.async`
        /// with zero fill past the matrix, or, without `vec`, guarded element loads stored directly.
        ///
        /// # Safety
        /// `s` is a stage region of shared memory holding the tile; strides describe the buffer.
        #[inline(always)]
        unsafe fn issue<const KC: bool>(&self, ldk: usize, bk: usize, s: *mut E, o0: usize, k0: usize, tid: usize, zero: E) {
            const NT: usize = TC_THREADS as usize;
            let v = Self::V;
            let chunks = TC_BM * bk / v / NT;
            let mut j = 0;
            while j < chunks {
                let idx = tid + j * NT;
                let (o, q) = if KC { (idx / (bk / v), (idx % (bk / v)) * v) } else { ((idx % (TC_BM / v)) * v, idx / (TC_BM / v)) };
                // SAFETY: (o, q) is inside the tile, so the destination is inside the region.
                let dst = unsafe { s.add(tile_index::<KC>(ldk, o, q)) };
                let (go, gq) = (o0 + o, k0 + q);
                if self.vec {
                    // Elements of this chunk inside the matrix (0..=V), along the contiguous direction.
                    let avail = if KC {
                        if go < self.outer && gq < self.k { (self.k - gq).min(v) } else { 0 }
                    } else if gq < self.k && go < self.outer {
                        (self.outer - go).min(v)
                    } else {
                        0
                    };
                    // SAFETY: with avail > 0 the source is inside the matrix and 16-byte aligned;
                    // with avail = 0 nothing is read (zero fill) from the valid base pointer.
                    let src = if avail > 0 { unsafe { self.ptr.add(go * self.os + gq * self.ks) } } else { self.ptr };
                    unsafe { cp_async_16(dst as *mut u8, src as *const u8, (avail * core::mem::size_of::<E>()) as u32) };
                } else {
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
                        unsafe { *s.add(tile_index::<KC>(ldk, to, tq)) = x };
                    }
                }
                j += 1;
            }
        }
    }

    /// `cp.async.cg.shared.global`: copies `src_bytes` (0..=16) from global to shared memory and
    /// zero-fills the rest of the 16 bytes, asynchronously (complete after [`cp_async_wait`]).
    ///
    /// # Safety
    /// `dst` is 16-byte aligned shared memory; `src` is 16-byte aligned and readable for
    /// `src_bytes`.
    #[inline(always)]
    unsafe fn cp_async_16(dst: *mut u8, src: *const u8, src_bytes: u32) {
        // SAFETY: forwarded from the caller.
        unsafe {
            core::arch::asm!(
                "{{ .reg .u64 sa; cvta.to.shared.u64 sa, {dst}; cp.async.cg.shared.global [sa], [{src}], 16, {n}; }}",
                dst = in(reg64) dst,
                src = in(reg64) src,
                n = in(reg32) src_bytes,
            )
        };
    }

    /// Closes the copies issued so far into one group.
    #[inline(always)]
    fn cp_async_commit() {
        // SAFETY: no operands; orders nothing by itself.
        unsafe { core::arch::asm!("cp.async.commit_group;") };
    }

    /// Waits until at most N of this thread's committed groups are still in flight.
    #[inline(always)]
    fn cp_async_wait<const N: usize>() {
        // SAFETY: no operands; the asm is a compiler memory barrier too (no `nomem`).
        unsafe { core::arch::asm!("cp.async.wait_group {n};", n = const N) };
    }

    /// Dispatches on the operands' orientations (k-contiguous or not) to a specialized body.
    ///
    /// # Safety
    /// As the tensor-core kernels: the pointers cover what the strides address, C is disjoint, and
    /// the launch has `TC_THREADS` threads, grid (⌈n/128⌉, ⌈m/128⌉) and the kind's shared bytes.
    #[inline(always)]
    pub unsafe fn tc_gemm<K: TcKind>(a: *const K::E, b: *const K::E, c: *mut f32, bias: *const f32, p: &GemmParams) {
        // An operand is taken as k-contiguous when its k stride is 1; anything else is laid out
        // outer-contiguous (correct for any strides; 16-byte copies only when the outer stride is 1).
        // SAFETY (all four): forwarded.
        unsafe {
            match (p.a_col_stride == 1, p.b_row_stride == 1) {
                (true, true) => tc_body::<K, true, true>(a, b, c, bias, p),
                (true, false) => tc_body::<K, true, false>(a, b, c, bias, p),
                (false, true) => tc_body::<K, false, true>(a, b, c, bias, p),
                (false, false) => tc_body::<K, false, false>(a, b, c, bias, p),
            }
        }
    }

    #[inline(always)]
    unsafe fn tc_body<K: TcKind, const AKC: bool, const BKC: bool>(a: *const K::E, b: *const K::E, c: *mut f32, bias: *const f32, p: &GemmParams) {
        let tid = thread::thread_idx_x() as usize;
        let m0 = thread::block_idx_y() as usize * TC_BM;
        let n0 = thread::block_idx_x() as usize * TC_BN;
        let opa = TcOperand::<K::E>::new::<AKC>(a, p.a_row_stride, p.a_col_stride, p.m, p.k);
        let opb = TcOperand::<K::E>::new::<BKC>(b, p.b_col_stride, p.b_row_stride, p.n, p.k);
        let (warp, lane) = (tid / 32, tid % 32);
        let (wm, wn) = ((warp % 2) * 64, (warp / 2) * 32);
        let region = tc_region(K::LDK, K::BK);
        let smem = crate::shared::dynamic_shared::<K::E>();
        let tiles = (p.k as usize).div_ceil(K::BK);
        let mut acc = [[[0.0f32; 4]; 4]; 4];

        // SAFETY (whole body): every shared access stays inside STAGES·2·region elements, which the
        // launch provides; global reads are bounds-checked (zero fill outside the matrix).
        let issue = |kt: usize| unsafe {
            let s = smem.add((kt % K::STAGES) * 2 * region);
            opa.issue::<AKC>(K::LDK, K::BK, s, m0, kt * K::BK, tid, K::ZERO);
            opb.issue::<BKC>(K::LDK, K::BK, s.add(region), n0, kt * K::BK, tid, K::ZERO);
        };
        // Prologue: the first STAGES − 1 slices in flight (empty groups past the end keep the
        // group count in step with the waits below).
        let mut s0 = 0;
        while s0 + 1 < K::STAGES {
            if s0 < tiles {
                issue(s0);
            }
            cp_async_commit();
            s0 += 1;
        }
        for kt in 0..tiles {
            // Slice kt has landed (for this thread), then for every thread; and every thread is done
            // with slice kt − 1, whose stage the next issue overwrites.
            cp_async_wait_stages::<K>();
            thread::sync_threads();
            let next = kt + K::STAGES - 1;
            if next < tiles {
                issue(next);
            }
            cp_async_commit();
            let sa = unsafe { smem.add((kt % K::STAGES) * 2 * region) } as *const K::E;
            let sb = unsafe { sa.add(region) };
            // Unrolled, so the compiler can load the next step's fragments during this step's mmas.
            unroll!(step in [0, 1, 2, 3, 4, 5, 6, 7] {
                if step * K::KSTEP < K::BK {
                    let ks = step * K::KSTEP;
                    let mut af = [[0u32; 4]; 4];
                    let mut bf = [[0u32; 4]; 2];
                    unroll!(mt in [0, 1, 2, 3] {
                        // SAFETY: rows wm + mt·16 + 0..16 < BM, k ks..ks + KSTEP ≤ BK.
                        af[mt] = unsafe { K::frag_a::<AKC>(sa, wm + mt * 16, ks, lane) };
                    });
                    unroll!(np in [0, 1] {
                        // SAFETY: columns wn + np·16 + 0..16 < BN.
                        bf[np] = unsafe { K::frag_b2::<BKC>(sb, wn + np * 16, ks, lane) };
                    });
                    unroll!(mt in [0, 1, 2, 3] {
                        unroll!(nt in [0, 1, 2, 3] {
                            let b = [bf[nt / 2][2 * (nt % 2)], bf[nt / 2][2 * (nt % 2) + 1]];
                            K::mma(&mut acc[mt][nt], af[mt], b);
                        });
                    });
                }
            });
        }
        // Leave no copy in flight past the kernel's end.
        cp_async_wait::<0>();
        let (m, n) = (p.m as usize, p.n as usize);
        let (g, t) = (lane / 4, lane % 4);
        unroll!(mt in [0, 1, 2, 3] {
            unroll!(nt in [0, 1, 2, 3] {
                unroll!(r in [0, 1, 2, 3] {
                    let row = m0 + wm + mt * 16 + g + 8 * (r / 2);
                    let col = n0 + wn + nt * 8 + 2 * t + r % 2;
                    if row < m && col < n {
                        // SAFETY: (row, col) is inside C.
                        unsafe { crate::matmul::gemm_epilogue(c, bias, p, row, col, acc[mt][nt][r]) };
                    }
                });
            });
        });
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

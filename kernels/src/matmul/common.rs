//! Device helpers shared by the tiled GEMM kernels: an operand view that reads op(A) or op(B)
//! four elements at a time, tile loaders that stage a block tile through registers into shared
//! memory in either orientation, fused multiply-add, and the tensor-core instructions.

use super::GemmParams;
use crate::vector::F32x4;

/// `a·b + c` with one rounding (`fma.rn.f32`). Plain `a * b + c` is two instructions and two
/// roundings: Rust never contracts it.
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    core::intrinsics::fmaf32(a, b, c)
}

/// An element type the dot-product kernels (`warpdot.rs`, `skinny.rs`) read, widened to f32
/// (exactly).
pub trait DotElem: Copy {
    /// Bytes of four consecutive elements: the vector load's width and alignment.
    const QUAD_BYTES: usize;
    /// # Safety
    /// `p` is valid.
    unsafe fn load(p: *const Self) -> f32;
    /// # Safety
    /// `p` is valid for four elements and `QUAD_BYTES`-aligned.
    unsafe fn load4(p: *const Self) -> [f32; 4];
    /// [`DotElem::load4`] for data read once (the narrow kernels' wide operand): f32 evict-first
    /// (`ld.global.cs`), bf16 a plain load. Measured on an H100
    /// (docs/runs/2026-11-24-h100-s10/e3): f32 16×4096×4096 took 51 µs with `.cs` against 64,
    /// 3×8192×8192 x·Wᵀ 103 against 119, the rest within 3 %; bf16 1×4096×4096 17.5 against 12.6.
    ///
    /// # Safety
    /// As [`DotElem::load4`].
    #[inline(always)]
    unsafe fn load4_streamed(p: *const Self) -> [f32; 4] {
        // SAFETY: forwarded.
        unsafe { Self::load4(p) }
    }
}

impl DotElem for f32 {
    const QUAD_BYTES: usize = 16;
    #[inline(always)]
    unsafe fn load(p: *const f32) -> f32 {
        // SAFETY: forwarded.
        unsafe { *p }
    }
    #[inline(always)]
    unsafe fn load4(p: *const f32) -> [f32; 4] {
        // SAFETY: forwarded.
        unsafe { *(p as *const F32x4) }.0
    }
    #[inline(always)]
    unsafe fn load4_streamed(p: *const f32) -> [f32; 4] {
        let (a, b, c, d): (f32, f32, f32, f32);
        // SAFETY: forwarded (16 aligned bytes).
        unsafe {
            core::arch::asm!(
                "ld.global.cs.v4.f32 {{{a}, {b}, {c}, {d}}}, [{p}];",
                a = out(reg32) a, b = out(reg32) b, c = out(reg32) c, d = out(reg32) d, p = in(reg64) p,
                options(pure, readonly, nostack),
            )
        };
        [a, b, c, d]
    }
}

/// bf16, stored as its bit pattern.
impl DotElem for u16 {
    const QUAD_BYTES: usize = 8;
    #[inline(always)]
    unsafe fn load(p: *const u16) -> f32 {
        // SAFETY: forwarded.
        f32::from_bits(u32::from(unsafe { *p }) << 16)
    }
    #[inline(always)]
    unsafe fn load4(p: *const u16) -> [f32; 4] {
        // SAFETY: forwarded.
        let w = unsafe { *(p as *const u64) };
        // One instruction per element: a low half moves up, a high half is masked in place.
        let (lo, hi) = (w as u32, (w >> 32) as u32);
        [lo << 16, lo & 0xffff_0000, hi << 16, hi & 0xffff_0000].map(f32::from_bits)
    }
}

/// One operand of a GEMM as the tiled kernels see it: element (o, q) of op(X), where o runs
/// along m (for A) or n (for B) and q along k, lives at `ptr[o·os + q·ks]`.
#[derive(Clone, Copy)]
pub struct Operand {
    ptr: *const f32,
    os: usize,
    ks: usize,
    outer: usize,
    k: usize,
    /// Elements consecutive in k are adjacent in memory (`ks == 1`); else consecutive in o are
    /// taken to be (`os == 1`, checked by `vec`).
    pub k_contig: bool,
    /// 16-byte loads are allowed: the contiguous direction has stride 1, the other stride is a
    /// multiple of 4 and the base is 16-byte aligned, so every quad that starts at a multiple of 4
    /// is aligned (and, when o is the contiguous direction, m or n is a multiple of 4, so the
    /// last quad along o ends inside the matrix).
    vec: bool,
}

impl Operand {
    #[inline(always)]
    fn new(ptr: *const f32, os: u64, ks: u64, outer: u64, k: u64) -> Operand {
        let k_contig = ks == 1;
        let aligned = ptr as usize % 16 == 0;
        let vec = aligned && if k_contig { os % 4 == 0 } else { os == 1 && ks % 4 == 0 && outer % 4 == 0 };
        Operand { ptr, os: os as usize, ks: ks as usize, outer: outer as usize, k: k as usize, k_contig, vec }
    }

    /// Forces one-element loads (the ladder's rungs before vectorization).
    #[inline(always)]
    pub fn disable_vec(&mut self) {
        self.vec = false;
    }

    /// op(A): o = row of C (m), q = k.
    #[inline(always)]
    pub fn a(ptr: *const f32, p: &GemmParams) -> Operand {
        Operand::new(ptr, p.a_row_stride, p.a_col_stride, p.m, p.k)
    }

    /// op(B): o = column of C (n), q = k.
    #[inline(always)]
    pub fn b(ptr: *const f32, p: &GemmParams) -> Operand {
        Operand::new(ptr, p.b_col_stride, p.b_row_stride, p.n, p.k)
    }

    /// Element (o, q), or 0 outside the matrix (zeros add nothing to the dot products, so tiles
    /// that overhang k need no special case).
    ///
    /// # Safety
    /// The strides describe the caller's buffer.
    #[inline(always)]
    pub unsafe fn get(&self, o: usize, q: usize) -> f32 {
        if o < self.outer && q < self.k {
            // SAFETY: inside the matrix.
            unsafe { *self.ptr.add(o * self.os + q * self.ks) }
        } else {
            0.0
        }
    }

    /// Four elements from (o, q) along the contiguous direction (k if `k_contig`, else o): one
    /// 16-byte load when allowed and all four are inside the matrix, else four guarded loads.
    /// `o` (or `q`) must be a multiple of 4 along the contiguous direction for the fast path.
    ///
    /// # Safety
    /// As [`Operand::get`].
    #[inline(always)]
    pub unsafe fn quad(&self, o: usize, q: usize) -> F32x4 {
        if self.k_contig {
            if self.vec && o < self.outer && q + 4 <= self.k {
                // SAFETY: inside row o; 16-byte aligned since os % 4 == 0 and q % 4 == 0.
                return unsafe { *(self.ptr.add(o * self.os + q) as *const F32x4) };
            }
            // SAFETY: guarded loads.
            unsafe { F32x4([self.get(o, q), self.get(o, q + 1), self.get(o, q + 2), self.get(o, q + 3)]) }
        } else {
            if self.vec && q < self.k && o + 4 <= self.outer {
                // SAFETY: inside column q of the stored matrix; aligned as ks % 4 == 0, o % 4 == 0.
                return unsafe { *(self.ptr.add(o + q * self.ks) as *const F32x4) };
            }
            // SAFETY: guarded loads.
            unsafe { F32x4([self.get(o, q), self.get(o + 1, q), self.get(o + 2, q), self.get(o + 3, q)]) }
        }
    }

    /// Where quad `idx` of an OUTER×BK tile starts (tile-relative (o, q)): consecutive quads
    /// run along the contiguous direction, so a warp's loads coalesce.
    #[inline(always)]
    fn quad_pos<const OUTER: usize, const BK: usize>(&self, idx: usize) -> (usize, usize) {
        if self.k_contig { (idx / (BK / 4), (idx % (BK / 4)) * 4) } else { ((idx % (OUTER / 4)) * 4, idx / (OUTER / 4)) }
    }

    /// Loads this thread's Q quads of the OUTER×BK tile at (o0, k0) into registers; NT threads
    /// share the tile (OUTER·BK = 4·Q·NT).
    ///
    /// # Safety
    /// As [`Operand::get`].
    #[inline(always)]
    pub unsafe fn load_tile<const OUTER: usize, const BK: usize, const NT: usize, const Q: usize>(&self, o0: usize, k0: usize, tid: usize) -> [F32x4; Q] {
        let mut r = [F32x4([0.0; 4]); Q];
        let mut j = 0;
        while j < Q {
            let (o, q) = self.quad_pos::<OUTER, BK>(tid + j * NT);
            // SAFETY: forwarded.
            r[j] = unsafe { self.quad(o0 + o, k0 + q) };
            j += 1;
        }
        r
    }

    /// Stores quads from [`Operand::load_tile`] k-major: `s[q·LD + o]` (what the SIMT kernels
    /// read: a row of the tile at fixed k). Quads along o are one 16-byte store.
    ///
    /// # Safety
    /// `s` holds BK·LD floats of shared memory, LD ≥ OUTER, LD % 4 == 0.
    #[inline(always)]
    pub unsafe fn store_kmajor<const OUTER: usize, const BK: usize, const NT: usize, const Q: usize, const LD: usize>(
        &self,
        r: &[F32x4; Q],
        s: *mut f32,
        tid: usize,
    ) {
        let mut j = 0;
        while j < Q {
            let (o, q) = self.quad_pos::<OUTER, BK>(tid + j * NT);
            // SAFETY: o < OUTER, q + 3 < BK: inside the tile.
            unsafe {
                if self.k_contig {
                    let v = r[j].0;
                    *s.add(q * LD + o) = v[0];
                    *s.add((q + 1) * LD + o) = v[1];
                    *s.add((q + 2) * LD + o) = v[2];
                    *s.add((q + 3) * LD + o) = v[3];
                } else {
                    *(s.add(q * LD + o) as *mut F32x4) = r[j];
                }
            }
            j += 1;
        }
    }
}

impl Operand {
    /// Whether 16-byte loads are allowed (see the `vec` field).
    #[inline(always)]
    pub fn vec_ok(&self) -> bool {
        self.vec
    }

    /// Rows along o (m for op(A), n for op(B)).
    #[inline(always)]
    pub fn outer(&self) -> usize {
        self.outer
    }

    /// The base pointer and the strides along o and along k.
    #[inline(always)]
    pub fn raw(&self) -> (*const f32, usize, usize) {
        (self.ptr, self.os, self.ks)
    }

    /// Where this thread's Q quads of the OUTER×BK tile at (o0, 0) start, for the unguarded
    /// path; KC is `k_contig`, fixed at compile time so no layout branch is left. Rows (o) past
    /// the matrix are clamped onto it: a tile that overhangs m or n then reads real data for the
    /// rows it will not store, so edge tiles run the same unguarded loop (only k must stay inside
    /// the matrix: the caller peels a ragged k-slice). With 16-byte loads (VEC) a quad along o is
    /// clamped whole onto the last quad, which starts at a multiple of 4; without them (a stride
    /// or m, n not a multiple of 4, or an unaligned base: [`Operand::load_scalar_quads`]) every
    /// row is clamped onto the last row, and the second array says, for each quad, how many rows
    /// after its first are inside the matrix (along o a quad may straddle its end).
    #[inline(always)]
    pub fn quad_ptrs<const OUTER: usize, const BK: usize, const NT: usize, const Q: usize, const KC: bool, const VEC: bool>(
        &self,
        o0: usize,
        tid: usize,
    ) -> ([*const F32x4; Q], [usize; Q]) {
        let (mut r, mut lims) = ([core::ptr::null(); Q], [0; Q]);
        let last = if KC || !VEC { self.outer - 1 } else { self.outer - 4 };
        let mut j = 0;
        while j < Q {
            let (o, q) = quad_pos_kc::<OUTER, BK, KC>(tid + j * NT);
            let o = if o0 + o > last { last } else { o0 + o };
            // The 16-byte path has a unit stride along its contiguous direction (`vec`).
            let off = if !VEC {
                o * self.os + q * self.ks
            } else if KC {
                o * self.os + q
            } else {
                o + q * self.ks
            };
            r[j] = self.ptr.wrapping_add(off) as *const F32x4;
            lims[j] = last - o;
            j += 1;
        }
        (r, lims)
    }

    /// Loads Q quads from [`Operand::quad_ptrs`] (VEC false), four 4-byte loads each: along k for a
    /// k-contiguous operand; along o otherwise, re-reading a quad's last row inside the matrix
    /// in place of rows past it (values for rows the epilogue never stores).
    ///
    /// # Safety
    /// The pointers and limits come from [`Operand::quad_ptrs`] of this operand, stepped
    /// along k only while the quads' k stays inside the matrix.
    #[inline(always)]
    pub unsafe fn load_scalar_quads<const Q: usize, const KC: bool>(&self, ptrs: &[*const F32x4; Q], lims: &[usize; Q]) -> [F32x4; Q] {
        let mut r = [F32x4([0.0; 4]); Q];
        let mut j = 0;
        while j < Q {
            let p = ptrs[j] as *const f32;
            let lim = lims[j];
            let at = |i: usize| if KC { i } else { (if i < lim { i } else { lim }) * self.os };
            // SAFETY: along k the quad is inside the matrix (forwarded); along o every row read
            // is at most the last one.
            r[j] = unsafe { F32x4([*p, *p.add(at(1)), *p.add(at(2)), *p.add(at(3))]) };
            j += 1;
        }
        r
    }

    /// Floats between one k-slice's quads and the next's.
    #[inline(always)]
    pub fn slice_step<const BK: usize, const KC: bool>(&self) -> usize {
        if KC { BK } else { BK * self.ks }
    }

    /// [`Operand::store_kmajor`] with the layout fixed at compile time.
    ///
    /// # Safety
    /// As [`Operand::store_kmajor`].
    #[inline(always)]
    pub unsafe fn store_kmajor_kc<const OUTER: usize, const BK: usize, const NT: usize, const Q: usize, const LD: usize, const KC: bool>(
        r: &[F32x4; Q],
        s: *mut f32,
        tid: usize,
    ) {
        let mut j = 0;
        while j < Q {
            let (o, q) = quad_pos_kc::<OUTER, BK, KC>(tid + j * NT);
            // SAFETY: o < OUTER, q + 3 < BK: inside the tile.
            unsafe {
                if KC {
                    let v = r[j].0;
                    *s.add(q * LD + o) = v[0];
                    *s.add((q + 1) * LD + o) = v[1];
                    *s.add((q + 2) * LD + o) = v[2];
                    *s.add((q + 3) * LD + o) = v[3];
                } else {
                    *(s.add(q * LD + o) as *mut F32x4) = r[j];
                }
            }
            j += 1;
        }
    }
}

/// [`Operand::quad_pos`] with the layout fixed at compile time.
#[inline(always)]
fn quad_pos_kc<const OUTER: usize, const BK: usize, const KC: bool>(idx: usize) -> (usize, usize) {
    if KC { (idx / (BK / 4), (idx % (BK / 4)) * 4) } else { ((idx % (OUTER / 4)) * 4, idx / (OUTER / 4)) }
}

/// Loads Q quads through pointers from [`Operand::quad_ptrs`], no checks.
///
/// # Safety
/// Every quad is inside its matrix and 16-byte aligned.
#[inline(always)]
pub unsafe fn load_quads<const Q: usize>(ptrs: &[*const F32x4; Q]) -> [F32x4; Q] {
    let mut r = [F32x4([0.0; 4]); Q];
    let mut j = 0;
    while j < Q {
        // SAFETY: forwarded from the caller.
        r[j] = unsafe { *ptrs[j] };
        j += 1;
    }
    r
}

/// f32 → TF32 (round to nearest, ties away: `cvt.rna.tf32.f32`), as the bits the tensor cores
/// take.
#[inline(always)]
pub fn to_tf32(x: f32) -> u32 {
    let y: u32;
    // SAFETY: a register-only conversion.
    // Pure: the compiler may move loads and stores across it (as written, each conversion fenced
    // the split producer's shared loads and stores, docs/runs/2026-11-24-h100-s15/e3).
    unsafe { core::arch::asm!("cvt.rna.tf32.f32 {y}, {x};", y = out(reg32) y, x = in(reg32) x, options(pure, nomem, nostack)) };
    y
}

/// D = A·B + D on one 16×8×8 TF32 tile (`mma.sync.aligned.m16n8k8`), the warp's 32 lanes
/// together. Fragments: lane l holds A(l/4 + 8·(r%2), l%4 + 4·(r/2)) in a[r], B(l%4 + 4r, l/4)
/// in b[r], and D(l/4 + 8·(r/2), 2·(l%4) + r%2) in d[r].
#[inline(always)]
pub fn mma_tf32(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
    // SAFETY: register-only; every lane of the warp executes it (callers keep it warp-uniform).
    unsafe {
        core::arch::asm!(
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {{{d0}, {d1}, {d2}, {d3}}}, {{{a0}, {a1}, {a2}, {a3}}}, {{{b0}, {b1}}}, {{{d0}, {d1}, {d2}, {d3}}};",
            d0 = inout(reg32) d[0], d1 = inout(reg32) d[1], d2 = inout(reg32) d[2], d3 = inout(reg32) d[3],
            a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
            b0 = in(reg32) b[0], b1 = in(reg32) b[1],
        )
    };
}

/// D = A·B + D on one 16×8×16 BF16 tile (`mma.sync.aligned.m16n8k16`), f32 accumulation. Each
/// 32-bit fragment word holds two bf16 adjacent in k (low half first): lane l holds
/// A(l/4 + 8·(r%2), 2·(l%4) + 8·(r/2) + {0,1}) in a[r], B(2·(l%4) + 8r + {0,1}, l/4) in b[r],
/// and D as for [`mma_tf32`].
#[inline(always)]
pub fn mma_bf16(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
    // SAFETY: register-only; every lane of the warp executes it (callers keep it warp-uniform).
    unsafe {
        core::arch::asm!(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {{{d0}, {d1}, {d2}, {d3}}}, {{{a0}, {a1}, {a2}, {a3}}}, {{{b0}, {b1}}}, {{{d0}, {d1}, {d2}, {d3}}};",
            d0 = inout(reg32) d[0], d1 = inout(reg32) d[1], d2 = inout(reg32) d[2], d3 = inout(reg32) d[3],
            a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
            b0 = in(reg32) b[0], b1 = in(reg32) b[1],
        )
    };
}

/// `cp.async.cg.shared.global`: copies `src_bytes` (0..=16) from global to shared memory and
/// zero-fills the rest of the 16 bytes, asynchronously (complete after [`cp_async_wait`]).
///
/// # Safety
/// `dst` is 16-byte aligned shared memory; `src` is 16-byte aligned and readable for
/// `src_bytes`.
#[inline(always)]
pub unsafe fn cp_async_16(dst: *mut u8, src: *const u8, src_bytes: u32) {
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
pub fn cp_async_commit() {
    // SAFETY: no operands; orders nothing by itself.
    unsafe { core::arch::asm!("cp.async.commit_group;") };
}

/// Waits until at most N of this thread's committed groups are still in flight.
#[inline(always)]
pub fn cp_async_wait<const N: usize>() {
    // SAFETY: no operands; the asm is a compiler memory barrier too (no `nomem`).
    unsafe { core::arch::asm!("cp.async.wait_group {n};", n = const N) };
}

/// `cp.async.ca.shared.global` of 8 bytes: copies `src_bytes` (0..=8) and zero-fills the rest,
/// asynchronously like [`cp_async_16`]. For 2-byte operands whose rows are 8-byte but not
/// 16-byte aligned (k a multiple of 4 but not of 8).
///
/// # Safety
/// `dst` is 8-byte aligned shared memory; `src` is 8-byte aligned and readable for `src_bytes`.
#[inline(always)]
pub unsafe fn cp_async_8(dst: *mut u8, src: *const u8, src_bytes: u32) {
    // SAFETY: forwarded from the caller.
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 sa; cvta.to.shared.u64 sa, {dst}; cp.async.ca.shared.global [sa], [{src}], 8, {n}; }}",
            dst = in(reg64) dst,
            src = in(reg64) src,
            n = in(reg32) src_bytes,
        )
    };
}

/// `cp.async.ca.shared.global` of 4 bytes, or a zero when `src_bytes` is 0: one element of a
/// tile whose layout in shared memory is not its layout in global memory (a k-contiguous
/// operand stored k-major), asynchronously like [`cp_async_16`].
///
/// # Safety
/// `dst` is 4-byte aligned shared memory; `src` is 4-byte aligned and readable when
/// `src_bytes` is 4.
#[inline(always)]
pub unsafe fn cp_async_4(dst: *mut f32, src: *const f32, src_bytes: u32) {
    // SAFETY: forwarded from the caller.
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 sa; cvta.to.shared.u64 sa, {dst}; cp.async.ca.shared.global [sa], [{src}], 4, {n}; }}",
            dst = in(reg64) dst,
            src = in(reg64) src,
            n = in(reg32) src_bytes,
        )
    };
}

//! Shared-memory tiling: a 32×32 block stages 32×32 tiles of op(A) and op(B) in shared memory,
//! so each global element is read once per block instead of once per output.

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use {
    super::common::{Operand, fma},
    crate::thread,
};

/// Tile edge (and block edge) of `gemm_smem_f32`.
pub const SMEM_TILE: usize = 32;
/// Dynamic shared memory of `gemm_smem_f32`: one tile of op(A) and one of op(B).
pub const SMEM_TILED_SHARED: u32 = (2 * SMEM_TILE * SMEM_TILE * 4) as u32;

/// An operand element source of the shared-memory tiles: element (o, q) of op(X) as f32, zero
/// outside the matrix.
#[cfg(target_arch = "nvptx64")]
trait TileSource: Copy {
    /// # Safety
    /// The operand covers every element its strides address inside its bounds.
    unsafe fn get(&self, o: usize, q: usize) -> f32;
    /// Whether consecutive k are adjacent in memory (else consecutive m or n are).
    fn k_contig(&self) -> bool;
}

#[cfg(target_arch = "nvptx64")]
impl TileSource for Operand {
    #[inline(always)]
    unsafe fn get(&self, o: usize, q: usize) -> f32 {
        // SAFETY: forwarded.
        unsafe { Operand::get(self, o, q) }
    }
    #[inline(always)]
    fn k_contig(&self) -> bool {
        self.k_contig
    }
}

/// A bf16 operand (element (o, q) at `ptr[o·os + q·ks]`), widened to f32 (exactly).
#[cfg(target_arch = "nvptx64")]
#[derive(Clone, Copy)]
struct Bf16Source {
    ptr: *const u16,
    os: usize,
    ks: usize,
    outer: usize,
    k: usize,
}

#[cfg(target_arch = "nvptx64")]
impl Bf16Source {
    /// op(A) of a GEMM: row o is row o of op(A) (as `Operand::a`).
    #[inline(always)]
    fn a(ptr: *const u16, p: &GemmParams) -> Bf16Source {
        Bf16Source { ptr, os: p.a_row_stride as usize, ks: p.a_col_stride as usize, outer: p.m as usize, k: p.k as usize }
    }

    /// op(B) of a GEMM: row o is column o of op(B) (as `Operand::b`).
    #[inline(always)]
    fn b(ptr: *const u16, p: &GemmParams) -> Bf16Source {
        Bf16Source { ptr, os: p.b_col_stride as usize, ks: p.b_row_stride as usize, outer: p.n as usize, k: p.k as usize }
    }
}

#[cfg(target_arch = "nvptx64")]
impl TileSource for Bf16Source {
    #[inline(always)]
    unsafe fn get(&self, o: usize, q: usize) -> f32 {
        // Widened after the guard (the opaque move keeps LLVM from moving the shift into the
        // guarded branch), not inside it: widened inside, each guarded load was waited for before
        // the next was issued (the short-k kernel's bf16 form stalled on its loads,
        // 50 µs for 4096×4096×10 against 33 for f32 inputs; H100, docs/runs/2026-11-24-h100-s12/e5).
        let bits = if o < self.outer && q < self.k {
            // SAFETY: inside the matrix.
            unsafe { *self.ptr.add(o * self.os + q * self.ks) }
        } else {
            0
        };
        f32::from_bits((super::opaque(usize::from(bits)) as u32) << 16)
    }
    #[inline(always)]
    fn k_contig(&self) -> bool {
        self.ks == 1
    }
}

/// The body of the shared-memory tile kernels (see [`gemm_smem_f32`]).
///
/// # Safety
/// As [`gemm_smem_f32`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn smem_tiles(opa: impl TileSource, opb: impl TileSource, c: *mut f32, bias: *const f32, p: &GemmParams) {
    const T: usize = SMEM_TILE;
    let (tx, ty) = (thread::thread_idx_x() as usize, thread::thread_idx_y() as usize);
    let row = thread::block_idx_y() as usize * T + ty;
    let col = thread::block_idx_x() as usize * T + tx;
    let col0 = thread::block_idx_x() as usize * T;
    let sa = crate::shared::dynamic_shared::<f32>(); // sa[y·T + q] = op(A)(row y, k0 + q)
    // SAFETY: the launch gives 2·T·T floats.
    let sb = unsafe { sa.add(T * T) }; // sb[q·T + x] = op(B)(k0 + q, col x)
    let mut acc = 0.0f32;
    let mut k0 = 0;
    while k0 < p.k as usize {
        // SAFETY: indices < T·T; global reads are bounds-checked (zero outside).
        unsafe {
            *sa.add(ty * T + tx) = opa.get(row, k0 + tx);
            *sb.add(ty * T + tx) = opb.get(col0 + tx, k0 + ty);
        }
        thread::sync_threads();
        for q in 0..T {
            // SAFETY: inside the tiles.
            acc = unsafe { fma(*sa.add(ty * T + q), *sb.add(q * T + tx), acc) };
        }
        thread::sync_threads();
        k0 += T;
    }
    if row < p.m as usize && col < p.n as usize {
        // SAFETY: (row, col) is inside C.
        unsafe { super::gemm_epilogue(c, bias, p, row, col, acc) };
    }
}

/// One output per thread, operands staged through shared memory 32 k at a time.
///
/// # Safety
/// `a`, `b`, `c` (and `bias` if `p.has_bias != 0`, with n entries) cover every element the
/// strides address; `c` is disjoint from the inputs. Launch: block (32, 32), grid
/// (⌈n/32⌉, ⌈m/32⌉), `SMEM_TILED_SHARED` bytes of dynamic shared memory.
///
/// # Thread mapping
/// x → column of C, y → row. Loading, thread (x, y) fetches op(A)(row, k0 + x) and
/// op(B)(k0 + y, col); each warp reads along a row of one tile.
#[kernel]
pub unsafe fn gemm_smem_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { smem_tiles(Operand::a(a, &p), Operand::b(b, &p), c, bias, &p) }
}

/// [`gemm_smem_f32`] with bf16 A and B (widened to f32 exactly; f32 products and sums): the
/// launch-bound BF16 products and those with a short k, which a tensor-core tile's longer start
/// makes slower (`Bf16Kernel::SmemTiled`).
///
/// # Safety
/// As [`gemm_smem_f32`], with bf16 `a` and `b`.
///
/// # Thread mapping
/// As [`gemm_smem_f32`].
#[kernel]
pub unsafe fn gemm_smem_bf16(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { smem_tiles(Bf16Source::a(a, &p), Bf16Source::b(b, &p), c, bias, &p) }
}

/// Longest k of the short-k kernels (`gemm_shortk_f32`): one staged slice.
pub const SHORTK_MAX: usize = 32;
/// Rows of C per block of the short-k kernels (8 warps × 8 rows).
pub const SHORTK_BM: usize = 64;
/// Columns of C per block of the short-k kernels (32 lanes × 4 columns).
pub const SHORTK_BN: usize = 128;
/// Threads per block of the short-k kernels.
pub const SHORTK_THREADS: u32 = 256;
/// Rows of C per block of the small-grid short-k kernels (`gemm_shortk_small_f32`: 8 warps × 2
/// rows).
pub const SHORTK_SMALL_BM: usize = 16;
/// Row pitch of the staged op(A)ᵀ slice (k-rows of `SHORTK_BM` floats, padded so a warp
/// storing along k spreads over 8 banks and each thread's 8 rows stay 16-byte aligned).
const SHORTK_A_PITCH: usize = SHORTK_BM + 4;
/// Row pitch of the staged op(B) slice (k-rows of `SHORTK_BN` floats, padded as above).
const SHORTK_B_PITCH: usize = SHORTK_BN + 4;
/// Dynamic shared memory of the short-k kernels: op(A)ᵀ's k×64 and op(B)'s k×128 slices.
pub const SHORTK_SHARED: u32 = ((SHORTK_MAX * (SHORTK_A_PITCH + SHORTK_B_PITCH)) * 4) as u32;

/// The body of the short-k kernels: the block stages op(A)'s 64 rows (transposed) and op(B)'s
/// 128 columns over all of k (at most 32) once, every element load issued before the first is
/// stored (constant trip counts: the slices are staged 8, 16 or 32 deep, zero past k), and
/// every thread adds up its 8×4 outputs from shared memory and stores them. Per k step a thread
/// reads its 8 rows of op(A) as two 16-byte broadcasts and its 4 columns of op(B) as one 16-byte
/// load for 32 FMAs. The first form (4×4 outputs per thread, one float per load and per store,
/// each staged element loaded and stored in turn) wrote 4096×4096×10 in 51 µs; this one in
/// 28.4, f32 or bf16 inputs (H100, docs/runs/2026-11-24-h100-s12/e2, e9).
///
/// `QUADS`: lane l holds columns 4l..4l+4 and stores them as one 16-byte quad (C's rows and
/// base 16-byte aligned); otherwise columns l, l + 32, l + 64, l + 96, a warp's 32 adjacent
/// floats per store whatever C's row stride (quads per lane fall back to four strided stores
/// each when n is not a multiple of 4: 322×4203×12 took 12.9 µs).
///
/// # Safety
/// As [`gemm_shortk_f32`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn shortk_tiles<const QUADS: bool, const D: usize, const R: usize>(
    opa: impl TileSource,
    opb: impl TileSource,
    c: *mut f32,
    bias: *const f32,
    p: &GemmParams,
) {
    use crate::vector::F32x4;
    // R rows per thread: 8 warps × R rows per block.
    let bm = R * (SHORTK_THREADS as usize / 32);
    const { assert!((R == 8 || R == 2) && SHORTK_BN == 4 * 32) };
    let k = p.k as usize;
    let tid = thread::thread_idx_x() as usize;
    let (lane, warp) = (tid % 32, tid / 32);
    let row0 = thread::block_idx_y() as usize * bm;
    let col0 = thread::block_idx_x() as usize * SHORTK_BN;
    let sa = crate::shared::dynamic_shared::<f32>(); // sa[q·PA + r] = op(A)(row0 + r, q)
    // SAFETY: the launch gives SHORTK_SHARED bytes.
    let sb = unsafe { sa.add(SHORTK_MAX * SHORTK_A_PITCH) }; // sb[q·PB + x] = op(B)(q, col0 + x)
    const T: usize = SHORTK_THREADS as usize;
    // Element i of an (outer × D) slice: along k for a k-contiguous operand, along the outer
    // index otherwise, so a warp's loads are adjacent in memory either way. The slices are
    // staged D ≥ k deep (8, 16 or 32: fewer loads per thread for shorter k), zero past k.
    let split = |i: usize, outer: usize, k_contig: bool| if k_contig { (i / D, i % D) } else { (i % outer, i / outer) };
    const { assert!(D <= SHORTK_MAX && SHORTK_BM * SHORTK_MAX == 8 * T && SHORTK_BN * SHORTK_MAX == 16 * T) };
    // op(A)'s slice may hold fewer elements than the block has threads (16 rows × 8); the test
    // folds away where it holds a multiple of them (64 rows).
    let a_elems = bm * D;
    let (a_loads, b_loads) = (a_elems.div_ceil(T), SHORTK_BN * D / T);
    let mut a_vals = [0f32; 8];
    unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7] {
        if j < a_loads && (a_elems % T == 0 || tid + j * T < a_elems) {
            let (r, q) = split(tid + j * T, bm, opa.k_contig());
            // SAFETY: `get` returns 0 outside the operand.
            a_vals[j] = unsafe { opa.get(row0 + r, q) };
        }
    });
    let mut b_vals = [0f32; 16];
    unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
        if j < b_loads {
            let (x, q) = split(tid + j * T, SHORTK_BN, opb.k_contig());
            // SAFETY: as above.
            b_vals[j] = unsafe { opb.get(col0 + x, q) };
        }
    });
    // SAFETY (both loops): every index is inside its slice.
    unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7] {
        if j < a_loads && (a_elems % T == 0 || tid + j * T < a_elems) {
            let (r, q) = split(tid + j * T, bm, opa.k_contig());
            unsafe { *sa.add(q * SHORTK_A_PITCH + r) = a_vals[j] };
        }
    });
    unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
        if j < b_loads {
            let (x, q) = split(tid + j * T, SHORTK_BN, opb.k_contig());
            unsafe { *sb.add(q * SHORTK_B_PITCH + x) = b_vals[j] };
        }
    });
    thread::sync_threads();
    let r0 = R * warp;
    let mut acc = [[0f32; 4]; R];
    for q in 0..k {
        // SAFETY: inside the staged slices; the quads are 16-byte aligned (pitches and offsets
        // are multiples of 4 floats, the dynamic shared memory 16-byte aligned).
        let (a, b) = unsafe {
            let pa = sa.add(q * SHORTK_A_PITCH + r0);
            let mut a = [0f32; R];
            if R == 8 {
                let (lo, hi) = (*(pa as *const F32x4), *(pa as *const F32x4).add(1));
                unroll!(i in [0, 1, 2, 3] {
                    a[i] = lo.0[i];
                    a[i + 4] = hi.0[i];
                });
            } else {
                unroll!(i in [0, 1] {
                    a[i] = *pa.add(i);
                });
            }
            let b = if QUADS {
                (*(sb.add(q * SHORTK_B_PITCH + 4 * lane) as *const F32x4)).0
            } else {
                let pb = sb.add(q * SHORTK_B_PITCH + lane);
                [*pb, *pb.add(32), *pb.add(64), *pb.add(96)]
            };
            (a, b)
        };
        unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
            if i < R {
                unroll!(j in [0, 1, 2, 3] {
                    acc[i][j] = fma(a[i], b[j], acc[i][j]);
                });
            }
        });
    }
    let act = crate::math::Activation::from_code(p.act);
    let (m, n) = (p.m as usize, p.n as usize);
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
        let row = row0 + r0 + i;
        if i >= R {
            // Past the thread's rows (R = 2).
        } else if QUADS {
            // SAFETY: gemm_epilogue4 bounds-checks the row and columns against C.
            unsafe { super::gemm_epilogue4_with::<false>(c, bias, p, act, row, col0 + 4 * lane, acc[i]) };
        } else {
            unroll!(j in [0, 1, 2, 3] {
                let col = col0 + lane + 32 * j;
                if row < m && col < n {
                    // SAFETY: (row, col) is inside C.
                    unsafe { super::gemm_epilogue(c, bias, p, row, col, acc[i][j]) };
                }
            });
        }
    });
}

/// Whether the short-k kernels store C as 16-byte quads: C's rows, base and bias 16-byte
/// aligned.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn shortk_quads(c: *mut f32, bias: *const f32, p: &GemmParams) -> bool {
    p.ldc % 4 == 0 && c as usize % 16 == 0 && (p.has_bias == 0 || bias as usize % 16 == 0)
}

/// [`shortk_tiles`] with R rows per thread, in the store form C allows and with the staging
/// depth k needs (uniform branches, once per launch). Staged 32 deep whatever k, a thread issued
/// 24 loads before its first product and small launches slowed down (4670×94×6: 4.0 → 5.9 µs,
/// 188×2323×3 3.4 → 5.6; H100, docs/runs/2026-11-24-h100-s12/r1).
///
/// # Safety
/// As [`gemm_shortk_f32`], the grid's rows of blocks covering m with 8·R rows each.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn shortk<const R: usize>(opa: impl TileSource, opb: impl TileSource, c: *mut f32, bias: *const f32, p: &GemmParams) {
    let quads = shortk_quads(c, bias, p);
    // SAFETY: forwarded from the caller (k ≤ SHORTK_MAX, so k ≤ D in every branch).
    unsafe {
        match (quads, p.k) {
            (true, 0..=8) => shortk_tiles::<true, 8, R>(opa, opb, c, bias, p),
            (true, 9..=16) => shortk_tiles::<true, 16, R>(opa, opb, c, bias, p),
            (true, _) => shortk_tiles::<true, SHORTK_MAX, R>(opa, opb, c, bias, p),
            (false, 0..=8) => shortk_tiles::<false, 8, R>(opa, opb, c, bias, p),
            (false, 9..=16) => shortk_tiles::<false, 16, R>(opa, opb, c, bias, p),
            (false, _) => shortk_tiles::<false, SHORTK_MAX, R>(opa, opb, c, bias, p),
        }
    }
}

/// C = act(α·op(A)·op(B) + bias + β·C) for k ≤ `SHORTK_MAX`: a product that is mostly its
/// output (an outer product of thin operands, a layer's dY·W over a narrow output layer), so
/// the kernel is a pass that writes C, a warp's 512 (or 128) adjacent bytes per store, with the
/// operands staged once.
///
/// # Safety
/// `a`, `b`, `c` (and `bias` if `p.has_bias != 0`, with n entries) cover every element the
/// strides address; `c` is disjoint from the inputs; k ≤ `SHORTK_MAX`. Launch: block
/// `SHORTK_THREADS`, grid (⌈n/SHORTK_BN⌉, ⌈m/SHORTK_BM⌉), `SHORTK_SHARED` bytes of dynamic
/// shared memory.
///
/// # Thread mapping
/// Lane l of warp w → rows 64y + 8w + 0..8, columns 128x + 4l + 0..4 (C 16-byte aligned) or
/// 128x + l + 32j (j < 4).
#[kernel]
pub unsafe fn gemm_shortk_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { shortk::<8>(Operand::a(a, &p), Operand::b(b, &p), c, bias, &p) }
}

/// [`gemm_shortk_f32`] on blocks of `SHORTK_SMALL_BM` rows (2 per thread), for grids that
/// 64-row blocks would leave well short of a wave: a separate entry, since one kernel holding
/// both heights ran the 64-row blocks 5–13 % slower (1024×1024×10 4.0 → 4.3 µs; H200,
/// docs/runs/2026-11-27-s26/g5; as separate entries the same as before, `g6`).
///
/// # Safety
/// As [`gemm_shortk_f32`], with grid (⌈n/SHORTK_BN⌉, ⌈m/SHORTK_SMALL_BM⌉).
///
/// # Thread mapping
/// Lane l of warp w → rows 16y + 2w + 0..2, columns as [`gemm_shortk_f32`].
#[kernel]
pub unsafe fn gemm_shortk_small_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { shortk::<2>(Operand::a(a, &p), Operand::b(b, &p), c, bias, &p) }
}

/// [`gemm_shortk_f32`] with bf16 A and B (widened to f32 exactly).
///
/// # Safety
/// As [`gemm_shortk_f32`], with bf16 `a` and `b`.
///
/// # Thread mapping
/// As [`gemm_shortk_f32`].
#[kernel]
pub unsafe fn gemm_shortk_bf16(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { shortk::<8>(Bf16Source::a(a, &p), Bf16Source::b(b, &p), c, bias, &p) }
}

/// [`gemm_shortk_small_f32`] with bf16 A and B.
///
/// # Safety
/// As [`gemm_shortk_small_f32`], with bf16 `a` and `b`.
///
/// # Thread mapping
/// As [`gemm_shortk_small_f32`].
#[kernel]
pub unsafe fn gemm_shortk_small_bf16(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { shortk::<2>(Bf16Source::a(a, &p), Bf16Source::b(b, &p), c, bias, &p) }
}

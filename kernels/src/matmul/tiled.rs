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
impl TileSource for Bf16Source {
    #[inline(always)]
    unsafe fn get(&self, o: usize, q: usize) -> f32 {
        if o < self.outer && q < self.k {
            // SAFETY: inside the matrix.
            f32::from_bits(u32::from(unsafe { *self.ptr.add(o * self.os + q * self.ks) }) << 16)
        } else {
            0.0
        }
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
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    let opa = Bf16Source { ptr: a, os: p.a_row_stride as usize, ks: p.a_col_stride as usize, outer: m, k };
    let opb = Bf16Source { ptr: b, os: p.b_col_stride as usize, ks: p.b_row_stride as usize, outer: n, k };
    // SAFETY: forwarded from the caller.
    unsafe { smem_tiles(opa, opb, c, bias, &p) }
}

/// Longest k of the short-k kernels (`gemm_shortk_f32`): one staged slice.
pub const SHORTK_MAX: usize = 32;
/// Rows of C per block of the short-k kernels (8 warps × 4).
pub const SHORTK_BM: usize = 32;
/// Columns of C per block of the short-k kernels (32 lanes × 4 columns).
pub const SHORTK_BN: usize = 128;
/// Threads per block of the short-k kernels.
pub const SHORTK_THREADS: u32 = 256;
/// Row pitch of the staged op(B) slice (k-rows of `SHORTK_BN` floats, padded so a warp storing
/// along k spreads over 8 banks).
#[cfg(target_arch = "nvptx64")]
const SHORTK_B_PITCH: usize = SHORTK_BN + 4;
/// Dynamic shared memory of the short-k kernels: op(A)'s 32×k rows and op(B)'s k×128 slice.
pub const SHORTK_SHARED: u32 = ((SHORTK_BM * (SHORTK_MAX + 1) + SHORTK_MAX * (SHORTK_BN + 4)) * 4) as u32;

/// The body of the short-k kernels: the block stages op(A)'s 32 rows and op(B)'s 128 columns
/// over all of k (at most 32) once, reading each along its contiguous direction, and every
/// thread adds up its 4×4 outputs from shared memory and stores them.
///
/// # Safety
/// As [`gemm_shortk_f32`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn shortk_tiles(opa: impl TileSource, opb: impl TileSource, c: *mut f32, bias: *const f32, p: &GemmParams) {
    const PA: usize = SHORTK_MAX + 1;
    let k = p.k as usize;
    let tid = thread::thread_idx_x() as usize;
    let (cq, rg) = (tid % 32, tid / 32);
    let row0 = thread::block_idx_y() as usize * SHORTK_BM;
    let col0 = thread::block_idx_x() as usize * SHORTK_BN;
    let sa = crate::shared::dynamic_shared::<f32>(); // sa[r·PA + q] = op(A)(row0 + r, q)
    // SAFETY: the launch gives SHORTK_SHARED bytes.
    let sb = unsafe { sa.add(SHORTK_BM * PA) }; // sb[q·PB + x] = op(B)(q, col0 + x)
    let threads = SHORTK_THREADS as usize;
    // SAFETY (both loops): every index is inside its slice; global reads are bounds-checked.
    let mut i = tid;
    while i < SHORTK_BM * k {
        let (r, q) = if opa.k_contig() { (i / k, i % k) } else { (i % SHORTK_BM, i / SHORTK_BM) };
        unsafe { *sa.add(r * PA + q) = opa.get(row0 + r, q) };
        i += threads;
    }
    let mut i = tid;
    while i < SHORTK_BN * k {
        let (x, q) = if opb.k_contig() { (i / k, i % k) } else { (i % SHORTK_BN, i / SHORTK_BN) };
        unsafe { *sb.add(q * SHORTK_B_PITCH + x) = opb.get(col0 + x, q) };
        i += threads;
    }
    thread::sync_threads();
    // Lane l holds columns l, l + 32, l + 64, l + 96: every store of a warp is 32 adjacent
    // floats, whatever C's row stride (quads per lane fell back to four strided stores each when
    // n was not a multiple of 4: 322×4203×12 took 12.9 µs).
    let mut acc = [[0f32; 4]; 4];
    for q in 0..k {
        // SAFETY: inside the staged slices.
        let (a, b): ([f32; 4], [f32; 4]) =
            unsafe { (core::array::from_fn(|i| *sa.add((4 * rg + i) * PA + q)), core::array::from_fn(|j| *sb.add(q * SHORTK_B_PITCH + cq + 32 * j))) };
        unroll!(i in [0, 1, 2, 3] {
            unroll!(j in [0, 1, 2, 3] {
                acc[i][j] = fma(a[i], b[j], acc[i][j]);
            });
        });
    }
    let (m, n) = (p.m as usize, p.n as usize);
    unroll!(i in [0, 1, 2, 3] {
        unroll!(j in [0, 1, 2, 3] {
            let (row, col) = (row0 + 4 * rg + i, col0 + cq + 32 * j);
            if row < m && col < n {
                // SAFETY: (row, col) is inside C.
                unsafe { super::gemm_epilogue(c, bias, p, row, col, acc[i][j]) };
            }
        });
    });
}

/// C = act(α·op(A)·op(B) + bias + β·C) for k ≤ `SHORTK_MAX`: a product that is mostly its
/// output (an outer product of thin operands, a layer's dY·W over a narrow output layer), so
/// the kernel is a pass that writes C, a warp's 32 adjacent floats per store, with the operands
/// staged once.
///
/// # Safety
/// `a`, `b`, `c` (and `bias` if `p.has_bias != 0`, with n entries) cover every element the
/// strides address; `c` is disjoint from the inputs; k ≤ `SHORTK_MAX`. Launch: block
/// `SHORTK_THREADS`, grid (⌈n/SHORTK_BN⌉, ⌈m/SHORTK_BM⌉), `SHORTK_SHARED` bytes of dynamic
/// shared memory.
///
/// # Thread mapping
/// Lane l of warp w → rows 32y + 4w + 0..4, columns 128x + l + 32j (j < 4).
#[kernel]
pub unsafe fn gemm_shortk_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { shortk_tiles(Operand::a(a, &p), Operand::b(b, &p), c, bias, &p) }
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
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    let opa = Bf16Source { ptr: a, os: p.a_row_stride as usize, ks: p.a_col_stride as usize, outer: m, k };
    let opb = Bf16Source { ptr: b, os: p.b_col_stride as usize, ks: p.b_row_stride as usize, outer: n, k };
    // SAFETY: forwarded from the caller.
    unsafe { shortk_tiles(opa, opb, c, bias, &p) }
}

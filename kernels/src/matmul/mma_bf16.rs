//! BF16 tensor cores: `mma.sync.aligned.m16n8k16` on bf16 inputs with f32 accumulation and the
//! f32 epilogue, on the `cp.async` pipeline of `pipeline.rs` (4 stages of 128×32 slices; 8 warps
//! of 64×32).

use super::GemmParams;
#[cfg(target_arch = "nvptx64")]
use super::common::mma_bf16;
use super::pipeline::{TC_BK, TC_BM, TC_BN, TC_THREADS, TC_TILE_64, tc_shared_bytes};
#[cfg(target_arch = "nvptx64")]
use super::pipeline::{TC_TILE_128, TcKind, tc_gemm};
use crate::kernel;

/// Rows of C per block.
pub const BF16_BM: usize = TC_BM;
/// Columns of C per block.
pub const BF16_BN: usize = TC_BN;
/// k per pipeline stage.
pub const BF16_BK: usize = TC_BK;
/// Threads per block.
pub const BF16_THREADS: u32 = TC_THREADS;
/// Row length of a k-contiguous shared tile: 32 + 8 halves = 20 words (conflict-free fragment
/// loads, 16-byte aligned rows).
pub const BF16_LDK: usize = TC_BK + 8;
/// Pipeline stages.
pub const BF16_STAGES: usize = 4;
/// Dynamic shared memory of `gemm_mma_bf16`.
pub const BF16_SHARED: u32 = tc_shared_bytes(BF16_BM, BF16_BN, BF16_LDK, BF16_BK, BF16_STAGES, 2);

/// k per stage of `gemm_mma_bf16_ldm`.
pub const BF16_LDM_BK: usize = 64;
/// Row length of its k-contiguous tiles: 64 + 8 halves (144 bytes: the 8 rows an `ldmatrix`
/// reads fall in 8 different 16-byte bank groups).
pub const BF16_LDM_LDK: usize = BF16_LDM_BK + 8;
/// Its pipeline stages.
pub const BF16_LDM_STAGES: usize = 4;
/// Dynamic shared memory of `gemm_mma_bf16_ldm` (144 KiB).
pub const BF16_LDM_SHARED: u32 = tc_shared_bytes(BF16_BM, BF16_BN, BF16_LDM_LDK, BF16_LDM_BK, BF16_LDM_STAGES, 2);

/// The BF16 element kind (raw bits).
#[cfg(target_arch = "nvptx64")]
pub struct Bf16;

/// The 32-bit word holding elements (o, q) and (o, q + 1) (q even), low half first.
///
/// # Safety
/// Both elements are inside the tile at `s`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn pair<const KC: bool>(s: *const u16, ldo: usize, o: usize, q: usize) -> u32 {
    // SAFETY: forwarded; with KC the pair is adjacent and 4-byte aligned (row length and q even).
    unsafe { if KC { *(s.add(o * BF16_LDK + q) as *const u32) } else { u32::from(*s.add(q * ldo + o)) | (u32::from(*s.add((q + 1) * ldo + o)) << 16) } }
}

#[cfg(target_arch = "nvptx64")]
impl TcKind for Bf16 {
    type E = u16;
    const BK: usize = BF16_BK;
    const LDK: usize = BF16_LDK;
    const STAGES: usize = BF16_STAGES;
    const KSTEP: usize = 16;
    const ZERO: u16 = 0;

    #[inline(always)]
    unsafe fn frag_a<const KC: bool>(s: *const u16, ldo: usize, r0: usize, c0: usize, lane: usize) -> [u32; 4] {
        let (r, c) = (r0 + lane / 4, c0 + 2 * (lane % 4));
        // SAFETY: the caller keeps the 16×16 tile inside the stage.
        unsafe { [pair::<KC>(s, ldo, r, c), pair::<KC>(s, ldo, r + 8, c), pair::<KC>(s, ldo, r, c + 8), pair::<KC>(s, ldo, r + 8, c + 8)] }
    }

    #[inline(always)]
    unsafe fn frag_b<const KC: bool>(s: *const u16, ldo: usize, n0: usize, c0: usize, lane: usize) -> [u32; 2] {
        let (n, c) = (n0 + lane / 4, c0 + 2 * (lane % 4));
        // SAFETY: the caller keeps the 16×8 tile inside the stage.
        unsafe { [pair::<KC>(s, ldo, n, c), pair::<KC>(s, ldo, n, c + 8)] }
    }

    #[inline(always)]
    fn mma(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
        mma_bf16(d, a, b)
    }
}

/// `ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16`: four 8×8 bf16 matrices, lane l giving
/// the address of row l%8 of matrix l/8; register i receives matrix i as an mma fragment (lane l:
/// row l/4, columns 2·(l%4) + {0, 1}; with TRANS, of the transposed matrix).
///
/// # Safety
/// `row` is 16-byte aligned shared memory holding 8 halves; every lane of the warp executes it.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn ldmatrix_x4<const TRANS: bool>(row: *const u16) -> [u32; 4] {
    let (mut r0, mut r1, mut r2, mut r3): (u32, u32, u32, u32);
    // SAFETY: forwarded from the caller.
    unsafe {
        if TRANS {
            core::arch::asm!(
                "{{ .reg .u64 sa; cvta.to.shared.u64 sa, {p}; ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{{r0}, {r1}, {r2}, {r3}}}, [sa]; }}",
                p = in(reg64) row, r0 = out(reg32) r0, r1 = out(reg32) r1, r2 = out(reg32) r2, r3 = out(reg32) r3,
            );
        } else {
            core::arch::asm!(
                "{{ .reg .u64 sa; cvta.to.shared.u64 sa, {p}; ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{r0}, {r1}, {r2}, {r3}}}, [sa]; }}",
                p = in(reg64) row, r0 = out(reg32) r0, r1 = out(reg32) r1, r2 = out(reg32) r2, r3 = out(reg32) r3,
            );
        }
    }
    [r0, r1, r2, r3]
}

/// BF16 with 64 k per stage and fragments loaded by `ldmatrix` (one instruction per A fragment
/// and per pair of B fragments, `.trans` for outer-contiguous tiles).
#[cfg(target_arch = "nvptx64")]
pub struct Bf16Ldm;

#[cfg(target_arch = "nvptx64")]
impl TcKind for Bf16Ldm {
    type E = u16;
    const BK: usize = BF16_LDM_BK;
    const LDK: usize = BF16_LDM_LDK;
    const STAGES: usize = BF16_LDM_STAGES;
    const KSTEP: usize = 16;
    const ZERO: u16 = 0;

    #[inline(always)]
    unsafe fn frag_a<const KC: bool>(s: *const u16, ldo: usize, r0: usize, c0: usize, lane: usize) -> [u32; 4] {
        let (i, j) = (lane % 8, lane / 8);
        // Matrices: 0 = (rows r0.., k c0..), 1 = (r0 + 8.., c0..), 2 = (r0.., c0 + 8..),
        // 3 = (r0 + 8.., c0 + 8..): a0..a3 of the mma.
        // SAFETY: the caller keeps the 16×16 tile inside the stage; rows are 16-byte aligned
        // (row lengths of 144 and 272 bytes, c0 and r0 multiples of 8).
        unsafe {
            if KC {
                ldmatrix_x4::<false>(s.add((r0 + i + 8 * (j % 2)) * BF16_LDM_LDK + c0 + 8 * (j / 2)))
            } else {
                // Stored S[k][m]: matrix j's row i is k = c0 + i (+8 for j ≥ 2), m from r0 (+8 for odd j).
                ldmatrix_x4::<true>(s.add((c0 + i + 8 * (j / 2)) * ldo + r0 + 8 * (j % 2)))
            }
        }
    }

    #[inline(always)]
    unsafe fn frag_b<const KC: bool>(s: *const u16, ldo: usize, n0: usize, c0: usize, lane: usize) -> [u32; 2] {
        let n = n0 + lane / 4;
        let c = c0 + 2 * (lane % 4);
        // SAFETY: the caller keeps the tile inside the stage.
        unsafe { [pair_ld::<KC, BF16_LDM_LDK>(s, ldo, n, c), pair_ld::<KC, BF16_LDM_LDK>(s, ldo, n, c + 8)] }
    }

    #[inline(always)]
    unsafe fn frag_b2<const KC: bool>(s: *const u16, ldo: usize, n0: usize, c0: usize, lane: usize) -> [u32; 4] {
        let (i, j) = (lane % 8, lane / 8);
        // Matrices: 0 = b0 of columns n0.. (k c0..), 1 = b1 (k c0 + 8..), 2 = b0 of n0 + 8..,
        // 3 = b1 of n0 + 8...
        // SAFETY: as frag_a.
        unsafe {
            if KC {
                ldmatrix_x4::<false>(s.add((n0 + i + 8 * (j / 2)) * BF16_LDM_LDK + c0 + 8 * (j % 2)))
            } else {
                ldmatrix_x4::<true>(s.add((c0 + i + 8 * (j % 2)) * ldo + n0 + 8 * (j / 2)))
            }
        }
    }

    #[inline(always)]
    fn mma(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
        mma_bf16(d, a, b)
    }
}

/// As [`pair`] for a k-contiguous row length LDK.
///
/// # Safety
/// As [`pair`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn pair_ld<const KC: bool, const LDK: usize>(s: *const u16, ldo: usize, o: usize, q: usize) -> u32 {
    // SAFETY: forwarded.
    unsafe { if KC { *(s.add(o * LDK + q) as *const u32) } else { u32::from(*s.add(q * ldo + o)) | (u32::from(*s.add((q + 1) * ldo + o)) << 16) } }
}

/// `gemm_mma_bf16` with 64 k per stage and `ldmatrix` fragment loads.
///
/// # Safety
/// As `gemm_mma_bf16`, with `BF16_LDM_SHARED` bytes of dynamic shared memory.
///
/// # Thread mapping
/// As `gemm_mma_bf16`.
#[kernel]
pub unsafe fn gemm_mma_bf16_ldm(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tc_gemm::<Bf16Ldm, { TC_TILE_128.mt }, { TC_TILE_128.wn }>(a, b, c, bias, &p) }
}

/// C = act(α·op(A)·op(B) + bias + β·C) with A, B in bf16 (raw bits), C and bias in f32.
///
/// # Safety
/// `a`, `b` (bf16) and `c` (f32), and `bias` if `p.has_bias != 0` (n f32), cover every element
/// the strides address; `c` is disjoint from the inputs. Launch: block `BF16_THREADS`, grid
/// (⌈n/128⌉, ⌈m/128⌉), `BF16_SHARED` bytes of dynamic shared memory.
///
/// # Thread mapping
/// As `gemm_mma_tf32`: warp w → rows (w%2)·64, columns (w/2)·32 of the block's tile, 4×4
/// mma tiles of 16×8; lane l holds rows l/4 and l/4 + 8, columns 2·(l%4) + {0, 1} of each.
#[kernel]
pub unsafe fn gemm_mma_bf16(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tc_gemm::<Bf16, { TC_TILE_128.mt }, { TC_TILE_128.wn }>(a, b, c, bias, &p) }
}

/// Rows (and columns) of C per block of `gemm_mma_bf16_64`.
pub const BF16_64_TILE: usize = TC_TILE_64.bm();
/// Threads per block of `gemm_mma_bf16_64`.
pub const BF16_64_THREADS: u32 = TC_TILE_64.threads();
/// Dynamic shared memory of `gemm_mma_bf16_64` (72 KiB: three blocks per multiprocessor).
pub const BF16_64_SHARED: u32 = tc_shared_bytes(BF16_64_TILE, BF16_64_TILE, BF16_LDM_LDK, BF16_LDM_BK, BF16_LDM_STAGES, 2);

/// `gemm_mma_bf16_ldm` on 64×64 tiles of 4 warps (32×32 each): four times the blocks, for
/// outputs with few 128×128 tiles, and split-K.
///
/// # Safety
/// As `gemm_mma_bf16`, with block `BF16_64_THREADS`, grid (⌈n/64⌉, ⌈m/64⌉, splits) and
/// `BF16_64_SHARED` bytes of dynamic shared memory.
///
/// # Thread mapping
/// Warp w → rows (w%2)·32, columns (w/2)·32 of the block's tile, as 2×4 mma tiles of 16×8.
#[kernel(max_threads = 128, min_blocks = 3)]
pub unsafe fn gemm_mma_bf16_64(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tc_gemm::<Bf16Ldm, { TC_TILE_64.mt }, { TC_TILE_64.wn }>(a, b, c, bias, &p) }
}

//! TF32 tensor cores: `mma.sync.aligned.m16n8k8` with f32 accumulation, on the `cp.async`
//! pipeline of `pipeline.rs` (3 stages of 128×32 slices; 8 warps of 64×32). f32 values are copied
//! to shared memory as they are and rounded to TF32 (nearest, ties away) when loaded into
//! fragments.

use super::GemmParams;
#[cfg(target_arch = "nvptx64")]
use super::common::{mma_tf32, to_tf32};
use super::pipeline::{TC_BK, TC_BM, TC_BN, TC_THREADS, TC_TILE_64, tc_shared_bytes};
#[cfg(target_arch = "nvptx64")]
use super::pipeline::{TC_TILE_128, TcKind, tc_gemm, tile_index};
use crate::kernel;

/// Rows of C per block.
pub const TF32_BM: usize = TC_BM;
/// Columns of C per block.
pub const TF32_BN: usize = TC_BN;
/// k per pipeline stage.
pub const TF32_BK: usize = TC_BK;
/// Threads per block.
pub const TF32_THREADS: u32 = TC_THREADS;
/// Row length of a k-contiguous shared tile: 32 + 4 floats (a warp's fragment loads then hit
/// 32 different banks).
pub const TF32_LDK: usize = TC_BK + 4;
/// Pipeline stages.
pub const TF32_STAGES: usize = 3;
/// Dynamic shared memory of `gemm_mma_tf32`.
pub const TF32_SHARED: u32 = tc_shared_bytes(TF32_BM, TF32_BN, TF32_LDK, TF32_BK, TF32_STAGES, 4);

/// k per stage of `gemm_mma_tf32_bk64`: twice the slices per barrier.
pub const TF32_BK64_BK: usize = 64;
/// Row length of its k-contiguous tiles: 64 + 4 floats.
pub const TF32_BK64_LDK: usize = TF32_BK64_BK + 4;
/// Its pipeline stages.
pub const TF32_BK64_STAGES: usize = 3;
/// Dynamic shared memory of `gemm_mma_tf32_bk64` (204 KiB: needs the opt-in limit of
/// compute capability 8.0/9.0).
pub const TF32_BK64_SHARED: u32 = tc_shared_bytes(TF32_BM, TF32_BN, TF32_BK64_LDK, TF32_BK64_BK, TF32_BK64_STAGES, 4);

/// The TF32 element kind: f32 in shared memory, rounded at fragment load.
#[cfg(target_arch = "nvptx64")]
pub struct Tf32;

#[cfg(target_arch = "nvptx64")]
impl TcKind for Tf32 {
    type E = f32;
    const BK: usize = TF32_BK;
    const LDK: usize = TF32_LDK;
    const STAGES: usize = TF32_STAGES;
    const KSTEP: usize = 8;
    const ZERO: f32 = 0.0;

    #[inline(always)]
    unsafe fn frag_a<const KC: bool>(s: *const f32, ldo: usize, r0: usize, c0: usize, lane: usize) -> [u32; 4] {
        let (r, c) = (r0 + lane / 4, c0 + lane % 4);
        // SAFETY: the caller keeps the 16×8 tile inside the stage.
        unsafe { tf32_frag_a::<KC, TF32_LDK>(s, ldo, r, c) }
    }

    #[inline(always)]
    unsafe fn frag_b<const KC: bool>(s: *const f32, ldo: usize, n0: usize, c0: usize, lane: usize) -> [u32; 2] {
        let (n, c) = (n0 + lane / 4, c0 + lane % 4);
        // SAFETY: the caller keeps the 8×8 tile inside the stage.
        unsafe { tf32_frag_b::<KC, TF32_LDK>(s, ldo, n, c) }
    }

    #[inline(always)]
    fn mma(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
        mma_tf32(d, a, b)
    }
}

/// A fragment from rows r, r + 8 and k c, c + 4 (lane-relative), rounded to TF32.
///
/// # Safety
/// Inside the stage's tile.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn tf32_frag_a<const KC: bool, const LDK: usize>(s: *const f32, ldo: usize, r: usize, c: usize) -> [u32; 4] {
    // SAFETY: forwarded.
    let e = |o: usize, q: usize| to_tf32(unsafe { *s.add(tile_index::<KC>(LDK, ldo, o, q)) });
    [e(r, c), e(r + 8, c), e(r, c + 4), e(r + 8, c + 4)]
}

/// B fragment from column n and k c, c + 4, rounded to TF32.
///
/// # Safety
/// Inside the stage's tile.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn tf32_frag_b<const KC: bool, const LDK: usize>(s: *const f32, ldo: usize, n: usize, c: usize) -> [u32; 2] {
    // SAFETY: forwarded.
    let e = |o: usize, q: usize| to_tf32(unsafe { *s.add(tile_index::<KC>(LDK, ldo, o, q)) });
    [e(n, c), e(n, c + 4)]
}

/// [`Tf32`] with 64 k per stage: half the barriers per k.
#[cfg(target_arch = "nvptx64")]
pub struct Tf32Bk64;

#[cfg(target_arch = "nvptx64")]
impl TcKind for Tf32Bk64 {
    type E = f32;
    const BK: usize = TF32_BK64_BK;
    const LDK: usize = TF32_BK64_LDK;
    const STAGES: usize = TF32_BK64_STAGES;
    const KSTEP: usize = 8;
    const ZERO: f32 = 0.0;

    #[inline(always)]
    unsafe fn frag_a<const KC: bool>(s: *const f32, ldo: usize, r0: usize, c0: usize, lane: usize) -> [u32; 4] {
        // SAFETY: the caller keeps the 16×8 tile inside the stage.
        unsafe { tf32_frag_a::<KC, TF32_BK64_LDK>(s, ldo, r0 + lane / 4, c0 + lane % 4) }
    }

    #[inline(always)]
    unsafe fn frag_b<const KC: bool>(s: *const f32, ldo: usize, n0: usize, c0: usize, lane: usize) -> [u32; 2] {
        // SAFETY: the caller keeps the 8×8 tile inside the stage.
        unsafe { tf32_frag_b::<KC, TF32_BK64_LDK>(s, ldo, n0 + lane / 4, c0 + lane % 4) }
    }

    #[inline(always)]
    fn mma(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
        mma_tf32(d, a, b)
    }
}

/// `gemm_mma_tf32` with 64 k per pipeline stage (3 stages).
///
/// # Safety
/// As `gemm_mma_tf32`, with `TF32_BK64_SHARED` bytes of dynamic shared memory.
///
/// # Thread mapping
/// As `gemm_mma_tf32`.
#[kernel]
pub unsafe fn gemm_mma_tf32_bk64(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tc_gemm::<Tf32Bk64, { TC_TILE_128.mt }, { TC_TILE_128.wn }>(a, b, c, bias, &p) }
}

/// C = act(α·op(A)·op(B) + bias + β·C) on TF32 tensor cores (inputs rounded to nearest TF32,
/// products accumulated in f32).
///
/// # Safety
/// `a`, `b`, `c` (and `bias` if `p.has_bias != 0`, with n entries) cover every element the
/// strides address; `c` is disjoint from the inputs. Launch: block `TF32_THREADS`, grid
/// (⌈n/128⌉, ⌈m/128⌉, splits), `TF32_SHARED` bytes of dynamic shared memory; with split-K
/// (`p.splits` > 1) `p.sem` and `p.ws` as `split_reduce` needs them.
///
/// # Thread mapping
/// Block (x, y) → C tile at rows y·128, columns x·128. Warp w → rows (w%2)·64, columns
/// (w/2)·32 of it, as 4×4 tiles of 16×8; lane l holds the mma accumulator fragment (rows
/// l/4 and l/4 + 8, columns 2·(l%4) + {0, 1}) of each. Copying, consecutive threads take
/// consecutive 16-byte chunks along each operand's contiguous direction.
#[kernel]
pub unsafe fn gemm_mma_tf32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tc_gemm::<Tf32, { TC_TILE_128.mt }, { TC_TILE_128.wn }>(a, b, c, bias, &p) }
}

/// Rows (and columns) of C per block of `gemm_mma_tf32_64`.
pub const TF32_64_TILE: usize = TC_TILE_64.bm();
/// Threads per block of `gemm_mma_tf32_64`.
pub const TF32_64_THREADS: u32 = TC_TILE_64.threads();
/// Dynamic shared memory of `gemm_mma_tf32_64` (54 KiB).
pub const TF32_64_SHARED: u32 = tc_shared_bytes(TF32_64_TILE, TF32_64_TILE, TF32_LDK, TF32_BK, TF32_STAGES, 4);

/// `gemm_mma_tf32` on 64×64 tiles of 4 warps (32×32 each): four times the blocks, for outputs
/// with few 128×128 tiles, and split-K.
///
/// # Safety
/// As `gemm_mma_tf32`, with block `TF32_64_THREADS`, grid (⌈n/64⌉, ⌈m/64⌉, splits) and
/// `TF32_64_SHARED` bytes of dynamic shared memory.
///
/// # Thread mapping
/// Warp w → rows (w%2)·32, columns (w/2)·32 of the block's tile, as 2×4 mma tiles of 16×8.
///
/// Two blocks per multiprocessor (255 registers): at four (128 registers) ptxas 13.5 spilled
/// 500 bytes per thread, at three (170) 48.
#[kernel(max_threads = 128, min_blocks = 2)]
pub unsafe fn gemm_mma_tf32_64(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller.
    unsafe { tc_gemm::<Tf32, { TC_TILE_64.mt }, { TC_TILE_64.wn }>(a, b, c, bias, &p) }
}

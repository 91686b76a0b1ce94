//! BF16 tensor cores: `mma.sync.aligned.m16n8k16` on bf16 inputs with f32 accumulation and the
//! f32 epilogue, on the `cp.async` pipeline of `pipeline.rs` (4 stages of 128×32 slices; 8 warps
//! of 64×32).

use super::GemmParams;
#[cfg(target_arch = "nvptx64")]
use super::common::mma_bf16;
use super::pipeline::{TC_BK, TC_BM, TC_BN, TC_THREADS, tc_region};
#[cfg(target_arch = "nvptx64")]
use super::pipeline::{TC_LDO, TcKind, tc_gemm};
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
/// Dynamic shared memory of [`gemm_mma_bf16`].
pub const BF16_SHARED: u32 = (BF16_STAGES * 2 * tc_region(BF16_LDK) * 2) as u32;

/// The BF16 element kind (raw bits).
#[cfg(target_arch = "nvptx64")]
pub struct Bf16;

/// The 32-bit word holding elements (o, q) and (o, q + 1) (q even), low half first.
///
/// # Safety
/// Both elements are inside the tile at `s`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn pair<const KC: bool>(s: *const u16, o: usize, q: usize) -> u32 {
    // SAFETY: forwarded; with KC the pair is adjacent and 4-byte aligned (row length and q even).
    unsafe {
        if KC {
            *(s.add(o * BF16_LDK + q) as *const u32)
        } else {
            u32::from(*s.add(q * TC_LDO + o)) | (u32::from(*s.add((q + 1) * TC_LDO + o)) << 16)
        }
    }
}

#[cfg(target_arch = "nvptx64")]
impl TcKind for Bf16 {
    type E = u16;
    const LDK: usize = BF16_LDK;
    const STAGES: usize = BF16_STAGES;
    const KSTEP: usize = 16;
    const ZERO: u16 = 0;

    #[inline(always)]
    unsafe fn frag_a<const KC: bool>(s: *const u16, r0: usize, c0: usize, lane: usize) -> [u32; 4] {
        let (r, c) = (r0 + lane / 4, c0 + 2 * (lane % 4));
        // SAFETY: the caller keeps the 16×16 tile inside the stage.
        unsafe { [pair::<KC>(s, r, c), pair::<KC>(s, r + 8, c), pair::<KC>(s, r, c + 8), pair::<KC>(s, r + 8, c + 8)] }
    }

    #[inline(always)]
    unsafe fn frag_b<const KC: bool>(s: *const u16, n0: usize, c0: usize, lane: usize) -> [u32; 2] {
        let (n, c) = (n0 + lane / 4, c0 + 2 * (lane % 4));
        // SAFETY: the caller keeps the 16×8 tile inside the stage.
        unsafe { [pair::<KC>(s, n, c), pair::<KC>(s, n, c + 8)] }
    }

    #[inline(always)]
    fn mma(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
        mma_bf16(d, a, b)
    }
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
    unsafe { tc_gemm::<Bf16>(a, b, c, bias, &p) }
}

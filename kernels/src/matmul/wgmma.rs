//! Hopper tensor cores (sm_90a only): `wgmma.mma_async` fed by the tensor memory accelerator.
//!
//! A block of 3 warpgroups computes a 128×256 tile of C. Warpgroup 0 is the producer: one of its
//! threads issues TMA copies of each 64-row-byte k-slice of op(A) and op(B) into a ring of
//! [`WG_STAGES`] shared-memory stages, each guarded by a "full" transaction barrier (the copy
//! engine completes it when the bytes have landed) and an "empty" barrier (the consumers release
//! it). Warpgroups 1 and 2 are consumers: each waits for a stage, issues four `wgmma` on its
//! 64×256 half of the tile straight from shared memory (no register staging, no block-wide
//! barrier), keeps one group in flight, and frees the stage the previous group read.
//!
//! TMA writes tiles with 128-byte swizzling, which is exactly a layout `wgmma` reads conflict
//! free: rows of 128 bytes (64 bf16 or 32 f32 of k for a K-major operand; 64 elements of m or n
//! for an MN-major one), 8-row groups 1024 bytes apart. Boxes that overhang the matrix are
//! zero-filled by the copy engine, so any m, n and k work; the epilogue bounds-checks C.
//!
//! Blocks take tiles in grouped order ([`super::grouped_tile`]): eight tile rows per column step,
//! so the blocks resident together share their operand panels in L2.

use super::GemmParams;
use crate::kernel;

/// Rows of C per block (two consumer warpgroups of 64).
pub const WG_BM: usize = 128;
/// Columns of C per block (one `m64n256` instruction per consumer and k-step).
pub const WG_BN: usize = 256;
/// Threads per block: a producer warpgroup and two consumers.
pub const WG_THREADS: u32 = 384;
/// Pipeline stages.
pub const WG_STAGES: usize = 4;
/// Bytes of a tile row in shared memory: the 128-byte swizzle span.
pub const WG_ROW_BYTES: usize = 128;
/// k per stage for bf16 (64 × 2 bytes = one row).
pub const WG_BK_BF16: usize = 64;
/// k per stage for TF32 (32 × 4 bytes).
pub const WG_BK_TF32: usize = 32;
/// Width (elements) of the TMA box of an MN-major tile: one 128-byte row of bf16.
pub const WG_MN_BOX: usize = 64;
/// Bytes of op(A)'s tile in one stage (128 rows of 128 bytes, in either orientation).
pub const WG_A_BYTES: usize = WG_BM * WG_ROW_BYTES;
/// Bytes of op(B)'s tile in one stage.
pub const WG_B_BYTES: usize = WG_BN * WG_ROW_BYTES;
/// Bytes of one stage.
pub const WG_STAGE_BYTES: usize = WG_A_BYTES + WG_B_BYTES;
/// Dynamic shared memory of the wgmma kernels: the stages, 1024 bytes of slack to align them
/// for the swizzle, and the barriers (193 KiB in all).
pub const WG_SHARED: u32 = (WG_STAGES * WG_STAGE_BYTES + 1024 + 2 * WG_STAGES * 8) as u32;

/// Row length (floats) of the shared tile the epilogue stages C through: 256 + 4 (rows stay
/// 16-byte aligned; the padding spreads a warp's 8-row fragment stores over the banks). Two
/// consumers' 64-row regions (130 KiB) fit in the stages.
pub const WG_LDC: usize = WG_BN + 4;
const _: () = assert!(2 * 64 * WG_LDC * 4 <= WG_STAGES * WG_STAGE_BYTES);

/// A CUDA tensor map (`CUtensorMap`): the opaque 128-byte descriptor the host builds with
/// `cuTensorMapEncodeTiled` and passes by value; the copy engine reads it from the kernel's
/// parameter space, where it must be 64-byte aligned. Rust's PTX calling convention aligns
/// parameters to at most 16 bytes, so the builder raises the alignment of every `TensorMap`
/// parameter in the PTX ([`crate::ParamKind::TensorMap`]).
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorMap(pub [u64; 16]);

#[cfg(all(target_arch = "nvptx64", target_feature = "sm_90a"))]
mod device {
    use super::*;
    use crate::matmul::hopper::*;
    use crate::matmul::gemm_epilogue4;
    use crate::matmul::split::{load_l2_x4, split_count_in, split_index, split_range, split_slot};
    use crate::shared::dynamic_shared;
    use crate::thread::{sync_threads, thread_idx_x};
    use crate::vector::F32x4;

    /// An input type of the wgmma GEMM.
    pub trait WgKind {
        /// k per stage.
        const BK: usize;
        /// k per instruction.
        const KSTEP: usize;
        /// Bytes per element.
        const BYTES: usize;
        /// One 64×256×KSTEP `wgmma` (`TA`/`TB`: MN-major operand).
        ///
        /// # Safety
        /// As `hopper::wgmma_bf16`.
        unsafe fn mma<const TA: bool, const TB: bool>(d: &mut [f32; 128], da: u64, db: u64);
    }

    pub struct Bf16;
    impl WgKind for Bf16 {
        const BK: usize = WG_BK_BF16;
        const KSTEP: usize = 16;
        const BYTES: usize = 2;
        #[inline(always)]
        unsafe fn mma<const TA: bool, const TB: bool>(d: &mut [f32; 128], da: u64, db: u64) {
            // SAFETY: forwarded.
            unsafe { wgmma_bf16::<TA, TB>(d, da, db) }
        }
    }

    pub struct Tf32;
    impl WgKind for Tf32 {
        const BK: usize = WG_BK_TF32;
        const KSTEP: usize = 8;
        const BYTES: usize = 4;
        #[inline(always)]
        unsafe fn mma<const TA: bool, const TB: bool>(d: &mut [f32; 128], da: u64, db: u64) {
            // SAFETY: forwarded (the TF32 kernels are K-major only).
            unsafe { wgmma_tf32(d, da, db) }
        }
    }

    /// `__syncthreads_or` over the two consumer warpgroups (named barrier 4, 256 threads).
    #[inline(always)]
    fn consumers_or(x: bool) -> bool {
        let r: u32;
        // SAFETY: a barrier both consumer warpgroups reach (the producer never uses id 4).
        unsafe {
            core::arch::asm!(
                "{{ .reg .pred q, r; setp.ne.u32 q, {x}, 0; bar.red.or.pred r, 4, 256, q; selp.u32 {r}, 1, 0, r; }}",
                x = in(reg32) u32::from(x), r = out(reg32) r,
            )
        };
        r != 0
    }

    /// The descriptor of one k-step of a tile at `base` (1024-aligned): K-major tiles step
    /// `KSTEP` elements along a row, MN-major ones `KSTEP` rows.
    #[inline(always)]
    fn step_desc<K: WgKind, const MN: bool>(base: u32, kk: usize) -> u64 {
        if MN {
            smem_desc(base + (kk * K::KSTEP * WG_ROW_BYTES) as u32, (WG_MN_BOX * WG_ROW_BYTES) as u32)
        } else {
            smem_desc(base + (kk * K::KSTEP * K::BYTES) as u32, 16)
        }
    }

    /// The whole kernel; `map_a`/`map_b` are the generic addresses of the tensor maps. `TA`: A
    /// is stored k×m (op(A) = Aᵀ, m contiguous); `TB`: B is stored k×n (n contiguous). Otherwise
    /// the operand is stored with k contiguous (A as m×k, B as n×k).
    ///
    /// # Safety
    /// See the kernels.
    #[inline(always)]
    pub unsafe fn wgmma_gemm<K: WgKind, const TA: bool, const TB: bool>(
        map_a: u64,
        map_b: u64,
        c: *mut f32,
        bias: *const f32,
        p: &GemmParams,
    ) {
        let tid = thread_idx_x() as usize;
        let wg = tid / 128;
        let base = (shared_addr(dynamic_shared::<u8>()) + 1023) & !1023;
        let stage = |s: usize| base + (s * WG_STAGE_BYTES) as u32;
        let bars = stage(WG_STAGES);
        let full = |s: usize| bars + 8 * s as u32;
        let empty = |s: usize| bars + 8 * (WG_STAGES + s) as u32;
        if tid == 0 {
            for s in 0..WG_STAGES {
                // SAFETY: the barrier words lie past the stages, inside WG_SHARED.
                unsafe {
                    mbarrier_init(full(s), 1);
                    mbarrier_init(empty(s), 2);
                }
            }
            fence_barrier_init();
        }
        sync_threads();

        let (tile_m, tile_n) = crate::matmul::grouped_tile();
        let (m0, n0) = (tile_m * WG_BM, tile_n * WG_BN);
        // This block's k-slices (split-K: its range; the host makes every range non-empty).
        let z = split_index(p);
        let (first, end) = split_range(p, z, (p.k as usize).div_ceil(K::BK).max(1));
        let ktiles = end - first;

        if wg == 0 {
            if tid == 0 {
                for kt in 0..ktiles {
                    let s = kt % WG_STAGES;
                    let k0 = ((first + kt) * K::BK) as i32;
                    let (a_dst, b_dst) = (stage(s), stage(s) + WG_A_BYTES as u32);
                    // SAFETY: the barriers are initialized; each copy lands inside stage s,
                    // which the consumers have released (the empty barrier), 1024-aligned.
                    unsafe {
                        if kt >= WG_STAGES {
                            mbarrier_wait(empty(s), ((kt / WG_STAGES - 1) & 1) as u32);
                        }
                        mbarrier_arrive_expect_tx(full(s), WG_STAGE_BYTES as u32);
                        if TA {
                            for j in 0..WG_BM / WG_MN_BOX {
                                let dst = a_dst + (j * WG_MN_BOX * WG_ROW_BYTES) as u32;
                                tma_load_2d(dst, map_a, (m0 + j * WG_MN_BOX) as i32, k0, full(s));
                            }
                        } else {
                            tma_load_2d(a_dst, map_a, k0, m0 as i32, full(s));
                        }
                        if TB {
                            for j in 0..WG_BN / WG_MN_BOX {
                                let dst = b_dst + (j * WG_MN_BOX * WG_ROW_BYTES) as u32;
                                tma_load_2d(dst, map_b, (n0 + j * WG_MN_BOX) as i32, k0, full(s));
                            }
                        } else {
                            tma_load_2d(b_dst, map_b, k0, n0 as i32, full(s));
                        }
                    }
                }
            }
            return;
        }

        // Consumer warpgroup cw computes rows 64·cw.. of the tile.
        let cw = wg - 1;
        let mut d = [0f32; 128];
        // At least one slice even for k = 0 (the copy engine then fills it with zeros): a
        // path from the zeroed accumulators to the final wait that skips the loop would make
        // ptxas serialize every wgmma.
        let mut kt = 0;
        loop {
            let s = kt % WG_STAGES;
            // SAFETY: initialized barrier.
            unsafe { mbarrier_wait(full(s), ((kt / WG_STAGES) & 1) as u32) };
            // Rows 64·cw.. of op(A): 64 rows of 128 bytes (K-major) or the cw-th 64-wide column
            // block (MN-major): 8 KiB in either case.
            let a_base = stage(s) + (cw * 64 * WG_ROW_BYTES) as u32;
            let b_base = stage(s) + WG_A_BYTES as u32;
            wgmma_fence();
            for kk in 0..K::BK / K::KSTEP {
                // SAFETY: stage s is full; the whole warpgroup runs this.
                unsafe { K::mma::<TA, TB>(&mut d, step_desc::<K, TA>(a_base, kk), step_desc::<K, TB>(b_base, kk)) };
            }
            wgmma_commit();
            // The group before this one has finished reading its stage: release it.
            wgmma_wait::<1>();
            if kt > 0 && tid % 128 == 0 {
                // SAFETY: initialized barrier.
                unsafe { mbarrier_arrive(empty((kt - 1) % WG_STAGES)) };
            }
            kt += 1;
            if kt >= ktiles {
                break;
            }
        }
        wgmma_wait::<0>();

        // Epilogue through shared memory: each consumer parks its 64×256 accumulators in a
        // padded row-major tile over the (now idle) stages, then walks the tile row by row with
        // 16-byte loads and coalesced 16-byte stores. Applying the epilogue straight from the
        // 128 registers would inline it 128 times (tens of KiB of code, instruction-cache
        // misses) and store 8-byte fragments scattered over 8 rows.
        // Both consumers must be done reading the stages before either overwrites them (every
        // TMA copy has landed: each was waited for).
        named_barrier(1, 256);
        let shared = dynamic_shared::<u8>();
        // SAFETY: `base` lies inside the dynamic shared memory (aligned up from its start).
        let tile = unsafe { shared.add((base - shared_addr(shared)) as usize) } as *mut f32;
        // SAFETY: two 64×WG_LDC regions fit in the stages (see WG_LDC).
        let region = unsafe { tile.add(cw * 64 * WG_LDC) };
        let lane = tid % 32;
        // Accumulator layout (per 8 columns j): d[4j..4j+2] at row r, d[4j+2..4j+4] at row r + 8,
        // columns 8j + 2·(lane%4) + {0, 1}, with r = 16·warp + lane/4 inside the consumer's 64 rows.
        let r0 = 16 * ((tid % 128) / 32) + lane / 4;
        let c0 = 2 * (lane % 4);
        unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] {
            unroll!(h in [0, 1] {
                // SAFETY: inside this consumer's region.
                unsafe {
                    let dst = region.add((r0 + 8 * h) * WG_LDC + c0 + 8 * j);
                    *dst = d[4 * j + 2 * h];
                    *dst.add(1) = d[4 * j + 2 * h + 1];
                }
            });
        });
        named_barrier(2 + cw as u32, 128);
        let lt = tid % 128;
        if p.splits > 1 {
            // Split-K on the staged tile (the accumulator registers are dead by now: touching
            // them on a path only some blocks take makes ptxas serialize every wgmma). Each
            // thread publishes, and in the last block sums, the 32 quads it stores below.
            let tile_id = tile_m * crate::thread::grid_dim_x() as usize + tile_n;
            // SAFETY: with split-K the host gives a counter per tile and a workspace of
            // tiles · splits · (128·256) floats; quads are 16-byte aligned in both.
            unsafe {
                let half = |zz: usize| split_slot(p, tile_id, zz, 2 * 64 * WG_BN).add(cw * 64 * WG_BN) as *mut F32x4;
                let quad = |t: usize| {
                    let idx = lt + 128 * t;
                    region.add((idx / (WG_BN / 4)) * WG_LDC + 4 * (idx % (WG_BN / 4))) as *mut F32x4
                };
                let own = half(z as usize);
                for t in 0..32 {
                    *own.add(lt + 128 * t) = *quad(t);
                }
                if !split_count_in(p, tile_id, tid == 128, consumers_or) {
                    return;
                }
                for zz in 0..p.splits as usize {
                    let part = half(zz) as *const f32;
                    unroll!(t in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] {
                        let v = load_l2_x4(part.add(4 * (lt + 128 * t)));
                        let q = quad(t);
                        *q = if zz == 0 { v } else { (*q).zip(v, |a, b| a + b) };
                    });
                }
            }
        }
        let mut idx = lt;
        while idx < 64 * (WG_BN / 4) {
            let (r, c4) = (idx / (WG_BN / 4), 4 * (idx % (WG_BN / 4)));
            // SAFETY: inside the region; rows of WG_LDC floats keep 16-byte alignment.
            let v = unsafe { *(region.add(r * WG_LDC + c4) as *const F32x4) };
            // SAFETY: gemm_epilogue4 bounds-checks the row and columns against C.
            unsafe { gemm_epilogue4(c, bias, p, m0 + cw * 64 + r, n0 + c4, v.0) };
            idx += 128;
        }
    }
}

/// The generic address of a kernel's by-value tensor-map parameter: its `.param` address
/// converted to generic, as the copy engine wants (taking the address in Rust would copy the
/// parameter to local memory first).
#[cfg(all(target_arch = "nvptx64", target_feature = "sm_90a"))]
macro_rules! param_addr {
    ($kernel:ident, $index:literal) => {{
        let a: u64;
        // SAFETY: address arithmetic on this kernel's own parameter.
        unsafe {
            core::arch::asm!(
                concat!("mov.u64 {a}, ", stringify!($kernel), "_param_", $index, "; cvta.param.u64 {a}, {a};"),
                a = out(reg64) a,
            )
        };
        a
    }};
}

/// Declares one wgmma GEMM entry point.
macro_rules! wgmma_kernel {
    ($(#[$doc:meta])* $name:ident, $kind:ident, $ta:literal, $tb:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `map_a` and `map_b` describe A and B as the host's `TensorMap` builder does for this
        /// layout (128-byte swizzle, boxes of one stage's tile); `c` (f32, m rows of `p.ldc`) and
        /// `bias` (n f32 if `p.has_bias != 0`) are valid and disjoint from A and B. Launch:
        /// block `WG_THREADS`, grid (⌈n/256⌉, ⌈m/128⌉), `WG_SHARED` bytes of dynamic shared
        /// memory; sm_90a only. Blocks take their tiles in `grouped_tile` order. Split-K over
        /// gridDim.z (`p.splits`, with a zeroed counter per tile at `p.sem`; `split.rs`).
        #[kernel(sm_90a, max_threads = 384, min_blocks = 1)]
        pub unsafe fn $name(map_a: TensorMap, map_b: TensorMap, c: *mut f32, bias: *const f32, p: GemmParams) {
            let _ = (map_a, map_b);
            let (a, b) = (param_addr!($name, 0), param_addr!($name, 1));
            // SAFETY: forwarded from the caller.
            unsafe { device::wgmma_gemm::<device::$kind, $ta, $tb>(a, b, c, bias, &p) }
        }
    };
}

wgmma_kernel!(
    /// C = act(α·A·Bᵀ + bias + β·C) with bf16 A (m×k) and B (n×k), both k-contiguous: the dense
    /// layer's x·Wᵀ.
    gemm_wgmma_bf16_kk, Bf16, false, false
);
wgmma_kernel!(
    /// C = act(α·A·B + …) with bf16 A (m×k) and B (k×n), both row-major.
    gemm_wgmma_bf16_kn, Bf16, false, true
);
wgmma_kernel!(
    /// C = act(α·Aᵀ·Bᵀ + …) with bf16 A stored k×m and B stored n×k.
    gemm_wgmma_bf16_mk, Bf16, true, false
);
wgmma_kernel!(
    /// C = act(α·Aᵀ·B + …) with bf16 A stored k×m and B stored k×n (a weight gradient's layout).
    gemm_wgmma_bf16_mn, Bf16, true, true
);
wgmma_kernel!(
    /// C = act(α·A·Bᵀ + …) on TF32 tensor cores: f32 A (m×k) and B (n×k), both k-contiguous
    /// (TF32 `wgmma` reads no other layout), inputs rounded to TF32 by the hardware.
    gemm_wgmma_tf32_kk, Tf32, false, false
);

//! Hopper tensor cores (sm_90a only): `wgmma.mma_async` fed by the tensor memory accelerator.
//!
//! A block computes a [`WgTile`] of C: 128×256 with two consumer warpgroups ([`WG_WIDE`], the
//! large products), or 64×128 with one ([`WG_NARROW`], two blocks per multiprocessor: products
//! with few wide tiles). Warpgroup 0 is the producer: one of its threads issues TMA copies of
//! each 128-row-byte k-slice of op(A) and op(B) into a ring of shared-memory stages, each
//! guarded by a "full" transaction barrier (the copy engine completes it when the bytes have
//! landed) and an "empty" barrier (the consumers release it). The other warpgroups are
//! consumers: each waits for a stage, issues its `wgmma` on its 64×N slab of the tile straight
//! from shared memory (no register staging, no block-wide barrier), keeps one group in flight,
//! and frees the stage the previous group read.
//!
//! TMA writes tiles with 128-byte swizzling, which is exactly a layout `wgmma` reads conflict
//! free: rows of 128 bytes (64 bf16 or 32 f32 of k for a K-major operand; 64 elements of m or n
//! for an MN-major one), 8-row groups 1024 bytes apart. Boxes that overhang the matrix are
//! zero-filled by the copy engine, so any m, n and k work; the epilogue bounds-checks C.
//!
//! Blocks take tiles in grouped order ([`super::grouped_tile`]): eight tile rows per column step,
//! so the blocks resident together share their operand panels in L2.
//!
//! Two TF32 forms change the consumers' loop (`WgKind`): FP32 on TF32 (`Tf32x3`) adds each
//! slice's `wgmma` sum to f32 registers, and `Tf32RegA` reads an MN-major op(A) from the landed
//! tile into the registers `wgmma` takes op(A) from (TF32 reads only K-major tiles from shared
//! memory); with `SWAP` the block computes a tile of Cᵀ = op(B)ᵀ·op(A)ᵀ and stages it
//! transposed, so an MN-major op(B) is read that way too.

use super::GemmParams;
use crate::kernel;

/// The block tile of a `wgmma` kernel: `consumers` warpgroups of 64 rows each, `bn` columns
/// (one `m64n{bn}` instruction per consumer and k-step), a ring of `stages` pipeline stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WgTile {
    pub consumers: usize,
    pub bn: usize,
    pub stages: usize,
}

impl WgTile {
    /// Rows of C per block.
    pub const fn bm(&self) -> usize {
        64 * self.consumers
    }
    /// Threads per block: a producer warpgroup and the consumers.
    pub const fn threads(&self) -> u32 {
        128 * (self.consumers as u32 + 1)
    }
    /// Bytes of op(A)'s tile in one stage (bm rows of 128 bytes, in either orientation).
    pub const fn a_bytes(&self) -> usize {
        self.bm() * WG_ROW_BYTES
    }
    /// Columns of C per block rounded up to whole 64-wide boxes: the rows (K-major) or columns
    /// (MN-major) of op(B) a stage holds room for. An MN-major B lands in 64-wide boxes, so a
    /// 208-wide tile reads four and multiplies the first 208 columns. A tile narrower than a box
    /// ([`WG_SLIM`]) holds `bn` rows of 128 bytes (K-major) or one box `bn` wide (MN-major,
    /// [`mn_box`]): the same bytes.
    pub const fn b_alloc(&self) -> usize {
        if self.bn < WG_MN_BOX { self.bn } else { self.bn.div_ceil(WG_MN_BOX) * WG_MN_BOX }
    }
    /// Bytes of one stage.
    pub const fn stage_bytes(&self) -> usize {
        (self.bm() + self.b_alloc()) * WG_ROW_BYTES
    }
    /// Dynamic shared memory: the stages, 1024 bytes of slack to align them for the swizzle, and
    /// the barriers.
    pub const fn shared(&self) -> u32 {
        self.shared_transposing(false, false)
    }
    /// Bytes of one scratch slot of a TF32 kernel that transposes MN-major operands in shared
    /// memory (`xa`: op(A), `xb`: op(B)): their tiles as the copy engine lands them.
    pub const fn scratch_bytes(&self, xa: bool, xb: bool) -> usize {
        (if xa { self.a_bytes() } else { 0 }) + (if xb { self.bn * WG_ROW_BYTES } else { 0 })
    }
    /// Scratch slots of a kernel that transposes `xa`/`xb`: none if it transposes nothing.
    pub const fn scratch_slots(xa: bool, xb: bool) -> usize {
        if xa || xb { WG_SCRATCH_SLOTS } else { 0 }
    }
    /// [`WgTile::shared`] of a kernel that transposes `xa`/`xb` in shared memory: the stages,
    /// [`WG_SCRATCH_SLOTS`] scratch slots, the alignment slack and the barriers (two per stage
    /// and one per slot).
    pub const fn shared_transposing(&self, xa: bool, xb: bool) -> u32 {
        self.shared_ring(self.stage_bytes(), Self::scratch_slots(xa, xb), self.scratch_bytes(xa, xb))
    }
    /// Dynamic shared memory of an FP32-on-TF32 kernel that splits its operands in shared memory
    /// ([`device::Tf32x3Split`]): stages of twice [`WgTile::stage_bytes`] (the heads, then the
    /// tails), [`WG_SPLIT_SLOTS`] slots for both operands as they are stored, the alignment
    /// slack and the barriers.
    pub const fn shared_split(&self) -> u32 {
        self.shared_ring(2 * self.stage_bytes(), WG_SPLIT_SLOTS, self.scratch_bytes(true, true))
    }
    /// Dynamic shared memory of a ring of stages of `stage_bytes` and `slots` scratch slots of
    /// `scratch_bytes`: 1024 bytes of slack to align them for the swizzle, the ring, and its
    /// barriers (two per stage, one per slot); at least the epilogue's staged C, which it lays
    /// over the ring once every barrier is done with.
    const fn shared_ring(&self, stage_bytes: usize, slots: usize, scratch_bytes: usize) -> u32 {
        let ring = self.stages * stage_bytes + slots * scratch_bytes + (2 * self.stages + slots) * 8;
        let epilogue = self.consumers * 64 * self.ldc() * 4;
        (1024 + if ring > epilogue { ring } else { epilogue }) as u32
    }
    /// Row length (floats) of the shared tile the epilogue stages C through: bn + 8. Rows stay
    /// 16-byte aligned, and the consumers' 8-byte stores of their fragments (a half-warp: four
    /// rows × four column pairs) fall on 32 different banks: with bn + 4 and 4-byte stores,
    /// every store instruction took two passes. `Auto` ran in 0.987 (BF16), 0.992 (FP32) and
    /// 0.986 (TF32) of the old time on 30 products each, the store-bound ones (8192×8192×64,
    /// 8192×4096×32) 4 % faster (H200, docs/runs/2026-11-27-s24/d5).
    pub const fn ldc(&self) -> usize {
        self.bn + 8
    }
}

/// 128×256, four stages (193 KiB, one block per multiprocessor): the large products, where it
/// reaches cuBLAS (docs/gemm-sweep.md).
pub const WG_WIDE: WgTile = WgTile { consumers: 2, bn: 256, stages: 4 };
/// 64×128, four stages (97 KiB, two blocks per multiprocessor): four times the tiles of
/// `WG_WIDE`, and one block's prologue and epilogue overlap the other's main loop.
pub const WG_NARROW: WgTile = WgTile { consumers: 1, bn: 128, stages: 4 };
/// `WG_NARROW` with eight stages (193 KiB, one block per multiprocessor), which the host runs
/// instead wherever its grid holds at most one block per multiprocessor: a lone 64×128 block
/// has only its own four stages (96 KiB) in flight, too few to cover L2's latency at the rate
/// its one warpgroup multiplies.
pub const WG_NARROW_DEEP: WgTile = WgTile { stages: 8, ..WG_NARROW };
const _: () = assert!(WG_NARROW_DEEP.shared() as usize <= 227 * 1024);
/// 128×208, four stages (193 KiB, one block per multiprocessor; BF16, and TF32 K-major): products whose n
/// the 256-wide tile covers badly. n = 784 (the MLP's input layer) takes four 208-wide tiles
/// (832 columns) where the 128×256 tile computes 1024: BF16 nt 4096×784×4096 ran 73 µs on it,
/// 4096×768×4096 45 (H100, docs/runs/2026-11-23-h100-s8/r4).
pub const WG_WIDE_208: WgTile = WgTile { consumers: 2, bn: 208, stages: 4 };
/// 128×192 (two consumer warpgroups, `wgmma` n = 192): a third more tiles than the 128×256
/// one, each op(B) tile in three whole 64-wide boxes. At 1536³ the 128×256 tiles fill 72 of
/// 132 multiprocessors and took 20.0 µs, cuBLAS 12.9 (H200, docs/runs/2026-11-27-s25/e3); these
/// fill 96.
pub const WG_WIDE_192: WgTile = WgTile { consumers: 2, bn: 192, stages: 4 };
const _: () = assert!(WG_WIDE_192.consumers * 64 * WG_WIDE_192.ldc() * 4 <= WG_WIDE_192.stages * WG_WIDE_192.stage_bytes());
const _: () = assert!(WG_WIDE_192.shared() as usize <= 227 * 1024);
/// 64×64, six stages (97 KiB, two blocks per multiprocessor: the registers of a split's
/// summing loop allow no third): products with few rows or few columns, where a block's time
/// goes to streaming its operand panels (the 64×128 tile ran nt 32×1024×1024 in 6.5 µs on 8
/// blocks, 7.2 µs on 128 at m = 1024; H100). Twice the blocks of the 64×128 tile, two thirds
/// of its bytes per k-slice each with more of them in flight, and half its partial tile per
/// split.
pub const WG_SMALL: WgTile = WgTile { consumers: 1, bn: 64, stages: 6 };
/// 64×32, eight stages (97 KiB, two blocks per multiprocessor): products with at most 32 rows
/// or columns and long k, whose time goes to streaming the wide operand. Their narrow side
/// costs a third of a stage (an MN-major one in 64-byte rows, [`mn_box`]; the 64×64 tile's
/// half, with the rows past C copied as zeros), so eight stages hold 64 KiB of the wide
/// operand per block in flight, and
/// the wide side's 64-row tiles give four times the 64×128 tile's blocks before any split. As
/// Cᵀ (`SWAP`) it serves few-row products: cuBLAS runs 32×4096×4096 on 64×16 tiles, 16 stages
/// deep, in 9.2 µs, where the 64×128 and 64×64 tiles took 14 (H100,
/// docs/runs/2026-11-24-h100-s16/e3).
pub const WG_SLIM: WgTile = WgTile { consumers: 1, bn: 32, stages: 8 };
const _: () = assert!(WG_SLIM.consumers * 64 * WG_SLIM.ldc() * 4 <= WG_SLIM.stages * WG_SLIM.stage_bytes());
const _: () = assert!(WG_SLIM.bn * (WG_SLIM.bm() + 4) * 4 <= WG_SLIM.stages * WG_SLIM.stage_bytes());
const _: () = assert!(2 * WG_SLIM.shared() as usize <= 228 * 1024);
/// 128×192, four stages (161 KiB, one block per multiprocessor): TF32 with op(A) from registers
/// ([`device::Tf32RegA`]) on large products. Each consumer holds 96 accumulators and a slice's
/// 16 fragment registers under the 168 registers a thread of 384 has; the 128×256 tile's 128
/// accumulators spilled (132 bytes per thread).
pub const WG_REGA_WIDE: WgTile = WgTile { consumers: 2, bn: 192, stages: 4 };
const _: () = assert!(WG_REGA_WIDE.consumers * 64 * WG_REGA_WIDE.ldc() * 4 <= WG_REGA_WIDE.stages * WG_REGA_WIDE.stage_bytes());
const _: () = assert!(WG_REGA_WIDE.bn * (WG_REGA_WIDE.bm() + 4) * 4 <= WG_REGA_WIDE.stages * WG_REGA_WIDE.stage_bytes());
/// 128×128, four stages (129 KiB, one block per multiprocessor): FP32 on TF32
/// ([`device::Tf32x3`]), whose consumers hold the slices' f32 sums beside the `wgmma`
/// accumulators (128 registers of values: the 64×128 tile's single consumer would need them
/// under the 128 registers of two blocks per multiprocessor). Two consumers let one add up
/// its slice while the other's `wgmma` runs.
pub const WG_MID: WgTile = WgTile { consumers: 2, bn: 128, stages: 4 };
const _: () = assert!(WG_MID.consumers * 64 * WG_MID.ldc() * 4 <= WG_MID.stages * WG_MID.stage_bytes());
/// 128×128 with two stages of heads and tails and three scratch slots (225 KiB, one block per
/// multiprocessor): FP32 on TF32 with the operands split in the
/// kernel ([`device::Tf32x3Split`]).
pub const WG_MID_S: WgTile = WgTile { stages: 2, ..WG_MID };
const _: () = assert!(WG_MID_S.shared_split() as usize <= 227 * 1024);
/// Scratch slots of a transposing TF32 kernel: the copy engine fills one while the producers
/// transpose the other.
pub const WG_SCRATCH_SLOTS: usize = 2;
/// Scratch slots of a kernel that splits its operands in the kernel ([`WG_MID_S`]): a copy is
/// issued two slices ahead of the split that reads it. With two slots (one slice ahead) FP32
/// 4096³ ran in 2.55 ms, against 1.65 for the staged form (H100,
/// docs/runs/2026-11-24-h100-s15/e1).
pub const WG_SPLIT_SLOTS: usize = 3;
/// The tiles of the TF32 kernels that transpose MN-major operands in shared memory (TF32
/// `wgmma` reads K-major tiles only): fewer stages for the 128×256 and 64×128 tiles, the
/// scratch slots in their place, so the blocks per multiprocessor stay. One operand
/// transposed: three stages (the 128×256 tile: 144 KiB of stages, 64 of scratch).
pub const WG_WIDE_T: WgTile = WgTile { stages: 3, ..WG_WIDE };
/// See [`WG_WIDE_T`].
pub const WG_NARROW_T: WgTile = WgTile { stages: 3, ..WG_NARROW };
/// See [`WG_WIDE_T`].
pub const WG_SMALL_T: WgTile = WgTile { stages: 4, ..WG_SMALL };
/// Both operands transposed: two stages (the 128×256 tile: 96 KiB of stages, 96 of scratch).
pub const WG_WIDE_TT: WgTile = WgTile { stages: 2, ..WG_WIDE };
/// See [`WG_WIDE_TT`].
pub const WG_NARROW_TT: WgTile = WgTile { stages: 2, ..WG_NARROW };
const _: () = assert!(WG_WIDE_T.shared_transposing(false, true) as usize <= 227 * 1024);
const _: () = assert!(WG_WIDE_TT.shared_transposing(true, true) as usize <= 227 * 1024);
const _: () = assert!(2 * WG_NARROW_T.shared_transposing(false, true) as usize <= 228 * 1024);
const _: () = assert!(2 * WG_NARROW_TT.shared_transposing(true, true) as usize <= 228 * 1024);
const _: () = assert!(2 * WG_SMALL_T.shared_transposing(true, true) as usize <= 228 * 1024);
const _: () = assert!(WG_WIDE.consumers * 64 * WG_WIDE.ldc() * 4 <= WG_WIDE.stages * WG_WIDE.stage_bytes());
const _: () = assert!(WG_SMALL.consumers * 64 * WG_SMALL.ldc() * 4 <= WG_SMALL.stages * WG_SMALL.stage_bytes());
const _: () = assert!(WG_NARROW.consumers * 64 * WG_NARROW.ldc() * 4 <= WG_NARROW.stages * WG_NARROW.stage_bytes());
const _: () = assert!(WG_WIDE_208.consumers * 64 * WG_WIDE_208.ldc() * 4 <= WG_WIDE_208.stages * WG_WIDE_208.stage_bytes());
const _: () = assert!(WG_WIDE_208.shared() as usize <= 227 * 1024);

/// Quads (four floats) a thread of a clustered split-K block has in flight as it sums its share
/// of the tile, over the cluster's ranks: 4 quads of each of 2 ranks, 2 of each of 4, 1 of each
/// of 8 (`cluster_sum_share`; 32 floats, what one quad of each of 8 ranks took before; four
/// quads over 8 ranks, 128 floats, spilled in the 64-row tiles). A cluster split cost about 5.6
/// µs on the BF16 128×256 tile whatever the split count (1024×1024×4096: 43.2 µs unsplit, 29.4
/// in 2 splits, 22.8 in 3; H200, docs/runs/2026-11-27-s23/c1), so one round trip per quad looked
/// like the cost. It was only a small part of it: every `wgmma` plan of 13 products timed with
/// both builds in one call ran in 0.986 (BF16, 610 plans) and 0.980 (TF32, 108) of the old time
/// on geometric mean, 2 splits 0.97, 3 and 4 splits 1.00–1.02 (`c3`).
pub const CLUSTER_LOADS: usize = 8;

/// Most splits of a tile that one thread-block cluster holds (`GemmParams::cluster`): the
/// portable cluster size.
pub const MAX_CLUSTER_SPLITS: usize = 8;

/// Bytes of a tile row in shared memory: the 128-byte swizzle span.
pub const WG_ROW_BYTES: usize = 128;
/// k per stage for bf16 (64 × 2 bytes = one row).
pub const WG_BK_BF16: usize = 64;
/// k per stage for TF32 (32 × 4 bytes).
pub const WG_BK_TF32: usize = 32;
/// Width (elements) of the TMA box of an MN-major tile: one 128-byte row of bf16.
pub const WG_MN_BOX: usize = 64;

/// Width (elements of m or n) of the boxes an MN-major bf16 operand of a `cols`-wide tile lands
/// in: one 128-byte swizzle row ([`WG_MN_BOX`]), or the whole tile where it is narrower (64-byte
/// rows, 64-byte swizzled: [`WG_SLIM`]).
pub const fn mn_box(cols: usize) -> usize {
    if cols < WG_MN_BOX { cols } else { WG_MN_BOX }
}

/// Pieces each box of a `tile`-row operand tile is cut into along its outer dimension when the
/// `group` blocks of a multicast cluster that share it copy it together
/// (`WgKind::CLUSTER`), each piece copied by one block into all of them:
/// a K-major tile is one box, cut into `group` boxes of `tile / group` rows; an MN-major tile is
/// boxes of [`mn_box`] columns, each cut along k where there are fewer boxes than blocks. The
/// host encodes the piece's tensor map from it, the kernel walks the pieces by it (a power of
/// two for groups of 1, 2 or 4: the producer divides by shifts).
pub const fn multicast_pieces(mn: bool, tile: usize, group: usize) -> usize {
    if group <= 1 {
        return 1;
    }
    if !mn {
        return group;
    }
    let boxes = tile.div_ceil(mn_box(tile));
    if boxes >= group { 1 } else { group / boxes }
}

/// Rows of the edge box of a K-major tile of `rows` rows (the kernels that copy without
/// transposing, 128-row tiles): a tile with at most this many rows inside C is copied in one
/// such box instead of the whole tile's (64 when `rows` is a multiple of 64, else `rows`).
pub const fn kmajor_box_rows(rows: usize) -> usize {
    if rows.is_multiple_of(64) { 64 } else { rows }
}

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
    use crate::matmul::split::{load_l2_x4, split_count_in, split_index, split_range, split_slot, sync_threads_or};
    use crate::matmul::{gemm_epilogue4_step, gemm_epilogue4_with, opaque};
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
        /// Whether MN-major operands are transposed to K-major in shared memory by the producer
        /// warpgroup (TF32 `wgmma` reads K-major tiles only) rather than read as they are.
        const TRANSPOSES: bool;
        /// Whether each k-slice's products are summed in a fresh `wgmma` accumulator and then
        /// added to f32 registers (FP32 on TF32: the tensor cores' running sum over a long k
        /// loses low bits; see [`Tf32x3`]).
        const PROMOTE: bool = false;
        /// Whether op(A) comes from registers, loaded by the consumers from its MN-major tile
        /// ([`Tf32RegA`]), rather than from shared memory through a descriptor.
        const REGA: bool = false;
        /// Whether the producers split both operands into TF32 heads and tails in shared memory
        /// and each k-step runs three `wgmma` ([`Tf32x3Split`]).
        const SPLIT: bool = false;
        /// The TMA multicast cluster, tiles along m × along n ([`Bf16Pairs`], [`Bf16Quads`];
        /// (1, 1): every block alone). A constant of the kernel: with the shape read from
        /// kernel parameters at run time, the loops over the cluster's peers and pieces
        /// made the pairs' main loop 1.4–2.6× as long (nn 1024×784×4096 19.9 → 28.6–52 µs; H200,
        /// docs/runs/2026-11-28-s32/n1, n2).
        const CLUSTER: (usize, usize) = (1, 1);
        /// Whether blocks run in multicast clusters.
        const MULTICAST: bool = Self::CLUSTER.0 * Self::CLUSTER.1 > 1;
        /// One 64×(2·NACC)×KSTEP `wgmma` (`TA`/`TB`: MN-major operand).
        ///
        /// # Safety
        /// As `hopper::wgmma_bf16`.
        unsafe fn mma<const TA: bool, const TB: bool, const NACC: usize>(d: &mut [f32; NACC], da: u64, db: u64);
        /// One 64×(2·NACC)×KSTEP `wgmma` with op(A) from registers (`REGA` kinds only).
        ///
        /// # Safety
        /// As `hopper::wgmma_tf32_rega`.
        #[inline(always)]
        unsafe fn mma_rega<const NACC: usize>(d: &mut [f32; NACC], a: &[f32; 4], db: u64) {
            let _ = (d, a, db);
            unreachable!("a kind without register A")
        }
    }

    /// Declares a BF16 kind, its blocks alone or in TMA multicast clusters (`CLUSTER`).
    macro_rules! bf16_kind {
        ($(#[$doc:meta])* $name:ident, $cluster:expr) => {
            $(#[$doc])*
            pub struct $name;
            impl WgKind for $name {
                const BK: usize = WG_BK_BF16;
                const KSTEP: usize = 16;
                const BYTES: usize = 2;
                const TRANSPOSES: bool = false;
                const CLUSTER: (usize, usize) = $cluster;
                #[inline(always)]
                unsafe fn mma<const TA: bool, const TB: bool, const NACC: usize>(d: &mut [f32; NACC], da: u64, db: u64) {
                    // SAFETY: forwarded.
                    unsafe { wgmma_bf16::<TA, TB, NACC>(d, da, db) }
                }
            }
        };
    }

    bf16_kind!(
        /// BF16, every block alone.
        Bf16,
        (1, 1)
    );
    bf16_kind!(
        /// BF16 in TMA multicast pairs: kernels of their own, so that the
        /// pairs' barriers and branches stay out of the single-block kernels (compiled into them
        /// behind a runtime flag, they made the single-block plans 3.6 % slower over the BF16 sweep,
        /// up to 1.15× on the latency-bound ones: nt 64×1024×784 5.2 → 5.9 µs, 768³ 5.5 → 6.4; H100,
        /// docs/runs/2026-11-28-s29/j3). Launch, for clusters of cm × cn tiles: a 1-D grid of
        /// ⌈⌈m/bm⌉/cm⌉·cm · ⌈⌈n/bn⌉/cn⌉·cn blocks by the splits along z, in clusters of cm·cn
        /// along x by `p.cluster` (or 1) along z, and in
        /// `edge_a` (cn > 1) and `edge_b` (cm > 1) the maps of the operands' pieces
        /// ([`multicast_pieces`]).
        Bf16Pairs,
        (2, 1)
    );
    bf16_kind!(
        /// BF16 in TMA multicast clusters of 2 × 2 tiles, sharing both operands (launched as
        /// [`Bf16Pairs`] with cm = cn = 2).
        Bf16Quads,
        (2, 2)
    );

    pub struct Tf32;
    impl WgKind for Tf32 {
        const BK: usize = WG_BK_TF32;
        const KSTEP: usize = 8;
        const BYTES: usize = 4;
        const TRANSPOSES: bool = true;
        #[inline(always)]
        unsafe fn mma<const TA: bool, const TB: bool, const NACC: usize>(d: &mut [f32; NACC], da: u64, db: u64) {
            // SAFETY: forwarded (the TF32 kernels are K-major only).
            unsafe { wgmma_tf32::<NACC>(d, da, db) }
        }
    }

    /// Declares a TF32 kind whose op(A) comes from registers (`REGA`), transposing its MN-major
    /// op(B) in shared memory or not (`TRANSPOSES`).
    macro_rules! rega_kind {
        ($(#[$doc:meta])* $name:ident, $transposes:literal) => {
            $(#[$doc])*
            pub struct $name;
            impl WgKind for $name {
                const BK: usize = WG_BK_TF32;
                const KSTEP: usize = 8;
                const BYTES: usize = 4;
                const TRANSPOSES: bool = $transposes;
                const REGA: bool = true;
                #[inline(always)]
                unsafe fn mma<const TA: bool, const TB: bool, const NACC: usize>(d: &mut [f32; NACC], da: u64, db: u64) {
                    let _ = (d, da, db);
                    unreachable!("register A only")
                }
                #[inline(always)]
                unsafe fn mma_rega<const NACC: usize>(d: &mut [f32; NACC], a: &[f32; 4], db: u64) {
                    // SAFETY: forwarded.
                    unsafe { wgmma_tf32_rega::<NACC>(d, a, db) }
                }
            }
        };
    }

    rega_kind!(
        /// TF32 with an MN-major op(A) read into registers (TF32 `wgmma` reads only K-major tiles
        /// from shared memory, but takes op(A) from registers in any layout): each consumer loads
        /// its 64 rows' fragments of a slice from the tile as the copy engine landed it, so no
        /// operand is staged or transposed through shared memory. An MN-major op(B) is handled by
        /// computing Cᵀ = op(B)ᵀ·op(A)ᵀ (`SWAP`).
        Tf32RegA,
        false
    );
    rega_kind!(
        /// [`Tf32RegA`] with op(B) MN-major too: op(A)'s tile lands as it is and the consumers read
        /// it into registers, op(B)'s is transposed to K-major in shared memory by the producers
        /// ([`produce_transposed`]). Both operands as they are stored, so no staging pass (the
        /// other register-A kernels stage one of two MN-major operands first, a launch of its own).
        Tf32RegAT,
        true
    );

    /// Byte offset of element (k, c) in a box of 32 f32 columns (of m or n) × 32 k as the copy
    /// engine lands it: k-rows of 128 bytes, 16-byte chunks swizzled by k%8.
    #[inline(always)]
    fn mn_box_offset(k: usize, c: usize) -> usize {
        k * WG_ROW_BYTES + (((c / 4) ^ (k % 8)) * 16) + (c % 4) * 4
    }

    /// The shared address of element (k, c) of box j of an MN-major f32 tile at `src` as the copy
    /// engine lands it: boxes of 32 columns × 32 k, 4096 bytes apart ([`mn_box_offset`]).
    #[inline(always)]
    fn mn_box_elem(src: u32, j: usize, k: usize, c: usize) -> u32 {
        src + (j * (WG_ROW_BYTES / 4) * WG_ROW_BYTES + mn_box_offset(k, c)) as u32
    }

    /// This thread's register fragments of the four k-steps of a slice of op(A), consumer `cw`'s
    /// 64 rows of an MN-major f32 tile at `a` (boxes of 32 rows × 32 k, [`mn_box_offset`]).
    #[inline(always)]
    fn rega_fragments(a: u32, cw: usize, tid: usize) -> [[f32; 4]; 4] {
        let (warp, lane) = ((tid % 128) / 32, tid % 32);
        let mut f = [[0f32; 4]; 4];
        unroll!(kk in [0, 1, 2, 3] {
            unroll!(i in [0, 1, 2, 3] {
                let row = 64 * cw + 16 * warp + lane / 4 + 8 * (i % 2);
                let k = 8 * kk + lane % 4 + 4 * (i / 2);
                let (j, c) = (row / 32, row % 32);
                let at = a + (j * 32 * WG_ROW_BYTES + mn_box_offset(k, c)) as u32;
                // SAFETY: inside the landed tile (64·CONS rows of 32 k).
                f[kk][i] = unsafe { ld_shared_f32(at) };
            });
        });
        f
    }

    /// FP32 on TF32 tensor cores ([head | tail] operands, three k-segments): TF32 `wgmma`
    /// whose slice sums are added to f32 registers, one slice (32 k) at a time.
    pub struct Tf32x3;
    impl WgKind for Tf32x3 {
        const BK: usize = WG_BK_TF32;
        const KSTEP: usize = 8;
        const BYTES: usize = 4;
        const TRANSPOSES: bool = false;
        const PROMOTE: bool = true;
        #[inline(always)]
        unsafe fn mma<const TA: bool, const TB: bool, const NACC: usize>(d: &mut [f32; NACC], da: u64, db: u64) {
            // SAFETY: forwarded (the x3 kernels are K-major only).
            unsafe { Tf32::mma::<TA, TB, NACC>(d, da, db) }
        }
    }

    /// FP32 on TF32 tensor cores with the operands split in the kernel: the producers write each
    /// landed f32 tile's TF32 heads and tails ([`super::super::stage::tf32_split_trunc`]) into the
    /// stage ([`produce_split`]), and the consumers add tail·head + head·tail + head·head per
    /// k-step, each slice's sum to f32 registers as [`Tf32x3`] does. No staging pass, and k is
    /// read once (the staged form reads three segments of it).
    pub struct Tf32x3Split;
    impl WgKind for Tf32x3Split {
        const BK: usize = WG_BK_TF32;
        const KSTEP: usize = 8;
        const BYTES: usize = 4;
        const TRANSPOSES: bool = true;
        const PROMOTE: bool = true;
        const SPLIT: bool = true;
        #[inline(always)]
        unsafe fn mma<const TA: bool, const TB: bool, const NACC: usize>(d: &mut [f32; NACC], da: u64, db: u64) {
            // SAFETY: forwarded (the stage's tiles are K-major).
            unsafe { Tf32::mma::<TA, TB, NACC>(d, da, db) }
        }
    }

    /// The descriptor of one k-step of a tile at `base` (1024-aligned): K-major tiles (`mn`
    /// `None`) step `KSTEP` elements along a row, MN-major ones (`Some(cols)`, the tile's width)
    /// `KSTEP` rows: of 128 bytes, or of `cols` elements where the tile is narrower than a box
    /// ([`mn_box`]: 64-byte rows, 64-byte swizzled).
    #[inline(always)]
    fn step_desc<K: WgKind>(mn: Option<usize>, base: u32, kk: usize) -> u64 {
        match mn {
            Some(cols) if cols < WG_MN_BOX => smem_desc_mn64(base + (kk * K::KSTEP * cols * K::BYTES) as u32),
            Some(_) => smem_desc(base + (kk * K::KSTEP * WG_ROW_BYTES) as u32, (WG_MN_BOX * WG_ROW_BYTES) as u32),
            None => smem_desc(base + (kk * K::KSTEP * K::BYTES) as u32, 16),
        }
    }

    /// The shared-memory layout of a block's pipeline from `base` (1024-aligned): the stages,
    /// the scratch slots (transposed TF32 operands only), then the barriers: full per stage,
    /// empty per stage, landed per slot.
    #[derive(Clone, Copy)]
    pub struct Ring {
        base: u32,
        stages: usize,
        stage_bytes: usize,
        scratch_bytes: usize,
        slots: usize,
    }

    impl Ring {
        /// The ring of `tile` transposing op(A) (`xa`) and op(B) (`xb`) in shared memory; with
        /// `split`, stages of heads and tails ([`WgTile::shared_split`]).
        #[inline(always)]
        pub fn new(base: u32, tile: WgTile, xa: bool, xb: bool, split: bool) -> Ring {
            let slots = if split { WG_SPLIT_SLOTS } else { WgTile::scratch_slots(xa, xb) };
            let stage_bytes = tile.stage_bytes() * if split { 2 } else { 1 };
            Ring { base, stages: tile.stages, stage_bytes, scratch_bytes: tile.scratch_bytes(xa, xb), slots }
        }
        #[inline(always)]
        pub fn stage(&self, s: usize) -> u32 {
            self.base + (s * self.stage_bytes) as u32
        }
        #[inline(always)]
        pub fn scratch(&self, r: usize) -> u32 {
            self.stage(self.stages) + (r * self.scratch_bytes) as u32
        }
        #[inline(always)]
        fn bar(&self, i: usize) -> u32 {
            self.scratch(self.slots) + 8 * i as u32
        }
        #[inline(always)]
        pub fn full(&self, s: usize) -> u32 {
            self.bar(s)
        }
        #[inline(always)]
        pub fn empty(&self, s: usize) -> u32 {
            self.bar(self.stages + s)
        }
        #[inline(always)]
        pub fn landed(&self, r: usize) -> u32 {
            self.bar(2 * self.stages + r)
        }
    }

    /// The producer warpgroup of a TF32 kernel with MN-major operands (`xa`: op(A) stored k×m,
    /// `xb`: op(B) stored k×n). Thread 0 has the copy engine land each k-slice's MN-major tiles
    /// in a scratch slot (boxes of 32 columns × 32 k, 128-byte swizzled, two slots in flight)
    /// and K-major operands straight in the stage; all 128 threads then transpose the scratch
    /// tiles into the stage's K-major swizzled layout, the one TF32 `wgmma` reads, and arrive on
    /// the stage's full barrier. Each 32×32 box transposes with conflict-free shared loads
    /// (a warp reads one 128-byte row) and 16-byte stores (eight lanes cover the banks). With
    /// `a_mn` (a register-A kind, [`Tf32RegAT`]) op(A) is MN-major but not transposed: its boxes
    /// land in the stage as they are.
    ///
    /// # Safety
    /// Called by the 128 threads of warpgroup 0 of a `wgmma_gemm` block whose barriers `ring`
    /// holds were initialized for transposed operands; the maps describe MN-major operands with
    /// 32×32 boxes (and K-major ones as `wgmma_gemm` does).
    #[inline(always)]
    pub unsafe fn produce_transposed<K: WgKind, const CONS: usize, const NACC: usize, const STAGES: usize>(
        (map_a, map_b): (u64, u64),
        (xa, xb, a_mn): (bool, bool, bool),
        (m0, n0, first, ktiles): (usize, usize, usize, usize),
        ring: Ring,
    ) {
        let tile = WgTile { consumers: CONS, bn: 2 * NACC, stages: STAGES };
        let (bm, bn) = (tile.bm(), tile.bn);
        let tid = thread_idx_x() as usize;
        let (warp, lane) = (tid / 32, tid % 32);
        // A box: 32 columns (of m or n) × 32 k (one 128-byte row of f32 per k).
        const BOX: usize = WG_ROW_BYTES / 4;
        let scratch_bytes = tile.scratch_bytes(xa, xb);
        // op(B)'s part of scratch slot r (after op(A)'s, if that is transposed too).
        let b_scratch = |r: usize| ring.scratch(r) + if xa { tile.a_bytes() as u32 } else { 0 };
        let k_of = |kt: usize| ((first + kt) * K::BK) as i32;
        // Each MN-major operand's boxes, every one copied.
        let (a_boxes, b_boxes) = (OperandBoxes::of(true, BOX, bm, bm, false, (map_a, map_a)), OperandBoxes::of(true, BOX, bn, bn, false, (map_b, map_b)));
        // Thread 0: the MN-major tiles of slice kt into slot kt % 2.
        let fetch = |kt: usize| {
            let r = kt % WG_SCRATCH_SLOTS;
            // SAFETY: slot r is free (every producer has transposed the slice before kt from
            // it), 1024-aligned, and holds the boxes.
            unsafe {
                mbarrier_arrive_expect_tx(ring.landed(r), scratch_bytes as u32);
                if xa {
                    a_boxes.load(ring.scratch(r), m0, k_of(kt), ring.landed(r));
                }
                if xb {
                    b_boxes.load(b_scratch(r), n0, k_of(kt), ring.landed(r));
                }
            }
        };
        if tid == 0 {
            for kt in 0..ktiles.min(WG_SCRATCH_SLOTS) {
                fetch(kt);
            }
        }
        // Transposes the MN-major tile at `src` (boxes of 32 columns of m or n × 32 k) into the
        // K-major tile of `rows` rows at `dst`: element (k, c) of box j sits at
        // k·128 + ((c/4 ⊕ k%8)·16) + (c%4)·4 in the box, and goes to row 32j + c of the K-major
        // tile, at ((k/4 ⊕ c%8)·16) + (k%4)·4 in that row (the same 128-byte swizzle both ways).
        let transpose = |src: u32, dst: u32, rows: usize| {
            for j in 0..rows / BOX {
                unroll!(h in [0, 1] {
                    let k4 = 2 * warp + h;
                    let c = lane;
                    let mut v = [0f32; 4];
                    unroll!(i in [0, 1, 2, 3] {
                        // SAFETY: inside the landed scratch tile.
                        v[i] = unsafe { ld_shared_f32(mn_box_elem(src, j, 4 * k4 + i, c)) };
                    });
                    // SAFETY: inside the stage's tile, which the consumers have released.
                    unsafe { st_shared_f32x4(kmajor_chunk(dst, j * BOX + c, k4), v) };
                });
            }
        };
        for kt in 0..ktiles {
            let (s, r) = (kt % STAGES, kt % WG_SCRATCH_SLOTS);
            // SAFETY (whole block): initialized barriers; copies and stores land inside stage s
            // once the consumers have released it, and read slot r once it has landed.
            unsafe {
                if kt >= STAGES {
                    mbarrier_wait(ring.empty(s), ((kt / STAGES - 1) & 1) as u32);
                }
                if tid == 0 {
                    // The K-major operands' bytes: the stage but what the producers write.
                    mbarrier_arrive_expect_tx(ring.full(s), (tile.stage_bytes() - scratch_bytes) as u32);
                    if a_mn {
                        a_boxes.load(ring.stage(s), m0, k_of(kt), ring.full(s));
                    } else if !xa {
                        tma_load_2d(ring.stage(s), map_a, k_of(kt), m0 as i32, ring.full(s));
                    }
                    if !xb {
                        tma_load_2d(ring.stage(s) + tile.a_bytes() as u32, map_b, k_of(kt), n0 as i32, ring.full(s));
                    }
                }
                mbarrier_wait(ring.landed(r), ((kt / WG_SCRATCH_SLOTS) & 1) as u32);
                if xa {
                    transpose(ring.scratch(r), ring.stage(s), bm);
                }
                if xb {
                    transpose(b_scratch(r), ring.stage(s) + tile.a_bytes() as u32, bn);
                }
                // The stores reach `wgmma` (the async proxy); then this thread's arrival.
                fence_proxy_async();
                mbarrier_arrive(ring.full(s));
                // Every producer is done reading slot r: refill it.
                named_barrier(2, 128);
                if tid == 0 && kt + WG_SCRATCH_SLOTS < ktiles {
                    fetch(kt + WG_SCRATCH_SLOTS);
                }
            }
        }
    }

    /// The four TF32 heads and tails of `v` ([`super::super::stage::tf32_split_trunc`]).
    #[inline(always)]
    fn split4(v: [f32; 4]) -> ([f32; 4], [f32; 4]) {
        let mut out = ([0f32; 4], [0f32; 4]);
        unroll!(i in [0, 1, 2, 3] {
            let (h, t) = crate::matmul::stage::tf32_split_trunc(v[i]);
            out.0[i] = h;
            out.1[i] = t;
        });
        out
    }

    /// The producer warpgroup of FP32 on TF32 with the operands split in the kernel
    /// ([`Tf32x3Split`]). Thread 0 has the copy engine land each k-slice's f32 tiles of op(A)
    /// and op(B) as they are stored in a scratch slot (a K-major tile in one box, an MN-major one
    /// in boxes of 32 columns × 32 k; [`WG_SPLIT_SLOTS`] in flight); all 128 threads then write each
    /// element's TF32 head into the stage's K-major tile and its tail into the tile
    /// `tile.stage_bytes()` further on (a K-major tile keeps its swizzled layout, 16 bytes per
    /// load; an MN-major one is transposed as [`produce_transposed`] does), and arrive on the
    /// stage's full barrier.
    ///
    /// # Safety
    /// Called by the 128 threads of warpgroup 0 of a `wgmma_gemm` block whose barriers `ring`
    /// holds were initialized for split operands; the maps describe MN-major operands with 32×32
    /// boxes and K-major ones with boxes of a whole tile.
    #[inline(always)]
    pub unsafe fn produce_split<const TA: bool, const TB: bool, const CONS: usize, const NACC: usize, const STAGES: usize>(
        (map_a, map_b): (u64, u64),
        (m0, n0, first, ktiles): (usize, usize, usize, usize),
        ring: Ring,
    ) {
        let tile = WgTile { consumers: CONS, bn: 2 * NACC, stages: STAGES };
        let (bm, bn) = (tile.bm(), tile.bn);
        let tid = thread_idx_x() as usize;
        let (warp, lane) = (tid / 32, tid % 32);
        // An MN-major box: 32 columns (of m or n) × 32 k.
        const BOX: usize = WG_ROW_BYTES / 4;
        let scratch_bytes = tile.scratch_bytes(true, true);
        let b_scratch = |r: usize| ring.scratch(r) + tile.a_bytes() as u32;
        // The tails' tiles sit one single stage on from the heads'.
        let tail = tile.stage_bytes() as u32;
        let k_of = |kt: usize| ((first + kt) * WG_BK_TF32) as i32;
        // Each operand's boxes, every one copied: a K-major tile in one.
        let (a_boxes, b_boxes) = (OperandBoxes::of(TA, BOX, bm, bm, false, (map_a, map_a)), OperandBoxes::of(TB, BOX, bn, bn, false, (map_b, map_b)));
        // Thread 0: slice kt into slot kt % WG_SPLIT_SLOTS.
        let fetch = |kt: usize| {
            let r = kt % WG_SPLIT_SLOTS;
            // SAFETY: slot r is free (every producer has split the slice before kt from it),
            // 1024-aligned, and holds the boxes.
            unsafe {
                mbarrier_arrive_expect_tx(ring.landed(r), scratch_bytes as u32);
                a_boxes.load(ring.scratch(r), m0, k_of(kt), ring.landed(r));
                b_boxes.load(b_scratch(r), n0, k_of(kt), ring.landed(r));
            }
        };
        if tid == 0 {
            for kt in 0..ktiles.min(WG_SPLIT_SLOTS) {
                fetch(kt);
            }
        }
        // A K-major tile of `rows` rows at `src`: heads to `dst`, tails to `dst + tail`, at the
        // same (swizzled) offsets; consecutive threads take consecutive 16 bytes, eight loads in
        // flight before the first store.
        let split_kmajor = |src: u32, dst: u32, rows: usize| {
            for i0 in (0..rows * WG_ROW_BYTES / (16 * 128)).step_by(8) {
                let off = |i: usize| (((i0 + i) * 128 + tid) * 16) as u32;
                let mut v = [[0f32; 4]; 8];
                unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
                    // SAFETY: inside the landed scratch tile (rows a multiple of 16·8).
                    v[i] = unsafe { ld_shared_f32x4(src + off(i)) };
                });
                unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
                    let (h, t) = split4(v[i]);
                    // SAFETY: inside the stage's tiles, which the consumers have released.
                    unsafe {
                        st_shared_f32x4(dst + off(i), h);
                        st_shared_f32x4(dst + tail + off(i), t);
                    }
                });
            }
        };
        // An MN-major tile (boxes of 32 columns × 32 k) at `src`, transposed into the K-major
        // tile of `rows` rows at `dst` as `produce_transposed` does, heads and tails.
        // Each box's eight loads in flight before its first store.
        let split_mn = |src: u32, dst: u32, rows: usize| {
            for j in 0..rows / BOX {
                let mut v = [[0f32; 4]; 2];
                unroll!(h in [0, 1] {
                    unroll!(i in [0, 1, 2, 3] {
                        // SAFETY: inside the landed scratch tile.
                        v[h][i] = unsafe { ld_shared_f32(mn_box_elem(src, j, 4 * (2 * warp + h) + i, lane)) };
                    });
                });
                unroll!(h in [0, 1] {
                    let at = kmajor_chunk(dst, j * BOX + lane, 2 * warp + h);
                    let (hd, tl) = split4(v[h]);
                    // SAFETY: inside the stage's tiles, which the consumers have released.
                    unsafe {
                        st_shared_f32x4(at, hd);
                        st_shared_f32x4(at + tail, tl);
                    }
                });
            }
        };
        for kt in 0..ktiles {
            let (s, r) = (kt % STAGES, kt % WG_SPLIT_SLOTS);
            let (a_dst, b_dst) = (ring.stage(s), ring.stage(s) + tile.a_bytes() as u32);
            // SAFETY (whole block): initialized barriers; stores land inside stage s once the
            // consumers have released it, and read slot r once it has landed.
            unsafe {
                if kt >= STAGES {
                    mbarrier_wait(ring.empty(s), ((kt / STAGES - 1) & 1) as u32);
                }
                if tid == 0 {
                    // The full barrier's one arrival besides the producers' (no copy lands in
                    // the stage itself).
                    mbarrier_arrive(ring.full(s));
                }
                mbarrier_wait(ring.landed(r), ((kt / WG_SPLIT_SLOTS) & 1) as u32);
                if TA {
                    split_mn(ring.scratch(r), a_dst, bm);
                } else {
                    split_kmajor(ring.scratch(r), a_dst, bm);
                }
                if TB {
                    split_mn(b_scratch(r), b_dst, bn);
                } else {
                    split_kmajor(b_scratch(r), b_dst, bn);
                }
                // The stores reach `wgmma` (the async proxy); then this thread's arrival.
                fence_proxy_async();
                mbarrier_arrive(ring.full(s));
                // Every producer is done reading slot r: refill it.
                named_barrier(2, 128);
                if tid == 0 && kt + WG_SPLIT_SLOTS < ktiles {
                    fetch(kt + WG_SPLIT_SLOTS);
                }
            }
        }
    }

    /// The whole kernel on a tile of `CONS` consumer warpgroups × 64 rows and 2·`NACC` columns
    /// with `STAGES` pipeline stages (a [`WgTile`]); `map_a`/`map_b` are the generic addresses
    /// of the tensor maps, `edge_a`/`edge_b` those of the same operands in the edge boxes of
    /// [`kmajor_box_rows`] (K-major ones). `TA`: A is stored k×m (op(A) = Aᵀ, m contiguous);
    /// `TB`: B is stored k×n (n contiguous). Otherwise the operand is stored with k contiguous
    /// (A as m×k, B as n×k).
    ///
    /// # Safety
    /// See the kernels.
    #[inline(always)]
    pub unsafe fn wgmma_gemm<K: WgKind, const TA: bool, const TB: bool, const SWAP: bool, const CONS: usize, const NACC: usize, const STAGES: usize>(
        map_a: u64,
        map_b: u64,
        (edge_a, edge_b): (u64, u64),
        c: *mut f32,
        bias: *const f32,
        p: &GemmParams,
    ) {
        let tile = WgTile { consumers: CONS, bn: 2 * NACC, stages: STAGES };
        // A 32-wide MN-major op(B) (bf16 only) lands in one 64-byte swizzled box.
        const { assert!(!TB || 2 * NACC >= WG_MN_BOX || 2 * NACC == 32) };
        let (bm, bn, ldc) = (tile.bm(), tile.bn, tile.ldc());
        let tid = thread_idx_x() as usize;
        let wg = tid / 128;
        // MN-major operands the producers transpose in shared memory (TF32), and how `wgmma`
        // reads each operand's stage tile.
        // Split kinds take both operands through the scratch slots.
        // A register-A kind reads its MN-major op(A) as it landed.
        let (xa, xb) = if K::SPLIT { (true, true) } else { (TA && K::TRANSPOSES && !K::REGA, TB && K::TRANSPOSES) };
        let (ta_smem, tb_smem) = (TA && !xa, TB && !xb);
        let base = (shared_addr(dynamic_shared::<u8>()) + 1023) & !1023;
        let ring = Ring::new(base, tile, xa, xb, K::SPLIT);
        let (stage, full, empty) = (|s| ring.stage(s), |s| ring.full(s), |s| ring.empty(s));
        let transposes = xa || xb;
        // TMA multicast ([`Bf16Pairs`], [`Bf16Quads`]; the host launches the kind's clusters):
        // this block's place in its cluster of cm × cn tiles.
        let multicast = K::MULTICAST;
        let mc = if multicast { McCluster::of(K::CLUSTER, p) } else { McCluster::ALONE };
        if tid == 0 {
            prefetch_tensormap(map_a);
            prefetch_tensormap(map_b);
            for s in 0..STAGES {
                // SAFETY: the barrier words lie past the stages and scratch slots, inside the
                // tile's shared bytes.
                unsafe {
                    // With transposed operands, every producer thread also arrives once it has
                    // written its part of the stage.
                    mbarrier_init(full(s), if transposes { 1 + 128 } else { 1 });
                    // With multicast, the consumers of every block this one's copies write into
                    // free a stage: its column's and its row's.
                    mbarrier_init(empty(s), (CONS * mc.writers()) as u32);
                }
            }
            for r in 0..ring.slots {
                // SAFETY: as above.
                unsafe { mbarrier_init(ring.landed(r), 1) };
            }
            fence_barrier_init();
        }
        if multicast {
            // The others' copies and arrivals may reach this block's barriers from here on.
            cluster_sync();
        } else {
            sync_threads();
        }
        // Launched with programmatic stream serialization, this block may have started while the
        // previous kernel still runs: the prologue above touches no global memory; wait here.
        // Then let the next kernel launch, so its prologue overlaps this one's tail (a single
        // 64×64 block took 4.5 µs per product in a graph of them, cuBLAS's 2.6; H100).
        grid_dependency_wait();
        launch_dependents();

        // The tile grid along the kernel's m and n (a 1-D grid of clusters with multicast, padded
        // to whole clusters: a block whose tile lies past C still copies its pieces of the
        // operand it shares, and stores nothing).
        let (rows, cols) = if SWAP { (p.n as usize, p.m as usize) } else { (p.m as usize, p.n as usize) };
        let tile_cols = if multicast { cols.div_ceil(bn).next_multiple_of(mc.cn) } else { crate::thread::grid_dim_x() as usize };
        let (tile_m, tile_n) = if multicast {
            crate::matmul::clustered_tile_of(crate::thread::block_idx_x() as usize, tile_cols, rows.div_ceil(bm), (mc.cm, mc.cn))
        } else {
            crate::matmul::grouped_tile()
        };
        let (m0, n0) = (tile_m * bm, tile_n * bn);
        // This block's k-slices (split-K: its range; the host makes every range non-empty).
        let z = split_index(p);
        let (first, end) = split_range(p, z, (p.k as usize).div_ceil(K::BK).max(1));
        let ktiles = end - first;

        if wg == 0 && K::SPLIT {
            // SAFETY: as the kernels' (see `produce_split`).
            unsafe { produce_split::<TA, TB, CONS, NACC, STAGES>((map_a, map_b), (m0, n0, first, ktiles), ring) };
        } else if wg == 0 && transposes {
            // SAFETY: as the kernels' (see `produce_transposed`).
            unsafe { produce_transposed::<K, CONS, NACC, STAGES>((map_a, map_b), (xa, xb, TA && !xa), (m0, n0, first, ktiles), ring) };
        } else if wg == 0 {
            if tid == 0 {
                // The boxes of each operand along m or n: one 128-byte row of m or n of an
                // MN-major tile; a K-major tile in one box, or, where no more than its first 64
                // rows are inside C, in one 64-row box (`edge_*`). Boxes that start past the
                // product's rows (op(A)) or columns (op(B)) are not copied: they would only feed
                // rows or columns of the tile past C, which are never stored, and the copy
                // engine fills them with zeros no faster than it copies (nt 4096×784×4096 on
                // 128×256 tiles, whose last column of tiles is 94 % past n, took 73 µs where
                // 4096×768×4096 took 46). A tile in several 64-row boxes runs slower than in one
                // box with rows past C: every K-major tile in 64-row boxes made FP32 4096³ on
                // TF32 1.63 → 2.04 ms, and only the tiles reaching past C, 3000³ BF16 126 → 140
                // µs (H100, docs/runs/2026-11-24-h100-s14/e4, r1, r2).
                // Only on the 128-row tiles without FP32 on TF32 (`PROMOTE`): compiled into
                // those, the edge path made FP32 4096³ on TF32's 128×128 tiles 12 % slower (1.62 →
                // 1.82 ms, e6), and into the 64-row tiles, BF16 and TF32 1024³ and 768³ 9–13 %
                // (e7); their tiles past C have at most 64 rows or 64 columns past it anyway.
                let edges = CONS > 1 && !K::PROMOTE;
                // With multicast, an operand shared by several blocks is copied in pieces
                // ([`multicast_pieces`]; the piece map in the edge slot), each block copying
                // every group-th piece into all of them (op(A): the cn blocks of its tile row;
                // op(B): the cm of its tile column).
                let (a_in, b_in) = (rows.saturating_sub(m0), cols.saturating_sub(n0));
                let a = if mc.cn > 1 {
                    OperandBoxes::shared(TA, (WG_ROW_BYTES / K::BYTES, K::BK), bm, a_in, mc.cn, (map_a, edge_a))
                } else {
                    OperandBoxes::of(TA, WG_ROW_BYTES / K::BYTES, bm, a_in, edges, (map_a, edge_a))
                };
                let b = if mc.cm > 1 {
                    OperandBoxes::shared(TB, (mn_box(bn), K::BK), bn, b_in, mc.cm, (map_b, edge_b))
                } else {
                    OperandBoxes::of(TB, mn_box(bn), bn, b_in, edges, (map_b, edge_b))
                };
                let landed = ((a.count * a.rows + b.count * b.rows) * WG_ROW_BYTES) as u32;
                let (row_mask, column_mask) = (mc.row_mask(), mc.column_mask());
                for kt in 0..ktiles {
                    let s = kt % STAGES;
                    let (ka, kb) = x3_slices(p, first + kt);
                    let (ka, kb) = ((ka * K::BK) as i32, (kb * K::BK) as i32);
                    let (a_dst, b_dst) = (stage(s), stage(s) + tile.a_bytes() as u32);
                    // SAFETY: the barriers are initialized; each copy lands inside stage s,
                    // which the consumers have released (the empty barrier), 1024-aligned.
                    unsafe {
                        if kt >= STAGES {
                            mbarrier_wait(empty(s), ((kt / STAGES - 1) & 1) as u32);
                        }
                        mbarrier_arrive_expect_tx(full(s), landed);
                        if mc.cn > 1 {
                            a.load_multicast(a_dst, m0, ka, full(s), (mc.col, mc.cn), row_mask);
                        } else {
                            a.load(a_dst, m0, ka, full(s));
                        }
                        if mc.cm > 1 {
                            b.load_multicast(b_dst, n0, kb, full(s), (mc.row, mc.cm), column_mask);
                        } else {
                            b.load(b_dst, n0, kb, full(s));
                        }
                    }
                }
            }
            // The producer warpgroup waits for the tile below and helps store it.
        } else {
            // Consumer warpgroup cw computes rows 64·cw.. of the tile.
            let cw = wg - 1;
            let peers = mc.peers();
            let mut d = [0f32; NACC];
            // The f32 sums of the slices (promoting kinds only).
            let mut sum = [0f32; NACC];
            // At least one slice even for k = 0 (the copy engine then fills it with zeros): a
            // path from the zeroed accumulators to the final wait that skips the loop would
            // make ptxas serialize every wgmma.
            let mut kt = 0;
            loop {
                let s = kt % STAGES;
                // SAFETY: initialized barrier.
                unsafe { mbarrier_wait(full(s), ((kt / STAGES) & 1) as u32) };
                // Rows 64·cw.. of op(A): 64 rows of 128 bytes (K-major) or the cw-th 64-wide
                // column block (MN-major): 8 KiB in either case.
                let a_base = stage(s) + (cw * 64 * WG_ROW_BYTES) as u32;
                let b_base = stage(s) + tile.a_bytes() as u32;
                if K::SPLIT {
                    // Heads at a_base and b_base, tails one single stage on; the small terms
                    // first.
                    let tail = tile.stage_bytes() as u32;
                    wgmma_fence();
                    for kk in 0..K::BK / K::KSTEP {
                        let (ah, bh) = (step_desc::<K>(None, a_base, kk), step_desc::<K>(None, b_base, kk));
                        let (at, bt) = (step_desc::<K>(None, a_base + tail, kk), step_desc::<K>(None, b_base + tail, kk));
                        // SAFETY: stage s is full; the whole warpgroup runs this.
                        unsafe {
                            K::mma::<false, false, NACC>(&mut d, at, bh);
                            K::mma::<false, false, NACC>(&mut d, ah, bt);
                            K::mma::<false, false, NACC>(&mut d, ah, bh);
                        }
                    }
                } else if K::REGA {
                    let f = rega_fragments(stage(s), cw, tid);
                    wgmma_fence();
                    for kk in 0..K::BK / K::KSTEP {
                        // SAFETY: stage s is full; the whole warpgroup runs this; `f` lives until
                        // the wait below.
                        unsafe { K::mma_rega::<NACC>(&mut d, &f[kk], step_desc::<K>(None, b_base, kk)) };
                    }
                } else {
                    wgmma_fence();
                    for kk in 0..K::BK / K::KSTEP {
                        let (da, db) = (step_desc::<K>(ta_smem.then_some(bm), a_base, kk), step_desc::<K>(tb_smem.then_some(bn), b_base, kk));
                        // SAFETY: stage s is full; the whole warpgroup runs this.
                        unsafe { K::mma::<TA, TB, NACC>(&mut d, da, db) };
                    }
                }
                wgmma_commit();
                if K::PROMOTE || K::REGA {
                    // Wait for this slice's group: its accumulators go into the f32 sums and a
                    // fresh accumulator starts the next (PROMOTE), or the fragments' registers
                    // are free (REGA); its stage is free at once. The other block on the
                    // multiprocessor keeps the tensor cores busy meanwhile.
                    wgmma_wait::<0>();
                    if K::PROMOTE {
                        unroll_acc(&mut sum, &mut d);
                    }
                    if tid % 128 == 0 {
                        // SAFETY: initialized barriers (the others': live until the cluster
                        // barrier before the epilogue).
                        unsafe { release(empty(kt % STAGES), multicast, peers) };
                    }
                    kt += 1;
                    if kt >= ktiles {
                        break;
                    }
                    continue;
                }
                // The group before this one has finished reading its stage: release it.
                wgmma_wait::<1>();
                if kt > 0 && tid % 128 == 0 {
                    // SAFETY: as above.
                    unsafe { release(empty((kt - 1) % STAGES), multicast, peers) };
                }
                kt += 1;
                if kt >= ktiles {
                    break;
                }
            }
            wgmma_wait::<0>();
            if K::PROMOTE {
                d = sum;
            }
            // Every consumer must be done reading the stages before any overwrites them with
            // its accumulators (every TMA copy has landed: each was waited for).
            named_barrier(1, 128 * CONS as u32);
            let lane = tid % 32;
            // Accumulator layout (per 8 columns j): d[4j..4j+2] at row r, d[4j+2..4j+4] at row
            // r + 8, columns 8j + 2·(lane%4) + {0, 1}, with r = 64·cw + 16·warp + lane/4.
            let r0 = 64 * cw + 16 * ((tid % 128) / 32) + lane / 4;
            let c0 = 2 * (lane % 4);
            let staged = staged_tile(base);
            // With SWAP the accumulators are Cᵀ's: stored transposed, rows of bm + 4 floats.
            let sldc = if SWAP { bm + 4 } else { ldc };
            unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] {
                if j < NACC / 4 {
                    unroll!(h in [0, 1] {
                        // SAFETY: inside the staged tile (bm rows of ldc floats over the stages,
                        // or bn rows of bm + 4 with SWAP).
                        unsafe {
                            let (r, c) = (r0 + 8 * h, c0 + 8 * j);
                            if SWAP {
                                *staged.add(c * sldc + r) = d[4 * j + 2 * h];
                                *staged.add((c + 1) * sldc + r) = d[4 * j + 2 * h + 1];
                            } else {
                                // One 8-byte store per pair of columns (`WgTile::ldc`).
                                st_shared_f32x2(base + ((r * sldc + c) * 4) as u32, [d[4 * j + 2 * h], d[4 * j + 2 * h + 1]]);
                            }
                        }
                    });
                }
            });
        }
        // With SWAP the block computed the bm×bn tile at (m0, n0) of Cᵀ and staged it as the
        // bn×bm tile at (n0, m0) of C: the epilogue below works on C.
        let (m0, n0, bm, bn, ldc) = if SWAP { (n0, m0, bn, bm, bm + 4) } else { (m0, n0, bm, bn, ldc) };

        // Epilogue through shared memory, by every thread of the block (the producer warpgroup
        // included): the consumers parked their accumulators in a padded row-major bm×bn tile
        // over the (now idle) stages; the block walks it with 16-byte loads and coalesced
        // 16-byte stores. Applying the epilogue straight from the registers would inline it
        // once per accumulator and store 8-byte fragments scattered over 8 rows; with the
        // consumers alone, the narrow tile's store loop (one warp per scheduler, 16 quads per
        // thread) took as long as its main loop (Nsight Compute, 256×1024×1024).
        if multicast {
            // Also: no block leaves, and no stage is overwritten, while another block may still
            // arrive on its barriers.
            cluster_sync();
        } else {
            sync_threads();
        }
        let staged = staged_tile(base);
        let threads = tile.threads() as usize;
        let quad = |idx: usize| {
            // SAFETY: idx < bm·bn/4: inside the staged tile; rows of ldc floats keep 16-byte
            // alignment.
            unsafe { staged.add((idx / (bn / 4)) * ldc + 4 * (idx % (bn / 4))) as *mut F32x4 }
        };
        // The staged tile's rows inside C (the rest would only be bounds-checked away).
        let rows = opaque(bm.min((p.m as usize).saturating_sub(m0)));
        let act = crate::math::Activation::from_code(p.act);
        // Quads of C per staged row (the splits move only those).
        let cq = opaque(bn.min((p.n as usize).saturating_sub(n0)).div_ceil(4));
        if p.splits > 1 && p.cluster != 0 {
            // Split-K in clusters: every block has its partial tile staged in its own shared
            // memory. Block z (rank z % cluster in its cluster) finishes rows rank·share.. of
            // the tile: it reads those quads of every block's tile in its cluster (distributed
            // shared memory, the loads of all ranks issued together) and adds them in rank
            // order. With one cluster per tile it stores them: no workspace, no counter, no
            // block idle while another sums. With more (`p.splits` / `p.cluster` groups of up
            // to 8 splits), it writes its share's sum to its group's workspace slot and counts
            // in on the share's counter; the last group's block of each share adds the groups'
            // sums in group order and stores them. The same bits every run either way, and
            // every share is finished by a different block (the workspace path below leaves
            // the whole tile to the last block: 64 splits of a 64×64 tile read 1 MiB there).
            cluster_sync();
            let csize = opaque(p.cluster as usize);
            let groups = opaque(p.splits as usize) / csize;
            let (rank, group) = (z as usize % csize, z as usize / csize);
            let share = rows.div_ceil(csize);
            let first_row = (rank * share).min(rows);
            let own_rows = share.min(rows - first_row);
            let tile_id = tile_m * tile_cols + tile_n;
            // Group g's slot: a bm×bn tile of floats, row-major. SAFETY (its callers): with
            // groups > 1 the host gives a workspace of tiles · groups · bm·bn floats and
            // MAX_CLUSTER_SPLITS counters per tile.
            let slot = |g: usize| unsafe { (p.ws as *mut f32).add((tile_id * groups + g) * bm * bn) };
            // Several quads per thread and pass, every rank's loads of all of them issued before
            // any sum: one round trip through distributed shared memory per pass, not per quad
            // (`CLUSTER_LOADS`).
            let own = own_rows * cq;
            let store = |r: usize, c4: usize, sum: [f32; 4]| {
                if groups == 1 {
                    // SAFETY: gemm_epilogue4 bounds-checks the row and columns against C.
                    unsafe { gemm_epilogue4_with::<true>(c, bias, p, act, m0 + r, n0 + c4, sum) };
                } else {
                    // SAFETY: inside this group's slot (r < bm, c4 + 4 ≤ bn), 16-byte aligned.
                    unsafe { *(slot(group).add(r * bn + c4) as *mut F32x4) = F32x4(sum) };
                }
            };
            let quads = (base, ldc, first_row, cq, own, csize, tid, threads);
            // Split g's block: rank g, or (cm·cn)·g + this block's place in its multicast cluster.
            let ranks = ((mc.cm * mc.cn) as u32, mc.place as u32);
            // The common epilogue on whole quads inside C, in its own loop: the general one
            // (bounds, alignment, β, every activation and the bf16 copy, per quad) left the
            // 128×256 tile in 3 splits waiting on instruction fetches for a third of its summing
            // (Nsight Compute, tn 1024×1024×4096; H200, docs/runs/2026-11-29-s38/u1).
            let plain = groups == 1 && n0 + 4 * cq <= p.n as usize && plain_epilogue(c, bias, p);
            let store_plain = |r: usize, c4: usize, sum: [f32; 4]| {
                // SAFETY: row m0 + r < m (r < own rows inside C) and the quad's columns lie
                // inside C (tested above).
                unsafe { store_plain_quad(c, bias, p, (m0 + r, n0 + c4), F32x4(sum)) };
            };
            // SAFETY (each): every rank's staged tile was published by the barrier above and
            // stays live until the barrier below; the share's quads lie inside it.
            unsafe {
                if plain {
                    cluster_sum_share_sized(quads, ranks, store_plain);
                } else {
                    cluster_sum_share_sized(quads, ranks, store);
                }
            }
            // No block leaves (freeing its shared memory) while another still reads it: every
            // read has returned (its sum stored), so the barrier orders no memory.
            cluster_sync_relaxed();
            if groups == 1 {
                return;
            }
            // SAFETY: the share's counter (tile_id · MAX_CLUSTER_SPLITS + rank < the host's
            // counters), zero between launches; every thread of the block calls it.
            let counter = unsafe { (p.sem as *mut u32).add(tile_id * MAX_CLUSTER_SPLITS + rank) };
            // SAFETY: as above.
            if !unsafe { crate::reduce::last_block_in(counter, groups as u32, tid == 0, sync_threads_or) } {
                return;
            }
            let mut q = tid;
            while q < own_rows * cq {
                let (r, c4) = (first_row + q / cq, 4 * (q % cq));
                let mut parts = [F32x4::ZERO; MAX_CLUSTER_SPLITS];
                unroll!(g in [0, 1, 2, 3, 4, 5, 6, 7] {
                    if g < groups {
                        // SAFETY: inside group g's slot, written before its block counted in.
                        parts[g] = unsafe { load_l2_x4(slot(g).add(r * bn + c4)) };
                    }
                });
                let mut sum = parts[0];
                unroll!(g in [1, 2, 3, 4, 5, 6, 7] {
                    if g < groups {
                        sum = sum.zip(parts[g], |a, b| a + b);
                    }
                });
                // SAFETY: gemm_epilogue4 bounds-checks the row and columns against C.
                unsafe { gemm_epilogue4_with::<true>(c, bias, p, act, m0 + r, n0 + c4, sum.0) };
                q += threads;
            }
            return;
        }
        if p.splits > 1 {
            // Split-K on the staged tile (the accumulator registers are dead by now: touching
            // them on a path only some blocks take makes ptxas serialize every wgmma). Only the
            // quads inside C travel: `q` numbers them row by row over the `cq` quads of each of
            // the `rows` rows that C has (a 32-row product on 64-row tiles moves half the tile).
            // Each thread publishes, and in the last block sums, the quads it stores below.
            let tile_id = tile_m * tile_cols + tile_n;
            let end = rows * cq;
            let staged_quad = |q: usize| quad((q / cq) * (bn / 4) + q % cq);
            // SAFETY: with split-K the host gives a counter per tile and a workspace of
            // tiles · splits · (bm·bn) floats (q < bm·bn/4); quads are 16-byte aligned in both.
            unsafe {
                let slab = |zz: usize| split_slot(p, tile_id, zz, bm * bn) as *mut F32x4;
                let own = slab(z as usize);
                let mut q = tid;
                while q < end {
                    *own.add(q) = *staged_quad(q);
                    q += threads;
                }
                if !split_count_in(p, tile_id, tid == 0, sync_threads_or) {
                    return;
                }
                // The last block sums the splits in z order, a chunk of 4 quads per thread at a
                // time held in registers, the loads of 4 splits issued together (one L2 round
                // trip per chunk and group of 4 splits; one per split and chunk made a wgmma
                // split cost about 4 µs), 16 quads in flight beside the kernel's other
                // registers.
                let splits = opaque(p.splits as usize);
                let mut first_q = tid;
                while first_q < end {
                    let mut sum = [F32x4::ZERO; 4];
                    let mut zz = 0;
                    while zz < splits {
                        let mut w = [[F32x4::ZERO; 4]; 4];
                        unroll!(g in [0, 1, 2, 3] {
                            if zz + g < splits {
                                let part = slab(zz + g) as *const f32;
                                unroll!(i in [0, 1, 2, 3] {
                                    let q = first_q + i * threads;
                                    if q < end {
                                        w[g][i] = load_l2_x4(part.add(4 * q));
                                    }
                                });
                            }
                        });
                        unroll!(g in [0, 1, 2, 3] {
                            if zz + g < splits {
                                unroll!(i in [0, 1, 2, 3] {
                                    sum[i] = if zz + g == 0 { w[g][i] } else { sum[i].zip(w[g][i], |a, b| a + b) };
                                });
                            }
                        });
                        zz += 4;
                    }
                    unroll!(i in [0, 1, 2, 3] {
                        let q = first_q + i * threads;
                        if q < end {
                            *staged_quad(q) = sum[i];
                        }
                    });
                    first_q += 4 * threads;
                }
            }
            // The epilogue below walks the staged tile in its own order: other threads' sums.
            sync_threads();
        }
        // Where C takes no quads, a thread's four values are one column of four staged rows
        // (group idx: rows 4·(idx / bn) + j, column idx % bn; `gemm_epilogue4_step`).
        let takes_quads = crate::matmul::c_takes_quads(c, bias, p);
        if rows == bm && n0 + bn <= p.n as usize && plain_epilogue(c, bias, p) {
            // SAFETY: the tile lies inside C (tested above), quads are 16-byte aligned.
            unsafe { store_whole_tile(staged, (bm, bn, ldc), c, bias, p, (m0, n0), (tid, threads)) };
            return;
        }
        let mut idx = tid;
        let end = if takes_quads { rows * (bn / 4) } else { rows.div_ceil(4) * bn };
        while idx < end {
            if takes_quads {
                let (r, c4) = (idx / (bn / 4), 4 * (idx % (bn / 4)));
                // SAFETY: inside the staged tile.
                let v = unsafe { *quad(idx) };
                // SAFETY: gemm_epilogue4 bounds-checks the row and columns against C.
                unsafe { gemm_epilogue4_step::<true>(c, bias, p, act, (m0 + r, n0 + c4), (0, 1), v.0) };
            } else {
                let (r, x) = (4 * (idx / bn), idx % bn);
                // SAFETY: inside the staged tile (bm rows, a multiple of 4, of ldc floats).
                let v = unsafe {
                    let at = staged.add(r * ldc + x);
                    [*at, *at.add(ldc), *at.add(2 * ldc), *at.add(3 * ldc)]
                };
                // SAFETY: as above.
                unsafe { gemm_epilogue4_step::<true>(c, bias, p, act, (m0 + r, n0 + x), (1, 0), v) };
            }
            idx += threads;
        }
    }

    /// Stores a staged tile that lies wholly inside C, on the common epilogue: α, the bias,
    /// identity or ReLU, no β·C and no bf16 copy. The general loop's tests (row and column
    /// bounds, alignment, β, the activation and the bf16 copy, per quad) made it
    /// instruction-bound: per-block clock stamps put the 128×256 tile's staging and store at
    /// 3.8 µs, beside 9.3 µs of main loop at 1024³ (H200, docs/runs/2026-11-27-s25/e1). Here
    /// each thread takes quads `tid`, `tid + threads`, …, four loads in flight before their
    /// stores.
    ///
    /// # Safety
    /// `staged` holds the bm×bn tile in rows of `ldc` floats (16-byte aligned quads); rows
    /// m0..m0 + bm and columns n0..n0 + bn lie inside C, which takes quads
    /// (`c_takes_quads`), as does the bias if `p.has_bias != 0`.
    #[inline(always)]
    unsafe fn store_whole_tile(
        staged: *mut f32,
        (bm, bn, ldc): (usize, usize, usize),
        c: *mut f32,
        bias: *const f32,
        p: &GemmParams,
        (m0, n0): (usize, usize),
        (tid, threads): (usize, usize),
    ) {
        let qpr = bn / 4;
        let end = bm * qpr;
        let finish = |q: usize, v: F32x4| {
            // SAFETY: inside C (the caller).
            unsafe { store_plain_quad(c, bias, p, (m0 + q / qpr, n0 + 4 * (q % qpr)), v) };
        };
        let load = |q: usize| {
            // SAFETY: q < bm·bn/4: inside the staged tile.
            unsafe { *(staged.add((q / qpr) * ldc + 4 * (q % qpr)) as *const F32x4) }
        };
        let mut q = tid;
        while q + 3 * threads < end {
            let v = [load(q), load(q + threads), load(q + 2 * threads), load(q + 3 * threads)];
            unroll!(u in [0, 1, 2, 3] { finish(q + u * threads, v[u]); });
            q += 4 * threads;
        }
        while q < end {
            finish(q, load(q));
            q += threads;
        }
    }

    /// Whether the epilogue is the common one [`store_plain_quad`] applies: α, the bias,
    /// identity or ReLU, no β·C, no bf16 copy, and C (and the bias) taking 16-byte quads.
    #[inline(always)]
    fn plain_epilogue(c: *mut f32, bias: *const f32, p: &GemmParams) -> bool {
        let act = p.act == crate::math::Activation::Identity as u32 || p.act == crate::math::Activation::Relu as u32;
        act && p.beta == 0.0 && p.c_bf16 == 0 && crate::matmul::c_takes_quads(c, bias, p)
    }

    /// The common epilogue ([`plain_epilogue`]) of the quad at (`row`, `col`..`col + 4`) of C:
    /// α·v plus the bias, then ReLU if asked, one 16-byte store.
    ///
    /// # Safety
    /// The quad lies inside C, and [`plain_epilogue`] holds.
    #[inline(always)]
    unsafe fn store_plain_quad(c: *mut f32, bias: *const f32, p: &GemmParams, (row, col): (usize, usize), v: F32x4) {
        let mut v = v.map(|x| p.alpha * x);
        if p.has_bias != 0 {
            // SAFETY: columns col.. lie inside the bias (length n), 16-byte aligned.
            let b = unsafe { *(bias.add(col) as *const F32x4) };
            v = v.zip(b, |x, b| x + b);
        }
        if p.act == crate::math::Activation::Relu as u32 {
            v = v.map(crate::math::relu);
        }
        // SAFETY: inside C (the caller), 16-byte aligned.
        unsafe { *(c.add(row * p.ldc as usize + col) as *mut F32x4) = v };
    }

    /// [`cluster_sum_share`] for a cluster of `csize` splits (`quads.5`): `CLUSTER_LOADS` quads
    /// in flight per thread over 2, 4 or 8 ranks.
    ///
    /// # Safety
    /// As [`cluster_sum_share`].
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    unsafe fn cluster_sum_share_sized(
        quads: (u32, usize, usize, usize, usize, usize, usize, usize),
        ranks: (u32, u32),
        store: impl Fn(usize, usize, [f32; 4]),
    ) {
        // SAFETY: forwarded.
        unsafe {
            match quads.5 {
                0..=2 => cluster_sum_share::<{ CLUSTER_LOADS / 2 }, 2>(quads, ranks, store),
                3..=4 => cluster_sum_share::<{ CLUSTER_LOADS / 4 }, 4>(quads, ranks, store),
                _ => cluster_sum_share::<{ CLUSTER_LOADS / MAX_CLUSTER_SPLITS }, MAX_CLUSTER_SPLITS>(quads, ranks, store),
            }
        }
    }

    /// Sums this block's share of a clustered split-K tile (`cluster_sync` passed): the quads
    /// `tid`, `tid + threads`, … below `own` (quad q: row `first_row + q / cq`, columns
    /// `4·(q % cq)..` of the staged tiles, rows of `ldc` floats at shared address `base`), each
    /// the sum in rank order of the quads at that place in the `csize` ≤ `G` blocks of the
    /// cluster (block g at rank `g·stride + offset`), handed to `store(row, column, sum)`. `U`
    /// quads per thread and pass, the loads of all of them issued before any sum: `U·G` quads
    /// in flight, the same registers whatever the cluster (`CLUSTER_LOADS`).
    ///
    /// # Safety
    /// Every rank's staged tile is published (a `cluster_sync` after its writes) and stays live
    /// until this returns; the quads lie inside it and are 16-byte aligned.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    unsafe fn cluster_sum_share<const U: usize, const G: usize>(
        (base, ldc, first_row, cq, own, csize, tid, threads): (u32, usize, usize, usize, usize, usize, usize, usize),
        (stride, offset): (u32, u32),
        store: impl Fn(usize, usize, [f32; 4]),
    ) {
        let place = |q: usize| (first_row + q / cq, 4 * (q % cq));
        let mut q = tid;
        while q < own {
            let mut parts = [[[0f32; 4]; G]; U];
            // Literal indices (`unroll!`), so the parts stay in registers.
            unroll!(u in [0, 1, 2, 3] {
                let qu = q + u * threads;
                if u < U && qu < own {
                    let (r, c4) = place(qu);
                    let local = base + ((r * ldc + c4) * 4) as u32;
                    unroll!(g in [0, 1, 2, 3, 4, 5, 6, 7] {
                        if g < G && g < csize {
                            // SAFETY: forwarded (block g's tile, 16-byte aligned).
                            parts[u][g] = unsafe { ld_shared_cluster_f32x4(map_shared_rank(local, g as u32 * stride + offset)) };
                        }
                    });
                }
            });
            unroll!(u in [0, 1, 2, 3] {
                let qu = q + u * threads;
                if u < U && qu < own {
                    let (r, c4) = place(qu);
                    let mut sum = parts[u][0];
                    unroll!(g in [1, 2, 3, 4, 5, 6, 7] {
                        if g < G && g < csize {
                            unroll!(e in [0, 1, 2, 3] { sum[e] += parts[u][g][e]; });
                        }
                    });
                    store(r, c4, sum);
                }
            });
            q += U * threads;
        }
    }

    /// sum += d, then d = 0, element by element.
    #[inline(always)]
    fn unroll_acc<const NACC: usize>(sum: &mut [f32; NACC], d: &mut [f32; NACC]) {
        for i in 0..NACC {
            sum[i] += d[i];
            d[i] = 0.0;
        }
    }

    /// The TMA boxes one operand's tile lands in, along m or n (one stage's k deep).
    #[derive(Clone, Copy)]
    struct OperandBoxes {
        /// MN-major: boxes one 128-byte row of m or n wide, coordinates (m or n, k).
        mn: bool,
        /// Rows of m or n per box (128 bytes each per k-row of a K-major tile).
        rows: usize,
        count: usize,
        map: u64,
        /// Pieces per box along k (MN-major boxes shared by a multicast cluster; 1 elsewhere).
        pieces: usize,
        /// k per piece (MN-major boxes shared by a multicast cluster).
        piece_k: usize,
    }

    impl OperandBoxes {
        /// The boxes of a `tile`-row tile with `inside` of its rows inside C: MN-major, boxes of
        /// `mn_box`, those past C skipped where `edges`; K-major, the whole tile in one box, or
        /// where `edges` and no more than [`kmajor_box_rows`] of it are inside C, one box of
        /// that many from `maps.1`.
        #[inline(always)]
        fn of(mn: bool, mn_box: usize, tile: usize, inside: usize, edges: bool, (map, edge_map): (u64, u64)) -> OperandBoxes {
            if mn {
                let all = tile.div_ceil(mn_box);
                let count = if edges { all.min(inside.div_ceil(mn_box)) } else { all };
                return OperandBoxes { mn, rows: mn_box, count, map, pieces: 1, piece_k: 0 };
            }
            let edge = edges && kmajor_box_rows(tile) < tile && inside <= kmajor_box_rows(tile);
            let rows = if edge { kmajor_box_rows(tile) } else { tile };
            OperandBoxes { mn, rows, count: 1, map: if edge { edge_map } else { map }, pieces: 1, piece_k: 0 }
        }

        /// The pieces of a `tile`-row operand tile shared by the `group` blocks of a multicast
        /// cluster, with `inside` of its rows inside C, boxes past C skipped
        /// ([`multicast_pieces`]): K-major, `group` boxes of `tile / group` rows from
        /// `maps.1`; MN-major, [`OperandBoxes::of`]'s boxes, each cut into as many pieces along
        /// k (`bk` per stage; from `maps.1` where more than one).
        #[inline(always)]
        fn shared(mn: bool, (mn_box, bk): (usize, usize), tile: usize, inside: usize, group: usize, (map, piece_map): (u64, u64)) -> OperandBoxes {
            let pieces = multicast_pieces(mn, tile, group);
            if mn {
                let boxes = OperandBoxes::of(true, mn_box, tile, inside, true, (map, piece_map));
                return OperandBoxes { pieces, piece_k: bk / pieces, map: if pieces > 1 { piece_map } else { map }, ..boxes };
            }
            let rows = tile / pieces;
            OperandBoxes { mn, rows, count: inside.div_ceil(rows).min(pieces), map: piece_map, pieces: 1, piece_k: 0 }
        }

        /// [`OperandBoxes::load`] of the pieces j with j % `group` = `first` (`pieces` per box,
        /// piece j landing j/pieces of a box's bytes on), each into the blocks of the cluster in
        /// `mask` at once.
        ///
        /// # Safety
        /// As `tma_load_2d_multicast`: every block in `mask` has room for the boxes at `dst` and
        /// expects their bytes on `bar`.
        #[inline(always)]
        unsafe fn load_multicast(self, dst: u32, x0: usize, k: i32, bar: u32, (first, group): (usize, usize), mask: u16) {
            // 32-bit, and shifts for the powers of two (the producer thread runs this once per
            // k-slice).
            let shift = self.pieces.trailing_zeros();
            let (rows, piece_k, x0) = (self.rows as u32, self.piece_k as u32, x0 as u32);
            let piece_bytes = (rows * WG_ROW_BYTES as u32) >> shift;
            let (end, mut j) = ((self.count as u32) << shift, first as u32);
            while j < end {
                let at = dst + j * piece_bytes;
                // SAFETY: forwarded.
                unsafe {
                    if self.mn {
                        let (x, kp) = (x0 + (j >> shift) * rows, k + ((j & ((1 << shift) - 1)) * piece_k) as i32);
                        tma_load_2d_multicast(at, self.map, x as i32, kp, bar, mask);
                    } else {
                        tma_load_2d_multicast(at, self.map, k, (x0 + j * rows) as i32, bar, mask);
                    }
                }
                j += group as u32;
            }
        }

        /// Issues the copies of k-slice `k` of the tile at `x0` (m or n) into `dst`, completing
        /// on barrier `bar`. Either orientation, box j lands 128·rows·j bytes in: an MN-major box
        /// is `rows` of m or n wide (one 128-byte row, or a narrower tile's width) and a slice
        /// deep (64 k of bf16: 128·rows bytes).
        ///
        /// # Safety
        /// As `tma_load_2d`: `dst` has room for the boxes, `bar` expects their bytes.
        #[inline(always)]
        unsafe fn load(self, dst: u32, x0: usize, k: i32, bar: u32) {
            for j in 0..self.count {
                let (dst, x) = (dst + (j * self.rows * WG_ROW_BYTES) as u32, (x0 + j * self.rows) as i32);
                // SAFETY: forwarded.
                unsafe {
                    if self.mn {
                        tma_load_2d(dst, self.map, x, k, bar);
                    } else {
                        tma_load_2d(dst, self.map, k, x, bar);
                    }
                }
            }
        }
    }

    /// A consumer warpgroup's release of the stage whose empty barrier is at `bar`: in this
    /// block, and with `multicast` in every other block whose copies also write the stage (its
    /// tile column's and its tile row's in the cluster `mc`).
    ///
    /// # Safety
    /// `bar` is an initialized barrier; with `multicast`, the others' are too and stay live (a
    /// cluster barrier follows the main loop).
    #[inline(always)]
    unsafe fn release(bar: u32, multicast: bool, peers: u32) {
        // SAFETY: forwarded.
        unsafe {
            mbarrier_arrive(bar);
            if multicast {
                // One arrival per peer, walking the set bits: the consumers run this between
                // two k-slices, so it stays a few instructions per peer (loops over the cluster's
                // rows and columns here made the pairs' main loop 2.6× as long: nn
                // 1024×784×4096 19.9 → 52 µs, H200, docs/runs/2026-11-28-s32/n1).
                let mut rest = peers;
                while rest != 0 {
                    mbarrier_arrive_cluster(map_shared_rank(bar, rest.trailing_zeros()));
                    rest &= rest - 1;
                }
            }
        }
    }

    /// A block's place in its TMA multicast cluster of `cm` × `cn` tiles
    /// (`WgKind::CLUSTER`): tile (`row`, `col`) of it, block `place` along x, the
    /// cluster's ranks from `base` (its split's along z).
    #[derive(Clone, Copy)]
    struct McCluster {
        cm: usize,
        cn: usize,
        row: usize,
        col: usize,
        place: usize,
        base: usize,
    }

    impl McCluster {
        /// A block alone.
        const ALONE: McCluster = McCluster { cm: 1, cn: 1, row: 0, col: 0, place: 0, base: 0 };

        /// This block's place in clusters of `cm` × `cn` tiles (the kind's, which the host
        /// launches).
        #[inline(always)]
        fn of((cm, cn): (usize, usize), p: &GemmParams) -> McCluster {
            let place = crate::thread::block_idx_x() as usize % (cm * cn);
            let z = if p.cluster != 0 { split_index(p) as usize % p.cluster as usize } else { 0 };
            McCluster { cm, cn, row: place % cm, col: place / cm, place, base: z * cm * cn }
        }

        /// The cluster rank of tile (i, j) of this block's split.
        #[inline(always)]
        fn rank(self, i: usize, j: usize) -> u32 {
            (self.base + i + self.cm * j) as u32
        }

        /// Blocks whose copies write into this block's stages: its tile column's and row's.
        #[inline(always)]
        fn writers(self) -> usize {
            self.cm + self.cn - 1
        }

        /// The other blocks whose copies write into this block's stages (its tile column's and
        /// row's), as a mask of cluster ranks: the consumers release each stage in them too.
        #[inline(always)]
        fn peers(self) -> u32 {
            (u32::from(self.row_mask()) | u32::from(self.column_mask())) & !(1 << self.rank(self.row, self.col))
        }

        /// The blocks of this block's tile row (they share op(A)).
        #[inline(always)]
        fn row_mask(self) -> u16 {
            let mut mask = 0;
            for j in 0..self.cn {
                mask |= 1 << self.rank(self.row, j);
            }
            mask
        }

        /// The blocks of this block's tile column (they share op(B)).
        #[inline(always)]
        fn column_mask(self) -> u16 {
            let mut mask = 0;
            for i in 0..self.cm {
                mask |= 1 << self.rank(i, self.col);
            }
            mask
        }
    }

    /// The k-slices of A and B that slice `g` of the product multiplies: the same one, or with
    /// FP32 on TF32 (`p.x3_slices` > 0, operands staged as [head | tail]) slice w of segment
    /// g / x3_slices: head·head, head·tail, tail·head.
    #[inline(always)]
    fn x3_slices(p: &GemmParams, g: usize) -> (usize, usize) {
        let seg = p.x3_slices as usize;
        if seg == 0 {
            return (g, g);
        }
        let (part, w) = (g / seg, g % seg);
        (if part == 2 { seg + w } else { w }, if part == 1 { seg + w } else { w })
    }

    /// The epilogue's staged C tile (row-major, `WgTile::ldc` floats per row) over the stages,
    /// which start at the 1024-aligned shared address `base`.
    #[inline(always)]
    fn staged_tile(base: u32) -> *mut f32 {
        let shared = dynamic_shared::<u8>();
        // SAFETY: `base` lies inside the dynamic shared memory (aligned up from its start).
        unsafe { shared.add((base - shared_addr(shared)) as usize) as *mut f32 }
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

/// Declares one wgmma GEMM entry point on tile `$tile` (`$threads` = its threads, `$blocks` the
/// blocks per multiprocessor its shared memory allows, for the launch bounds).
macro_rules! wgmma_kernel {
    ($(#[$doc:meta])* $name:ident, $kind:ident, $ta:literal, $tb:literal, $tile:ident, $threads:tt, $blocks:tt) => {
        wgmma_kernel!($(#[$doc])* $name, $kind, $ta, $tb, false, $tile, $threads, $blocks);
    };
    ($(#[$doc:meta])* $name:ident, $kind:ident, $ta:literal, $tb:literal, $swap:literal, $tile:ident, $threads:tt, $blocks:tt) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `map_a` and `map_b` describe A and B as the host's `TensorMap` builder does for this
        /// layout and tile (128-byte swizzle, boxes of one stage's tile), `edge_a` and `edge_b`
        /// the same with K-major boxes of `kmajor_box_rows` rows; `c` (f32, m rows of
        /// `p.ldc`) and `bias` (n f32 if `p.has_bias != 0`) are valid and disjoint from A and
        /// B. Launch: block `tile.threads()`, grid (⌈n/bn⌉, ⌈m/bm⌉),
        /// `tile.shared_transposing(xa, xb)` bytes of dynamic shared memory (the MN-major
        /// operands a TF32 kernel transposes); sm_90a only. Blocks take their tiles in
        /// `grouped_tile` order.
        /// Split-K over gridDim.z (`p.splits`, with a zeroed counter per tile at `p.sem`;
        /// `split.rs`).
        #[kernel(sm_90a, max_threads = $threads, min_blocks = $blocks)]
        pub unsafe fn $name(map_a: TensorMap, map_b: TensorMap, edge_a: TensorMap, edge_b: TensorMap, c: *mut f32, bias: *const f32, p: GemmParams) {
            const _: () = assert!($tile.threads() == $threads);
            let _ = (map_a, map_b, edge_a, edge_b);
            let (a, b) = (param_addr!($name, 0), param_addr!($name, 1));
            let edges = (param_addr!($name, 2), param_addr!($name, 3));
            // SAFETY: forwarded from the caller.
            unsafe {
                device::wgmma_gemm::<device::$kind, $ta, $tb, $swap, { $tile.consumers }, { $tile.bn / 2 }, { $tile.stages }>(a, b, edges, c, bias, &p)
            }
        }
    };
}

/// Declares the four BF16 layouts and the TF32 x·Wᵀ of one tile; `$suffix` names them
/// (`gemm_wgmma_bf16_kk$suffix`, …).
macro_rules! wgmma_kernels {
    ($tile:ident, $threads:tt, $blocks:tt, $kk:ident, $kn:ident, $mk:ident, $mn:ident, $tf32:ident) => {
        wgmma_kernel!(
            /// C = act(α·A·Bᵀ + bias + β·C) with bf16 A (m×k) and B (n×k), both k-contiguous:
            /// the dense layer's x·Wᵀ.
            $kk, Bf16, false, false, $tile, $threads, $blocks
        );
        wgmma_kernel!(
            /// C = act(α·A·B + …) with bf16 A (m×k) and B (k×n), both row-major.
            $kn, Bf16, false, true, $tile, $threads, $blocks
        );
        wgmma_kernel!(
            /// C = act(α·Aᵀ·Bᵀ + …) with bf16 A stored k×m and B stored n×k.
            $mk, Bf16, true, false, $tile, $threads, $blocks
        );
        wgmma_kernel!(
            /// C = act(α·Aᵀ·B + …) with bf16 A stored k×m and B stored k×n (a weight
            /// gradient's layout).
            $mn, Bf16, true, true, $tile, $threads, $blocks
        );
        wgmma_kernel!(
            /// C = act(α·A·Bᵀ + …) on TF32 tensor cores: f32 A (m×k) and B (n×k), both
            /// k-contiguous (TF32 `wgmma` reads no other layout), inputs rounded to TF32 by the
            /// hardware.
            $tf32, Tf32, false, false, $tile, $threads, $blocks
        );
    };
}

wgmma_kernels!(WG_WIDE, 384, 1, gemm_wgmma_bf16_kk, gemm_wgmma_bf16_kn, gemm_wgmma_bf16_mk, gemm_wgmma_bf16_mn, gemm_wgmma_tf32_kk);
/// Declares one kind's four layouts on tile `$tile` (one block per multiprocessor, 384 threads):
/// A stored m×k (`kk`, `kn`) or k×m (`mk`, `mn`), B stored n×k (`kk`, `mk`) or k×n (`kn`,
/// `mn`); `$what` says what they compute.
macro_rules! wgmma_four_layouts {
    ($what:literal, $kind:ident, $tile:ident, $kk:ident, $kn:ident, $mk:ident, $mn:ident) => {
        wgmma_four_layouts!($what, $kind, $tile, 384, 1, $kk, $kn, $mk, $mn);
    };
    ($what:literal, $kind:ident, $tile:ident, $threads:tt, $blocks:tt, $kk:ident, $kn:ident, $mk:ident, $mn:ident) => {
        wgmma_kernel!(
            #[doc = concat!($what, ": A (m×k) and B (n×k), both k-contiguous.")]
            $kk,
            $kind,
            false,
            false,
            $tile,
            $threads,
            $blocks
        );
        wgmma_kernel!(
            #[doc = concat!($what, ": A (m×k) and B (k×n), both row-major.")]
            $kn,
            $kind,
            false,
            true,
            $tile,
            $threads,
            $blocks
        );
        wgmma_kernel!(
            #[doc = concat!($what, ": A stored k×m (op(A) = Aᵀ) and B (n×k).")]
            $mk,
            $kind,
            true,
            false,
            $tile,
            $threads,
            $blocks
        );
        wgmma_kernel!(
            #[doc = concat!($what, ": A stored k×m and B stored k×n (a weight gradient's layout).")]
            $mn,
            $kind,
            true,
            true,
            $tile,
            $threads,
            $blocks
        );
    };
}

wgmma_four_layouts!(
    "C = act(α·op(A)·op(B) + bias + β·C) in bf16 on the 128×208 tile ([`WG_WIDE_208`])",
    Bf16,
    WG_WIDE_208,
    gemm_wgmma_bf16_kk_128x208,
    gemm_wgmma_bf16_kn_128x208,
    gemm_wgmma_bf16_mk_128x208,
    gemm_wgmma_bf16_mn_128x208
);
wgmma_four_layouts!(
    "C = act(α·op(A)·op(B) + bias + β·C) in bf16 on the 128×192 tile ([`WG_WIDE_192`])",
    Bf16,
    WG_WIDE_192,
    gemm_wgmma_bf16_kk_128x192,
    gemm_wgmma_bf16_kn_128x192,
    gemm_wgmma_bf16_mk_128x192,
    gemm_wgmma_bf16_mn_128x192
);
wgmma_four_layouts!(
    "C = act(α·op(A)·op(B) + bias + β·C) in bf16 on the 64×128 tile ([`WG_NARROW`]) in TMA multicast pairs (`device::Bf16Pairs`)",
    Bf16Pairs,
    WG_NARROW,
    256,
    2,
    gemm_wgmma_bf16_kk_64x128_pairs,
    gemm_wgmma_bf16_kn_64x128_pairs,
    gemm_wgmma_bf16_mk_64x128_pairs,
    gemm_wgmma_bf16_mn_64x128_pairs
);
wgmma_four_layouts!(
    "C = act(α·op(A)·op(B) + bias + β·C) in bf16 on the 128×192 tile ([`WG_WIDE_192`]) in TMA multicast pairs (`device::Bf16Pairs`)",
    Bf16Pairs,
    WG_WIDE_192,
    gemm_wgmma_bf16_kk_128x192_pairs,
    gemm_wgmma_bf16_kn_128x192_pairs,
    gemm_wgmma_bf16_mk_128x192_pairs,
    gemm_wgmma_bf16_mn_128x192_pairs
);
wgmma_four_layouts!(
    "C = act(α·op(A)·op(B) + bias + β·C) in bf16 on the 64×128 tile, eight stages ([`WG_NARROW_DEEP`])",
    Bf16,
    WG_NARROW_DEEP,
    256,
    1,
    gemm_wgmma_bf16_kk_64x128_deep,
    gemm_wgmma_bf16_kn_64x128_deep,
    gemm_wgmma_bf16_mk_64x128_deep,
    gemm_wgmma_bf16_mn_64x128_deep
);
wgmma_four_layouts!(
    "C = act(α·op(A)·op(B) + bias + β·C) in bf16 on the 64×128 tile, eight stages ([`WG_NARROW_DEEP`]), in TMA multicast pairs (`device::Bf16Pairs`)",
    Bf16Pairs,
    WG_NARROW_DEEP,
    256,
    1,
    gemm_wgmma_bf16_kk_64x128_deep_pairs,
    gemm_wgmma_bf16_kn_64x128_deep_pairs,
    gemm_wgmma_bf16_mk_64x128_deep_pairs,
    gemm_wgmma_bf16_mn_64x128_deep_pairs
);
wgmma_four_layouts!(
    "C = act(α·op(A)·op(B) + bias + β·C) in bf16 on the 64×128 tile ([`WG_NARROW`]) in TMA multicast clusters of 2 × 2 tiles (`device::Bf16Quads`)",
    Bf16Quads,
    WG_NARROW,
    256,
    2,
    gemm_wgmma_bf16_kk_64x128_quads,
    gemm_wgmma_bf16_kn_64x128_quads,
    gemm_wgmma_bf16_mk_64x128_quads,
    gemm_wgmma_bf16_mn_64x128_quads
);
wgmma_four_layouts!(
    "C = act(α·op(A)·op(B) + bias + β·C) in bf16 on the 128×192 tile ([`WG_WIDE_192`]) in TMA multicast clusters of 2 × 2 tiles (`device::Bf16Quads`)",
    Bf16Quads,
    WG_WIDE_192,
    gemm_wgmma_bf16_kk_128x192_quads,
    gemm_wgmma_bf16_kn_128x192_quads,
    gemm_wgmma_bf16_mk_128x192_quads,
    gemm_wgmma_bf16_mn_128x192_quads
);
wgmma_kernel!(
    /// `gemm_wgmma_tf32_kk` on the 128×208 tile (K-major operands only: MN-major ones are
    /// staged first).
    gemm_wgmma_tf32_kk_128x208, Tf32, false, false, WG_WIDE_208, 384, 1
);
/// Declares the swapped forms of the four BF16 layouts on tile `$tile`: each computes Cᵀ =
/// op(B)ᵀ·op(A)ᵀ (its grid over n×m, `map_a` describing B and `map_b` A) and stores the tile
/// transposed, for products whose n the tiles cover worse than their m (the MLP's n = 784
/// layers: nn 4096×784×4096 took 62 µs on 128×208 tiles, whose op(B) is MN-major; H100,
/// docs/runs/2026-11-24-h100-s14). Named by the layout of A and B they serve.
macro_rules! wgmma_swapped_kernels {
    ($tile:ident, $kk:ident, $kn:ident, $mk:ident, $mn:ident) => {
        wgmma_swapped_kernels!($tile, 384, 1, $kk, $kn, $mk, $mn);
    };
    ($tile:ident, $threads:tt, $blocks:tt, $kk:ident, $kn:ident, $mk:ident, $mn:ident) => {
        wgmma_kernel!(
            /// `gemm_wgmma_bf16_kk` (A m×k, B n×k) as Cᵀ = B·Aᵀ: both k-contiguous.
            $kk, Bf16, false, false, true, $tile, $threads, $blocks
        );
        wgmma_kernel!(
            /// `gemm_wgmma_bf16_kn` (A m×k, B k×n) as Cᵀ = Bᵀ·Aᵀ: op(A) = Bᵀ MN-major.
            $kn, Bf16, true, false, true, $tile, $threads, $blocks
        );
        wgmma_kernel!(
            /// `gemm_wgmma_bf16_mk` (A k×m, B n×k) as Cᵀ = B·A: op(B) = A MN-major.
            $mk, Bf16, false, true, true, $tile, $threads, $blocks
        );
        wgmma_kernel!(
            /// `gemm_wgmma_bf16_mn` (A k×m, B k×n) as Cᵀ = Bᵀ·A: both MN-major.
            $mn, Bf16, true, true, true, $tile, $threads, $blocks
        );
    };
}

wgmma_swapped_kernels!(WG_WIDE, gemm_wgmma_bf16_kk_swapped, gemm_wgmma_bf16_kn_swapped, gemm_wgmma_bf16_mk_swapped, gemm_wgmma_bf16_mn_swapped);
// The swapped tile (bn rows of bm + 4 floats) fits over the stages.
const _: () = assert!(WG_WIDE.bn * (WG_WIDE.bm() + 4) * 4 <= WG_WIDE.stages * WG_WIDE.stage_bytes());

/// Declares the TF32 kernels that transpose MN-major operands in shared memory on tile `$tile`
/// (a `*_T` tile; `$both` for the kernel that transposes both): op(B) stored k×n, op(A) stored
/// k×m, both.
macro_rules! wgmma_tf32_transposing {
    ($tile:ident, $both:ident, $threads:tt, $blocks:tt, $kn:ident, $mk:ident, $mn:ident) => {
        wgmma_kernel!(
            /// C = act(α·A·B + …) on TF32 tensor cores with f32 A (m×k) and B (k×n), both
            /// row-major: B's tiles are transposed to K-major in shared memory.
            $kn, Tf32, false, true, $tile, $threads, $blocks
        );
        wgmma_kernel!(
            /// C = act(α·Aᵀ·Bᵀ + …) on TF32 tensor cores with f32 A stored k×m and B stored n×k:
            /// A's tiles are transposed to K-major in shared memory.
            $mk, Tf32, true, false, $tile, $threads, $blocks
        );
        wgmma_kernel!(
            /// C = act(α·Aᵀ·B + …) on TF32 tensor cores with f32 A stored k×m and B stored k×n
            /// (a weight gradient's layout): both operands' tiles are transposed in shared memory.
            $mn, Tf32, true, true, $both, $threads, $blocks
        );
    };
}

wgmma_tf32_transposing!(WG_WIDE_T, WG_WIDE_TT, 384, 1, gemm_wgmma_tf32_kn, gemm_wgmma_tf32_mk, gemm_wgmma_tf32_mn);
wgmma_tf32_transposing!(WG_NARROW_T, WG_NARROW_TT, 256, 2, gemm_wgmma_tf32_kn_64x128, gemm_wgmma_tf32_mk_64x128, gemm_wgmma_tf32_mn_64x128);
wgmma_tf32_transposing!(WG_SMALL_T, WG_SMALL_T, 256, 2, gemm_wgmma_tf32_kn_64x64, gemm_wgmma_tf32_mk_64x64, gemm_wgmma_tf32_mn_64x64);
wgmma_kernels!(
    WG_SMALL,
    256,
    2,
    gemm_wgmma_bf16_kk_64x64,
    gemm_wgmma_bf16_kn_64x64,
    gemm_wgmma_bf16_mk_64x64,
    gemm_wgmma_bf16_mn_64x64,
    gemm_wgmma_tf32_kk_64x64
);
wgmma_kernels!(
    WG_NARROW,
    256,
    2,
    gemm_wgmma_bf16_kk_64x128,
    gemm_wgmma_bf16_kn_64x128,
    gemm_wgmma_bf16_mk_64x128,
    gemm_wgmma_bf16_mn_64x128,
    gemm_wgmma_tf32_kk_64x128
);
wgmma_four_layouts!(
    "C = act(α·op(A)·op(B) + bias + β·C) in bf16 on the 64×32 tile ([`WG_SLIM`]; a 32-wide MN-major op(B) in 64-byte rows): products with few columns",
    Bf16,
    WG_SLIM,
    256,
    2,
    gemm_wgmma_bf16_kk_64x32,
    gemm_wgmma_bf16_kn_64x32,
    gemm_wgmma_bf16_mk_64x32,
    gemm_wgmma_bf16_mn_64x32
);
// The 64×32 tile on Cᵀ: products with few rows, op(A)'s 32-row tiles beside 64 rows of op(B).
wgmma_swapped_kernels!(
    WG_SLIM,
    256,
    2,
    gemm_wgmma_bf16_kk_64x32_swapped,
    gemm_wgmma_bf16_kn_64x32_swapped,
    gemm_wgmma_bf16_mk_64x32_swapped,
    gemm_wgmma_bf16_mn_64x32_swapped
);
wgmma_kernel!(
    /// FP32 products on TF32 tensor cores on the 128×128 tile: A and B staged as [head | tail]
    /// k-contiguous rows (`x3_slices` per segment), three k-segments head·head, head·tail,
    /// tail·head, each slice's `wgmma` sum added to f32 registers.
    gemm_wgmma_tf32x3_kk_128x128, Tf32x3, false, false, WG_MID, 384, 1
);
wgmma_four_layouts!(
    "FP32 products on TF32 tensor cores on the 128×128 tile, each landed f32 tile split into TF32 heads and tails in shared memory (`device::Tf32x3Split`, no staging pass)",
    Tf32x3Split,
    WG_MID_S,
    gemm_wgmma_tf32x3s_kk_128x128,
    gemm_wgmma_tf32x3s_kn_128x128,
    gemm_wgmma_tf32x3s_mk_128x128,
    gemm_wgmma_tf32x3s_mn_128x128
);
wgmma_kernel!(
    /// C = act(α·Aᵀ·Bᵀ + …) on TF32 tensor cores with f32 A stored k×m and B stored n×k on the
    /// 64×128 tile: op(A)'s MN-major tile lands as it is and each consumer reads its fragments
    /// into registers (`device::Tf32RegA`).
    gemm_wgmma_tf32_mk_rega_64x128, Tf32RegA, true, false, WG_NARROW, 256, 2
);
wgmma_kernel!(
    /// C = act(α·Aᵀ·B + …) on TF32 tensor cores with f32 A stored k×m and B stored k×n (both
    /// MN-major) on the 64×128 tile, three stages: op(A) read into registers as it landed, op(B)
    /// transposed in shared memory by the producers (`device::Tf32RegAT`), no staging pass.
    gemm_wgmma_tf32_mn_rega_64x128, Tf32RegAT, true, true, WG_NARROW_T, 256, 2
);
wgmma_kernel!(
    /// `gemm_wgmma_tf32_mk_rega_64x128` on the 128×192 tile ([`WG_REGA_WIDE`], two consumers):
    /// large products, where the 64×128 tile's operand traffic per product caps its rate.
    gemm_wgmma_tf32_mk_rega_128x192, Tf32RegA, true, false, WG_REGA_WIDE, 384, 1
);
wgmma_kernel!(
    /// `gemm_wgmma_tf32_kn_rega_64x128` on the 128×192 tile ([`WG_REGA_WIDE`], two consumers).
    gemm_wgmma_tf32_kn_rega_128x192, Tf32RegA, true, false, true, WG_REGA_WIDE, 384, 1
);
wgmma_kernel!(
    /// C = act(α·A·B + …) on TF32 tensor cores with f32 A (m×k) and B (k×n), both row-major, as
    /// Cᵀ = Bᵀ·Aᵀ on the 64×128 tile (64 columns × 128 rows of C per block): `map_a` describes
    /// B (its k×n tiles are op(A) of the product, read into registers) and `map_b` describes A;
    /// the tile is stored transposed.
    gemm_wgmma_tf32_kn_rega_64x128, Tf32RegA, true, false, true, WG_NARROW, 256, 2
);

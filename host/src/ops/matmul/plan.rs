//! How a GEMM is run: which tile kernel, and into how many k-ranges (split-K) it is cut.
//!
//! The rule is a small cost model, not a table of shapes. For every tile kernel that can run the
//! product and every split count, it estimates the time of the slowest multiprocessor:
//!
//! ```text
//! blocks   = ⌈m/BM⌉·⌈n/BN⌉ · splits            (split s multiplies k-slices s·per ..)
//! L        = ⌈blocks / SMs⌉                     (blocks per multiprocessor, in turn or together)
//! rate(L)  = eff · min(1, min(L, resident)·warps / 8)
//! time     = L · (per·BK + fixed / min(L, resident))·BM·BN / rate(L)
//!            + (splits − 1)·split·BM·BN / eff
//! ```
//!
//! A `wgmma` plan whose splits run as thread-block clusters is costed in rounds instead: the
//! clusters the device keeps resident at once with one block per multiprocessor
//! ([`Multiprocessors`], asked of the driver) run together, the rest in further rounds, each
//! round at one block's rate (`rounds · (per·BK + fixed + cluster_fixed)·BM·BN / eff` plus the
//! cluster reduction).
//!
//! `eff` is the kernel's throughput per multiprocessor when it is full, relative to the
//! fastest kernel of its precision; a multiprocessor needs about 8 warps in flight before it
//! issues at full rate, so a lone 2-warp block runs at a quarter of it. `fixed` is the
//! per-block cost outside the main loop (prologue, pipeline fill, epilogue) in k-steps, partly
//! hidden when several blocks share a multiprocessor; `split` the round trip of a partial tile
//! through the workspace. TF32 and BF16 choose between `wgmma` (128×256, 64×128 and 64×64
//! tiles, and 128×208 where it saves columns; a large fixed cost; up to 8 splits of a tile run
//! as one thread-block cluster and add their partial tiles through distributed shared memory at
//! the cost `cluster_split`, more go through the workspace) and the `mma.sync` tiles (128×128 and 64×64, cheap to start); a
//! `wgmma` plan that first stages its operands adds the staging pass's cost
//! ([`staging_cost`]), a TF32 one that transposes them in shared memory runs slower
//! ([`Tf32Staging`]). The TF32 and BF16 constants were refitted with the cluster splits on 54
//! shapes in three layouts (the 26 of the seventh pass, 12 more MLP and square shapes, 16
//! log-uniform random ones; docs/runs/2026-11-23-h100-s8/r6): the pick within 4.1 % (BF16) and
//! 4.7 % (TF32) of the best plan on geometric mean over 162 cases each, from 8.5 % and 9.8 %
//! with the constants before; with the 128×208 tile among the timed plans (`r8`, BF16) 5.2 %.
//! Session 9 added the splits past 8 in clusters of 8 (their sums meet in the workspace) and a
//! clustered block's fixed cost (`cluster_fixed`), refitted on those 162 cases per precision
//! plus the 64-row tiles' plans of docs/runs/2026-11-23-h100-s9/e1-e5 (long-k and small
//! products): 5.6 % (BF16) and 5.1 % (TF32) over 175 and 170 cases, from 6.0 and 5.2 with the
//! constants before. Two fitted values were overruled, as they fitted these cases but not the
//! sweep (`r3`): the 128×208 tile's fixed cost of 0 (BF16 128³ then ran on it, 8.5 µs against
//! 2.7) and a 64×64 workspace split cheaper than a cluster split (48×3000×7000 then took 11
//! workspace splits, 31 µs against 21); the 128×208 tile keeps its constants, and the 64×64
//! tile's workspace split costs what its cluster split does. The `wgmma` kernels' per-block time for lone blocks is not what the model
//! says (a 64×128 block streams a k-slice about as fast as a 64×64 one, about 250 ns, e1-e3);
//! a per-slice floor for them fitted worse (it made the model split more), so it is not in.
//!
//! `Tf32Auto` also weighs TF32 with an MN-major operand read into registers
//! ([`GemmKernel::Tf32WgmmaRegA`], no staging or transposing pass for it; its model over n×m
//! when it swaps the operands; docs/runs/2026-11-24-h100-s11/e6, r5).
//!
//! FP32 `Auto` on sm_90a also weighs FP32 on TF32 tensor cores ([`choose_f32`]): the staged x3
//! tile's model over three k-segments plus its staging pass, and the form that splits its
//! operands in the kernel ([`GemmKernel::Tf32x3Split`]) over k itself, in TF32 units converted
//! by the measured rate of the two families ([`TF32_UNIT_IN_F32`]), fitted to every split of
//! them and of the CUDA-core tiles (docs/runs/2026-11-24-h100-s11/e5, docs/runs/2026-11-24-h100-s15/e4).
//!
//! `cargo bench -p benches --bench plan_replay FILES` scores these rules, through
//! [`super::auto_plan`], against plan files `gemm_plans` wrote: how far each product's pick is
//! from the fastest plan timed (session 27 refitted `Tf32Wgmma64x64` and chose its `Auto` rules
//! with it).
//!
//! The constants are fitted, not tuned by hand: `cargo bench -p benches --bench gemm_plans`
//! times every (kernel, splits) on 30 shapes × 3 layouts × 3 precisions, and
//! `benches/fit/plan_fit.py --search` picks the eff, fixed and split of each kernel that make
//! the model's pick closest to the fastest measured plan (H100, docs/gemm-sweep.md: the pick
//! is within 4–6 % of the best plan on geometric mean). The FP32 tiles' constants were refitted
//! with `Tile64Fine` over the 30 shapes, 21 small ones and 12 odd ones (4-byte loads), in all
//! four layouts, and 16 shapes in three layouts whose pick an earlier fit had made slower
//! (docs/runs/2026-11-23-h100-s6/r2, r3, r5): the pick within 2.1 % of the best over 203
//! cases, from 5.5 % with the constants before. What they encode is general (waves,
//! occupancy, fixed and split costs), so shapes outside the sweep follow the same reasoning.

use super::{Bf16Kernel, Bf16Plan, GemmKernel, Multicast};
use crate::context::{SPLIT_COUNTERS, SPLIT_WORKSPACE};

/// How [`super::gemm_with_plan`] runs one product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GemmPlan {
    /// A concrete kernel (never `Auto` or `Tf32Auto`).
    pub kernel: GemmKernel,
    /// Blocks along k per output tile (1: no split-K). Only the tile kernels
    /// ([`TileModel::of`] is `Some`) split.
    pub splits: u32,
}

/// Most k-ranges one tile is cut into: enough for a single 64×64 tile with k = 16384 to fill
/// 64 multiprocessors with 256-deep ranges.
pub const MAX_SPLITS: u32 = 64;

/// The split counts `gemm_plans` times for the fit. The model itself chooses among all of
/// 1..=[`MAX_SPLITS`]: limited to these, it lost more than it gained (FP32 sweep: 32×784×4096
/// went from 20 splits of `Tile64` to 64 of `Tile64Fine`, 1.8× slower; 1024×784×1024 1.3×;
/// H100, docs/runs/2026-11-23-h100-s6/final2).
pub const SPLIT_CHOICES: [u32; 11] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64];

/// Fewest k-slices per split: shorter ranges spend more on the prologue and the serialized
/// epilogue than they gain.
const MIN_SLICES_PER_SPLIT: usize = 4;
/// Fewest k-slices per split of the big-contiguous narrow kernel ([`GemmKernel::NarrowMn`]): 2
/// (64 k, one turn of its 8 warps at 8 k-rows each), where the tiles take 4. Its few blocks
/// (128 big indices each) otherwise stop splitting at a short k: f32 tn 10×4096×256 ran 7.8 µs
/// in 4 splits against 8.7 in 2, nn 6×1041×257 6.1 in 5 against 8.2 in 2, tn 454×1×1813 6.3 in
/// 29 against 6.8 in 15, 2000×7×1501 0.93–0.99 of its time (f32, TF32, BF16; H200,
/// docs/runs/2026-11-28-s31/m2). The k-contiguous form keeps 4: a lane reads four k of every
/// 128, so a 64-k split idles half the lanes, and it ran 1.03–1.39 times as long there (nt
/// 1582×2×111 4.2 µs in 2 splits against 3.0 in 1, tt 4×112×2266 5.2 in 36 against 4.7 in 18).
const NARROW_MN_MIN_SLICES: usize = 2;
/// Fewest k-slices per split of a cluster split, whose blocks all finish a share of the tile
/// (no serialized epilogue).
const MIN_SLICES_PER_CLUSTER_SPLIT: usize = 2;
/// Most splits of a tile one cluster holds (`kernels::matmul::MAX_CLUSTER_SPLITS`).
pub const MAX_CLUSTER_SPLITS: u32 = kernels::matmul::MAX_CLUSTER_SPLITS as u32;

/// Warps a multiprocessor needs in flight to issue at its full rate.
const SAT_WARPS: f64 = 8.0;
/// A split must beat the unsplit product by this factor: below it the gain is in the noise
/// of the model, and the unsplit product is simpler (one write of C).
const SPLIT_GAIN: f64 = 0.95;

/// A staging pass's launch, in model units.
const STAGE_LAUNCH: f64 = 1.0e6;
/// A staging pass's cost per element and multiprocessor, in model units.
const STAGE_PER_ELEMENT: f64 = 500.0;

/// The multiprocessors a plan is made for: how many, and how many thread-block clusters of each
/// size up to [`MAX_CLUSTER_SPLITS`] the device keeps resident at once with one block per
/// multiprocessor (`cuOccupancyMaxActiveClusters`). A cluster's blocks share one GPC, so
/// clusters do not pack every multiprocessor: an H100's 132 hold 66 clusters of 2, 39 of 3, 30
/// of 4 and 15 of 8 (120 blocks; docs/runs/2026-11-25-h100-s13/e2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Multiprocessors {
    pub count: usize,
    /// Resident clusters by size (index 0 unused).
    clusters: [usize; MAX_CLUSTER_SPLITS as usize + 1],
}

impl Multiprocessors {
    /// `count` multiprocessors whose clusters pack all of them (`count / size` resident): a
    /// device without clusters, or a model of one.
    pub const fn packed(count: usize) -> Multiprocessors {
        let mut clusters = [0; MAX_CLUSTER_SPLITS as usize + 1];
        let mut size = 1;
        while size < clusters.len() {
            clusters[size] = count / size;
            size += 1;
        }
        Multiprocessors { count, clusters }
    }

    /// `count` multiprocessors keeping `clusters[size]` clusters of each size resident.
    pub const fn with_clusters(count: usize, clusters: [usize; MAX_CLUSTER_SPLITS as usize + 1]) -> Multiprocessors {
        Multiprocessors { count, clusters }
    }

    /// An H100 SXM's (e2 above): the cost model's constants were fitted on it.
    pub const H100: Multiprocessors = Multiprocessors::with_clusters(132, [0, 132, 66, 39, 30, 22, 17, 15, 15]);

    /// Resident clusters by size (index 0 unused), as [`Multiprocessors::with_clusters`] takes them.
    pub const fn resident_clusters(&self) -> [usize; MAX_CLUSTER_SPLITS as usize + 1] {
        self.clusters
    }

    /// Clusters of `size` blocks resident at once (at least one).
    pub fn cluster_capacity(&self, size: u32) -> usize {
        self.clusters.get(size as usize).copied().unwrap_or(0).max(1)
    }
}

/// The fixed cost (k-steps) of the 128-row TF32 `wgmma` tiles ([`GemmKernel::Tf32Wgmma`],
/// [`GemmKernel::Tf32Wgmma128x208`], [`GemmKernel::Tf32WgmmaRegAWide`]); see
/// [`TileModel::of`].
const TF32_WIDE_FIXED: f64 = 128.0;

/// What the cost model knows of one tile kernel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TileModel {
    pub bm: usize,
    pub bn: usize,
    /// k per main-loop slice (the unit of split ranges).
    pub bk: usize,
    /// Blocks resident per multiprocessor (registers and shared memory).
    pub resident: usize,
    /// Warps per block doing the multiply, as the occupancy rule counts them: a `wgmma`
    /// consumer warpgroup counts 8, since one keeps the tensor cores as busy as the
    /// multiprocessor's shared memory allows (two 64×128 blocks on one multiprocessor ran no
    /// faster than one, gemm_plans on an H100); a warp of 8×8 (or 8×16) outputs per thread
    /// counts 2, since its 64 independent FMA chains keep a scheduler issuing alone (fitted:
    /// counting them once, the model split 1024×1024×256 over 128×128 tiles, 25 µs, where
    /// one 128×64 tile per block took 18; H100, docs/runs/2026-11-23-h100-s6).
    pub warps: usize,
    /// Throughput per multiprocessor when full, relative to the fastest kernel of the precision.
    pub eff: f64,
    /// Per-block cost outside the main loop (prologue, pipeline fill, epilogue), in k-steps.
    pub fixed: f64,
    /// Cost of each further split of a tile, in k-steps: its partial tile's round trip through
    /// the workspace.
    pub split: f64,
    /// Fewest k-slices per split (not clustered): [`MIN_SLICES_PER_SPLIT`], or
    /// [`NARROW_MN_MIN_SLICES`].
    pub min_slices: usize,
    /// Most splits of a tile worth considering: [`MAX_SPLITS`], or two clusters'
    /// ([`MAX_CLUSTER_SPLITS`]) for [`GemmKernel::Tf32x3Split`].
    pub max_splits: u32,
    /// The `wgmma` kernels: up to [`MAX_CLUSTER_SPLITS`] splits of a tile run as one
    /// thread-block cluster and add their partial tiles through distributed shared memory, at
    /// this cost per element of the partial tile inside C (in the units of `split`), with no
    /// workspace; multiples of 8 run as clusters of 8 whose sums meet in the workspace; other
    /// counts take the workspace. These kernels stage the tile in shared memory first, so
    /// either way a split moves only its part inside C ([`TileModel::split_in_c`]).
    pub cluster_split: Option<f64>,
    /// A clustered block's fixed cost on top of `fixed`, in k-steps (the cluster's barriers and
    /// its launch).
    pub cluster_fixed: f64,
    /// The latency a split plan adds once, whatever its split count, in k-steps of a lone
    /// block: the partial tiles' write, the counter and the last block's reads, one after the
    /// other ([`CUDA_CORE_SPLIT_LATENCY`]).
    pub split_latency: f64,
}

/// [`TileModel::split_latency`] of the FP32 CUDA-core tiles. Their split costs were fitted
/// per further split, where a long k splits anyway; on short main loops the round trip itself
/// decided, which the model priced at almost nothing (4 k-steps for the 32-wide tiles, 0 for
/// `Tile64Fine`): tt 110×1959×98 ran in 2 splits in 8.7 µs where 1 took 6.3, tt 3550×27×120
/// 9.0 against 6.9, tn 24×238×4476 in 32 splits of `Tile64Fine` 15.7 against 11.7 on the
/// 32×64 tile (H100, docs/runs/2026-11-28-s27/h1). At 64 (with `Tile64Fine`'s warps counted
/// as six) benches/fit/plan_fit.py scores the FP32 picks of those 14 products within 2.3 % of
/// the best plan on geometric mean, from 12.7 %, and 316 FP32 products of the H100 plan files
/// (s13 `e4`, s20 `d2` `d4`, s21 `d2` `d3`) 8.3 % from 8.9 %.
pub const CUDA_CORE_SPLIT_LATENCY: f64 = 64.0;

/// A tile kernel's (bm, bn, bk, resident, warps, eff, fixed, split), as [`TileModel::of`] lists
/// them.
type TileConstants = (usize, usize, usize, usize, usize, f64, f64, f64);

impl TileModel {
    /// The model of a tile kernel without clusters.
    fn tile((bm, bn, bk, resident, warps, eff, fixed, split): TileConstants) -> Option<TileModel> {
        Some(TileModel {
            bm,
            bn,
            bk,
            resident,
            warps,
            eff,
            fixed,
            split,
            min_slices: MIN_SLICES_PER_SPLIT,
            max_splits: MAX_SPLITS,
            cluster_split: None,
            cluster_fixed: 0.0,
            split_latency: 0.0,
        })
    }

    /// The model of an FP32 CUDA-core tile: [`TileModel::tile`] with [`CUDA_CORE_SPLIT_LATENCY`].
    fn cuda_core(x: TileConstants) -> Option<TileModel> {
        Self::tile(x).map(|m| TileModel { split_latency: CUDA_CORE_SPLIT_LATENCY, ..m })
    }

    /// The model of a `wgmma` kernel: [`TileModel::tile`] with its (cluster split, cluster fixed)
    /// costs.
    fn wgmma(x: TileConstants, (cluster, cluster_fixed): (f64, f64)) -> Option<TileModel> {
        Self::tile(x).map(|m| TileModel { cluster_split: Some(cluster), cluster_fixed, ..m })
    }

    /// The model of a tile kernel; `None` for kernels without split-K (the ladder's earlier
    /// rungs, `WarpDot`, the `mma.sync` kernels).
    pub fn of(kernel: GemmKernel) -> Option<TileModel> {
        // (bm, bn, bk, resident, warps, eff, fixed, split): eff, fixed and split fitted to the
        // plans `gemm_plans` timed (see the module doc).
        let (t, wg, cc) = (TileModel::tile, TileModel::wgmma, TileModel::cuda_core);
        let narrow_mn = |x| TileModel::tile(x).map(|m| TileModel { min_slices: NARROW_MN_MIN_SLICES, ..m });
        match kernel {
            GemmKernel::WarpTiledWide => cc((128, 256, 8, 1, 16, 1.0, 32.0, 64.0)),
            GemmKernel::WarpTiledFast => cc((128, 128, 16, 1, 16, 0.98, 0.0, 96.0)),
            // Fitted to gemm_plans (call 2 of docs/runs/2026-11-23-h100-s5); not among `Auto`'s tiles.
            GemmKernel::Pipelined => cc((128, 128, 8, 2, 8, 0.92, 48.0, 64.0)),
            GemmKernel::Tile128x64 => cc((128, 64, 16, 2, 8, 0.85, 16.0, 16.0)),
            GemmKernel::Tile64x128 => cc((64, 128, 16, 2, 8, 0.59, 0.0, 32.0)),
            // The split costs of this tile, `Tile64Fine` and the 32-wide ones are what one more
            // split of a lone tile measured (its last block sums one more partial tile: a
            // round trip to L2 per group of splits): 0.24 µs here, 0.10 on `Tile64Fine`, 0.09
            // on `Tile64x32` (nt 64×64×64s and 64×32×64s over s = 2–64; H200,
            // docs/runs/2026-11-29-s40/x3): 4.3, 2.4 and 3.4 k-steps of a lone block's main
            // loop, over the full-rate k-steps the split term counts. At 0, 0 and 4 the model
            // split tiny outputs 50–63 ways (nt 18×90×4894: 62 splits of `Tile64Fine`, 15.3 µs,
            // where 24 of `Tile64x32` took 12.6).
            GemmKernel::Tile64 => cc((64, 64, 16, 4, 4, 0.81, 144.0, 8.6)),
            // Its eight warps count as six: a lone block ran a k-step in 1.6× the 32×64 tile's
            // time for twice the outputs, where the model at eight said 1.15× (tn 24×238×4476:
            // 206 µs against 128 unsplit; H100, docs/runs/2026-11-28-s27/h1).
            GemmKernel::Tile64Fine => cc((64, 64, 16, 2, 6, 0.59, 0.0, 3.0)),
            // Only where they save rows or columns ([`narrow_tile_saves`]). Fitted there on every
            // FP32 plan of 20 few-row and few-column products in four layouts, the two tiles'
            // constants shared (docs/runs/2026-11-25-h100-s13/e4): the pick within 2.9 % of the
            // best plan on the products of at most 32 rows or columns. Their four warps count as
            // three: two blocks per multiprocessor ran slower than four (32×4096×4096 in 4
            // splits 58 µs, in 8 splits 48). The eff above `Tile64`'s holds only where they
            // are admitted, memory- and latency-bound products; 768³ ran 2.5× slower on them
            // (65 µs against 26, `r2`).
            GemmKernel::Tile32x64 => cc((32, 64, 16, 4, 3, 0.90, 0.0, 9.0)),
            GemmKernel::Tile64x32 => cc((64, 32, 16, 4, 3, 0.90, 0.0, 9.0)),
            // The three 128-row TF32 tiles' fixed cost (this one, the 128×208 and the 128×192
            // register-A tile): 128 k-steps, from 64. At 64 the model sent short-k products to
            // them (nt 1024×784×64 on the 128×208 tile, 8.4 µs where the 64×64 tile took 3.9;
            // tn 16384×1024×128 on the 128×192 tile, 54.5 against 45.6 on the 64×128 one; H200,
            // docs/runs/2026-11-27-s24/d6); at 128 plan_fit.py scores 1.048 on those 24 cases
            // (from 1.078) and 1.048 on the 328 TF32 cases of the H100 plan files (from 1.052),
            // FP32's 403 unchanged (1.036).
            GemmKernel::Tf32Wgmma => wg((128, 256, 32, 1, 8, 1.0, TF32_WIDE_FIXED, 768.0), (240.0, 256.0)),
            GemmKernel::Tf32Wgmma64x128 => wg((64, 128, 32, 2, 8, 0.73, 304.0, 1024.0), (176.0, 0.0)),
            // Not fitted: the 128×256 tile's constants at the BF16 128×208 tile's relative eff.
            GemmKernel::Tf32Wgmma128x208 => wg((128, 208, 32, 1, 8, 0.95, TF32_WIDE_FIXED, 768.0), (240.0, 0.0)),
            // eff and fixed refitted (session 27) on every TF32 plan timed on 64 products of two
            // new random seeds and session 26's near-misses (docs/runs/2026-11-28-s27/h1, h4)
            // and the plan files of sessions 25–26, scored with the rules themselves
            // (`cargo bench -p benches --bench plan_replay`, `auto_plan`): the
            // pick within 5.6 % of the best plan on geometric mean, from 6.3 % at (0.67, 624),
            // and 183 products of the H100 plan files of sessions 13–21 8.1 % from 9.1 %. At
            // 0.67 a long k ran on it where the wide tiles streamed faster: tn 443×3365×2961
            // 159 µs against 103 on the 128×208 tile, tn 2196×144×2205 43 against 29 on the
            // register-A tile (`h4`, `h1`).
            GemmKernel::Tf32Wgmma64x64 => wg((64, 64, 32, 2, 8, 0.50, 320.0, 16.0), (48.0, 32.0)),
            // eff: 4096³ nn took 627 µs on it, 420 on the staged 128×256 tile; fixed and split
            // costs fitted to every split of it and of the other TF32 `wgmma` tiles on 13
            // products in the nn and tt layouts (its model over n×m for nn): the pick within
            // 6.0 % of the best plan, as without it, but from far faster plans on few-row
            // products (docs/runs/2026-11-24-h100-s11/e6). Fitted alone to those (eff 0.8), the
            // model took it for 3000³ and 5000³ and ran them 1.4–1.8× slower (`r4`).
            GemmKernel::Tf32WgmmaRegA => wg((64, 128, 32, 2, 8, 0.67, 512.0, 1024.0), (48.0, 0.0)),
            // The 128×256 tile's fixed and split costs; eff fitted (plan_fit.py --search) to every
            // plan of the TF32 tiles on 42 products with an MN-major operand (nn, tn, tt): the
            // pick within 3.5 % of the best plan on geometric mean, from 4.9 % without this
            // tile. It ran nn 1024×4096×4096 in 128 µs against 153 on the staged 128×256 tile,
            // 1536³ 30 against 46, tn 3000³ 222 against 269; 4096³ and 2048³ 3–13 % slower
            // (H100, docs/runs/2026-11-24-h100-s17/e3).
            GemmKernel::Tf32WgmmaRegAWide => wg((128, 192, 32, 1, 8, 0.92, TF32_WIDE_FIXED, 768.0), (240.0, 256.0)),
            // FP32 on TF32: the TF32 kernels' models, over the three segments' k.
            GemmKernel::Tf32x3Wgmma => TileModel::of(GemmKernel::Tf32Wgmma),
            // FP32 on TF32 (over the three segments' k): eff from 4096³, 1.56 ms for three
            // TF32 products the 128×256 tile runs in 0.356 each; fixed cost and cluster split
            // fitted with `TF32_UNIT_IN_F32` to every split of it and of the CUDA-core tiles on
            // 24 products (the pick within 3.7 % of the best plan on geometric mean, never
            // slower than the CUDA-core tiles' pick; docs/runs/2026-11-24-h100-s11/e5).
            GemmKernel::Tf32x3Wgmma128x128 => wg((128, 128, 32, 1, 8, 0.70, 128.0, 768.0), (64.0, 256.0)),
            // Over k itself (three `wgmma` per k-step). eff from FP32 nt 4096³: 1.45 ms against
            // the staged form's 1.64 (0.70 over 3k); fixed, split and cluster costs fitted to
            // every split of it, the staged form and the CUDA-core tiles on 22 products in three
            // layouts (benches/fit/plan_fit.py: the pick within 1.2 % of the best plan on
            // geometric mean over 66 cases; with the staged form's costs scaled to this eff,
            // 10.6 %: its splits run cheaper; H100, docs/runs/2026-11-24-h100-s15/e4).
            // Two clusters of 8 at most: its model sums a cluster's splits at no cost, which
            // held for up to two clusters meeting in the workspace (FP32 nn 128×784×4096 in 16
            // splits 21.3 µs, in 8 30.1; nn 64×1024×1024 in 8 11.4, 13.6 on `Tile64Fine`) but
            // not for three or more: 24–56 splits of tiny outputs ran 1.07–1.17× the CUDA-core
            // tiles' time (nt 9×35×4991 in 32 splits 16.9 µs against 11.8, tt 84×76×1478 in 24
            // 11.4 against 8.5; H200, docs/runs/2026-11-29-s40/x4, x5).
            GemmKernel::Tf32x3Split => wg((128, 128, 32, 1, 8, 0.26, 0.0, 256.0), (0.0, 64.0)).map(|m| TileModel { max_splits: 2 * MAX_CLUSTER_SPLITS, ..m }),
            // The `cp.async`-fed tiles (operands off 16 bytes). A lone warpgroup per block both
            // copies and multiplies, issue-bound at one warp per scheduler (Nsight Compute), so
            // its four warps count as four: two or three blocks per multiprocessor reach its rate.
            // eff, fixed and split searched (plan_replay over every TF32 plan of 46 products,
            // 18 of them random; H200, docs/runs/2026-11-29-s42/b4): the pick within 2.5 % of
            // the best plan on geometric mean, from 29 % with first guesses (0.5, 128, 256).
            GemmKernel::Tf32WgmmaCp => t((64, 128, 32, 2, 4, 0.4, 512.0, 32.0)),
            GemmKernel::Tf32WgmmaCp64 => t((64, 64, 32, 3, 4, 0.2, 512.0, 32.0)),
            GemmKernel::Tf32 => t((128, 128, 32, 1, 8, 0.36, 48.0, 80.0)),
            GemmKernel::Tf32Tile64 => t((64, 64, 32, 2, 4, 0.15, 32.0, 64.0)),
            // 8 rows of C per block of 8 warps, 16 values per lane: for split-K's validity and
            // workspace only (see `rowdot`).
            GemmKernel::RowDot => t((8, 16 * 32, 128, 1, 8, 0.25, 96.0, 64.0)),
            // 4 rows × 1024 columns per block: for split-K's validity and workspace only
            // (see `coldot`).
            GemmKernel::ColDot => t((4, 1024, 16, 2, 8, 0.25, 96.0, 64.0)),
            // The narrow side × a block's big indices (call it with `narrow_sides`): for
            // split-K's validity and workspace only (see `narrow`).
            GemmKernel::NarrowMn => narrow_mn((NARROW_MAX, kernels::matmul::NARROW_MN_BIG, kernels::matmul::NARROW_BK, 2, 8, 0.25, 96.0, 64.0)),
            GemmKernel::NarrowK => t((NARROW_MAX, kernels::matmul::NARROW_K_BIG, kernels::matmul::NARROW_BK, 2, 8, 0.25, 96.0, 64.0)),
            _ => None,
        }
    }

    /// The model of a BF16 kernel; `None` for `SmemTiled`, `Mma` and `WarpDot` (no split-K plans) and `Auto`.
    pub fn of_bf16(kernel: Bf16Kernel) -> Option<TileModel> {
        let (t, wg) = (TileModel::tile, TileModel::wgmma);
        match kernel {
            // The four `wgmma` tiles' constants refitted (benches/fit/plan_fit.py --search) on
            // 186 BF16 products of s14-s16 gemm_plans data, with the swapped tile among the
            // plans: the pick within 2.4 % of the best plan on geometric mean, from 3.8 % with
            // session 13's constants (docs/runs/2026-11-24-h100-s16/e6). The search put this
            // tile's cluster split at 0 (2.2 %); at 0 the sweep ran nn 256×784×4096 in 16
            // swapped splits, 17.0 µs against 11.3, so it is 64. In the sweep (e6, against the
            // old constants, best of two runs): 1024×784×4096 nn and tn 24.5 → 19.5 µs, m×10×1024
            // x·Wᵀ 8.7 → 6.7 at m = 4096, 32×4096×784 6.7 → 5.5; tn 10×1024×4096 10.3 → 13.2;
            // time geomean 0.995 of the old over the BF16 sweep. Its clustered block's fixed cost
            // is the one measured, 400 k-steps (192 before): a split of this tile costs about 4.7
            // µs whatever the count, 0.57 µs per 64-deep slice (tn 1024×1024×4096 in 3 splits
            // 22.7 µs, unsplit over the same 21 slices 17.9; H200, docs/runs/2026-11-29-s38/u1).
            // Of 469 BF16 products (the sweep, the random groups, s38 u7's plan files) it changes
            // the pick of 2048×1024×2048 only: 2 splits of this tile 18.2–18.4 µs, the 64×128
            // tile unsplit 15.4–15.8 (u7).
            Bf16Kernel::Wgmma => wg((128, 256, 64, 1, 8, 1.0, 352.0, 768.0), (64.0, 400.0)),
            // Over n×m (its callers swap m and n).
            Bf16Kernel::WgmmaSwapped => TileModel::of_bf16(Bf16Kernel::Wgmma),
            Bf16Kernel::Wgmma64x128 => wg((64, 128, 64, 2, 8, 0.61, 352.0, 1024.0), (208.0, 64.0)),
            Bf16Kernel::Wgmma64x64 => wg((64, 64, 64, 2, 8, 0.38, 240.0, 256.0), (64.0, 384.0)),
            // Over n×m when swapped (its callers swap m and n). The 64×64 tile's constants: on
            // the 51 few-row and few-column products of docs/runs/2026-11-24-h100-s17/e1 the
            // search (plan_fit.py --only=Wgmma64x32) kept them, the pick within 2.2 % of the
            // best plan.
            Bf16Kernel::Wgmma64x32 | Bf16Kernel::Wgmma64x32Swapped => wg((64, 32, 64, 2, 8, 0.38, 240.0, 256.0), (64.0, 384.0)),
            // First fitted as the 128×256 tile at 4096³ nt's rate (205 µs on it, 191 on the
            // 128×256 tile; docs/runs/2026-11-23-h100-s8/r8); refitted with the others above.
            Bf16Kernel::Wgmma128x208 => wg((128, 208, 64, 1, 8, 0.97, 448.0, 768.0), (16.0, 0.0)),
            // The 128×256 tile's constants but its rate: 0.95 of that tile's per column, so that
            // it runs where it fills more multiprocessors or saves a round of blocks by more than
            // a twentieth. 1536³ 16.4 µs against 20.0, 2500×1800×3000 67.7 against 72.9, but
            // 5000³ (9 rounds of 128×192 tiles against 7 of 128×256) 510 against 468 and 8192³
            // (21 against 16) 1459 against 1423 (H200, docs/runs/2026-11-27-s25/e4).
            Bf16Kernel::Wgmma128x192 => wg((128, 192, 64, 1, 8, 0.95, 352.0, 768.0), (64.0, 192.0)),
            Bf16Kernel::MmaLdmatrix => t((128, 128, 64, 1, 8, 0.15, 96.0, 64.0)),
            Bf16Kernel::MmaTile64 => t((64, 64, 64, 3, 4, 0.17, 288.0, 64.0)),
            // The f32 kernel's model: the same block and slices (split-K validity and workspace).
            Bf16Kernel::RowDot => TileModel::of(GemmKernel::RowDot),
            Bf16Kernel::ColDot => TileModel::of(GemmKernel::ColDot),
            Bf16Kernel::NarrowMn => TileModel::of(GemmKernel::NarrowMn),
            Bf16Kernel::NarrowK => TileModel::of(GemmKernel::NarrowK),
            Bf16Kernel::SmemTiled | Bf16Kernel::ShortK | Bf16Kernel::ShortKMma | Bf16Kernel::Mma | Bf16Kernel::WarpDot | Bf16Kernel::Auto => None,
        }
    }

    /// Output tiles of an m×n product.
    pub fn tiles(&self, m: usize, n: usize) -> usize {
        m.div_ceil(self.bm) * n.div_ceil(self.bn)
    }

    /// k-slices per split for `splits` ways over k, if that split is worth considering: every
    /// split non-empty and at least [`MIN_SLICES_PER_SPLIT`] long.
    pub fn slices_per_split(&self, k: usize, splits: u32) -> Option<usize> {
        let slices = k.div_ceil(self.bk).max(1);
        let per = slices.div_ceil(splits as usize);
        let min = if self.clusters(splits) { MIN_SLICES_PER_CLUSTER_SPLIT } else { self.min_slices };
        let ok = splits == 1 || (per >= min && slices.div_ceil(per) == splits as usize);
        ok.then_some(per)
    }

    /// Whether a split moves only the part of its partial tile inside C, not the whole tile: the
    /// `wgmma` kernels (those with a [`TileModel::cluster_split`]), which stage it in shared
    /// memory first.
    pub fn split_in_c(&self) -> bool {
        self.cluster_split.is_some()
    }

    /// Whether `splits` > 1 splits of a tile run as one cluster (no workspace; see
    /// [`TileModel::cluster_split`]).
    pub fn clusters(&self, splits: u32) -> bool {
        self.cluster_split.is_some() && ((2..=MAX_CLUSTER_SPLITS).contains(&splits) || splits.is_multiple_of(MAX_CLUSTER_SPLITS))
    }

    /// Whether the kernel can run the product in `splits` ranges of k: every range long enough
    /// and the partial tiles inside the workspace (what [`TileModel::cost`] prices).
    pub fn accepts(&self, m: usize, n: usize, k: usize, splits: u32) -> bool {
        self.cost(m, n, k, splits, Multiprocessors::packed(1)).is_some()
    }

    /// Estimated time (arbitrary units, comparable across the kernels of one precision).
    pub fn cost(&self, m: usize, n: usize, k: usize, splits: u32, sms: Multiprocessors) -> Option<f64> {
        let per = self.slices_per_split(k, splits)?;
        let tiles = self.tiles(m, n);
        let cluster = self.clusters(splits);
        // Partial tiles through the workspace: every split's (a counter per tile), or with
        // clusters every group's (a counter per share of the tile's rows).
        let (slots, counters) = if cluster { (splits / MAX_CLUSTER_SPLITS, MAX_CLUSTER_SPLITS) } else { (splits, 1) };
        if splits > 1 && slots > 1 && (tiles * counters as usize > SPLIT_COUNTERS || tiles * slots as usize * self.bm * self.bn > SPLIT_WORKSPACE) {
            return None;
        }
        let blocks = tiles * splits as usize;
        let rate = |resident: usize| self.eff * (resident as f64 * self.warps as f64 / SAT_WARPS).min(1.0);
        let area = (self.bm * self.bn) as f64;
        let main = if cluster {
            // Clusters of up to 8 splits, in rounds of as many as the device keeps resident with
            // one block per multiprocessor. Counted as blocks over multiprocessors, at two per
            // multiprocessor, the model sent 32×1024×16384 to 8 splits of the 64×64 tile (16
            // clusters of 8 where 15 fit: 21 µs, against 13 for 8 clusters of the 64×128 tile)
            // and 64×1024×1024 to 2 (6.4 µs, 4 splits 5.1); with rounds of clusters the fit came
            // within 2.7 % of the best plan on 203 BF16 cases, from 5.8 % (H100,
            // docs/runs/2026-11-25-h100-s13).
            let size = splits.min(MAX_CLUSTER_SPLITS);
            // A tile that keeps several blocks on a multiprocessor keeps as many times the
            // clusters resident (the capacity is asked at one block per multiprocessor).
            let per_sm = blocks.div_ceil(sms.count.max(1)).clamp(1, self.resident);
            let rounds = (blocks / size as usize).div_ceil(sms.cluster_capacity(size) * per_sm);
            rounds as f64 * per_sm as f64 * ((per * self.bk) as f64 + self.fixed + self.cluster_fixed) * area / rate(per_sm)
        } else {
            let load = blocks.div_ceil(sms.count.max(1));
            // Blocks resident together hide part of each other's prologue and epilogue.
            let together = load.min(self.resident) as f64;
            let work = ((per * self.bk) as f64 + self.fixed / together) * area;
            // Full rounds of `resident` blocks, then the rest at the rate that few blocks reach:
            // a last round of one 2-warp block runs at half speed. (Counting every block at the
            // full round's rate, the model sent 1024×32×16384 to 41 splits of `Tile64`, 656
            // blocks for 528 places: 110 µs, where 32 splits took 75; H100,
            // docs/runs/2026-11-23-h100-s6.)
            let (rounds, rest) = (load / self.resident, load % self.resident);
            let mut main = (rounds * self.resident) as f64 * work / rate(self.resident);
            if rest > 0 {
                main += rest as f64 * work / rate(rest);
            }
            main
        };
        // A split's partial tile: the whole tile, or its part inside C.
        let partial = if self.split_in_c() { (self.bm.min(m) * self.bn.min(n.next_multiple_of(4))) as f64 } else { area };
        let reduce = match (cluster, self.cluster_split) {
            // Up to 8 splits reduced in the cluster; more in groups of 8, whose sums each of the
            // 8 blocks of the last group adds for its share of the rows.
            (true, Some(cost)) => {
                let (inside, groups) = (splits.min(MAX_CLUSTER_SPLITS), splits.div_ceil(MAX_CLUSTER_SPLITS));
                cost * (f64::from(inside - 1) + f64::from(groups - 1) / f64::from(MAX_CLUSTER_SPLITS))
            }
            _ => f64::from(splits - 1) * self.split,
        };
        let latency = if splits > 1 && !cluster { self.split_latency * area / rate(1) } else { 0.0 };
        Some(main + reduce * partial / self.eff + latency)
    }
}

impl TileModel {
    /// The cheapest split count for this kernel, with its estimated cost. A `wgmma` tile splits
    /// only in whole clusters ([`TileModel::clusters`]: 2–8 splits, or multiples of 8): other
    /// counts add their partial tiles through the workspace, which the model priced too low. It
    /// ran TF32 nt 107×462×1307 on the 64×64 tile in 11 splits, 15.4 µs, where 6 take 10.3, and
    /// nt 2048×10×4096 in 12, 23.0 µs, where 3 take 17.2; `Auto` over the 14 products of 1341
    /// (the sweep, the random groups, s38's and s39's plan files) whose pick this changes ran in
    /// 0.67–1.01 of the old time, 8 controls 0.996–1.009 (H200, docs/runs/2026-11-29-s39/v5).
    pub fn best_splits(&self, m: usize, n: usize, k: usize, sms: Multiprocessors) -> (u32, f64) {
        let unsplit = self.cost(m, n, k, 1, sms).unwrap_or(f64::INFINITY);
        let mut best = (1, unsplit);
        for splits in 2..=self.max_splits {
            if self.cluster_split.is_some() && !self.clusters(splits) {
                continue;
            }
            if let Some(c) = self.cost(m, n, k, splits, sms)
                && c < best.1
                && c < SPLIT_GAIN * unsplit
            {
                best = (splits, c);
            }
        }
        best
    }
}

/// Whether a tile kernel is a candidate for an m×n output: every one but the 32-row and
/// 32-column FP32 tiles, which only where they compute at most 85 % of the rows
/// ([`GemmKernel::Tile32x64`]) or columns ([`GemmKernel::Tile64x32`]) a 64-wide tile does (m or
/// n up to 32, 96, 160: 32 against 64, 96 against 128). Elsewhere their 4×4 outputs per thread
/// only lose: 768³ took 65 µs on them against 26 on `Tile128x64` (H100,
/// docs/runs/2026-11-25-h100-s13/r2). A narrow side over 32 saves only a quarter or a sixth of
/// the work, and on products past [`NARROW_TILES_WIDE_MAX_FLOPS`] that does not pay for their
/// rate.
pub fn narrow_tile_saves(kernel: GemmKernel, m: usize, n: usize, k: usize) -> bool {
    let saves = |x: usize| 100 * x.div_ceil(32) * 32 <= 85 * x.div_ceil(64) * 64 && (x <= 32 || flops(m, n, k) <= NARROW_TILES_WIDE_MAX_FLOPS);
    match kernel {
        GemmKernel::Tile32x64 => saves(m),
        GemmKernel::Tile64x32 => saves(n),
        _ => true,
    }
}

/// Most FLOPs (2·m·n·k) at which the 32-row and 32-column FP32 tiles take a narrow side over 32
/// (33–96 or 129–160 rows or columns, [`narrow_tile_saves`]). Such products are compute-bound,
/// where the 4×4 outputs per thread run at about half the rate of the wider tiles: nt
/// 5386×143×2066 (3.2 GFLOP) took 197 µs on `Tile64x32`, 138 on `Tile128x64` and 118 on
/// `Tf32x3Split` (H200, docs/runs/2026-11-29-s40/x1), nt 89×4118×5637 212 on `Tile32x64`
/// against 171 on `WarpTiledFast`, tt 3250×70×7693 203 against 183 on `Tf32x3Split`; up to
/// 0.22 GFLOP they won (tt 335×160×2025 17.4 µs against 21.1 on `Tile64Fine`; nt 18×90×4894
/// 12.6 against 17.0).
pub const NARROW_TILES_WIDE_MAX_FLOPS: f64 = (1u64 << 30) as f64;

/// Up to this many FLOPs (2·m·n·k) the 32-row and 32-column FP32 tiles are candidates whatever
/// they save ([`narrow_tile_saves`]): on such products a block's time is mostly latency, which
/// their 4×4 outputs per thread keep short. Every pick this changed on the products timed in
/// docs/runs/2026-11-24-h100-s15/e4, e12, e13 that has a measurement ran 0.89 of the old pick's
/// time on geometric mean over 32 (256³ 8.7 → 6.5 µs, 733×33×232 10.3 → 8.1; 1024×160×48 3.4 →
/// 3.7 the worst); at 2²⁷ it also took unmeasured products up to 384³, and admitted everywhere
/// it ran 256×784×1024 in 29 µs against 14 (s15 `e13`).
pub const NARROW_TILES_ALWAYS_FLOPS: f64 = (1u64 << 26) as f64;

/// The FLOPs of an m×n×k product (2·m·n·k), the size the small-product rules compare.
fn flops(m: usize, n: usize, k: usize) -> f64 {
    2.0 * m as f64 * n as f64 * k as f64
}

/// The candidates among `kernels` for an m×n output with their models ([`narrow_tile_saves`]).
fn tile_candidates(kernels: &[GemmKernel], m: usize, n: usize, k: usize) -> impl Iterator<Item = (GemmKernel, Option<TileModel>)> + '_ {
    // Without the wide kernel, which needs them, the operands rule out 16-byte loads.
    let four_byte_short = !kernels.contains(&GemmKernel::WarpTiledWide) && k <= NARROW_TILES_4BYTE_MAX_K;
    let small = flops(m, n, k) <= NARROW_TILES_ALWAYS_FLOPS || four_byte_short;
    kernels.iter().map(move |&x| (x, TileModel::of(x).filter(|_| small || narrow_tile_saves(x, m, n, k))))
}

/// Up to this k the 32-row and 32-column FP32 tiles are candidates whatever they save where the
/// operands rule out 16-byte loads (as on small products, [`NARROW_TILES_ALWAYS_FLOPS`]): a
/// short main loop of 4-byte loads is mostly latency, which their 4×4 outputs per thread and
/// more blocks hide. Every pick this changed among the products timed (12, FP32 and TF32's
/// staged products) ran faster, 0.67 of the old pick's time on geometric mean (tt 345×2026×83
/// 17.7 µs → 10.5, nn 803×850×66 14.0 → 8.4, nn 2726×284×46 10.1 → 6.6); admitted up to k = 128
/// too, tn 391×2189×126 ran 1.26× slower, and at longer k the FP32-on-TF32 split and the wider
/// tiles win (tn 1854×224×625 19.5 µs against 31.7; H100, docs/runs/2026-11-25-h100-s21/d2, d3).
pub const NARROW_TILES_4BYTE_MAX_K: usize = 96;

/// The cheapest (kernel, splits) among `kernels` for an m×n×k product on `sms`
/// multiprocessors; ties go to the earlier kernel and the fewer splits.
pub fn choose(kernels: &[GemmKernel], m: usize, n: usize, k: usize, sms: Multiprocessors) -> GemmPlan {
    let (kernel, splits, _) = cheapest(tile_candidates(kernels, m, n, k), |_, c| c, m, n, k, sms).unwrap_or((kernels[0], 1, 0.0));
    GemmPlan { kernel, splits }
}

/// The time of one unit of the TF32 models in units of the FP32 ones: the rate of
/// `WarpTiledWide` (FP32 eff 1.0) over that of `Tf32Wgmma` (TF32 eff 1.0), 4096³ 2.95 ms on the
/// one and 0.356 on the other (H100, docs/runs/2026-11-24-h100-s11/e1); the fit of e5 agrees.
/// (Fitted to 0.10 on fewer products, FP32 `Auto` took FP32 on TF32 for 640³ and 512×1024×1024
/// and ran them 14–18 % slower, `r2`.)
pub const TF32_UNIT_IN_F32: f64 = 0.12;

/// Most floats FP32 `Auto` stages for [`GemmKernel::Tf32x3Wgmma128x128`] ([head | tail] rows
/// of both operands, 2·(m+n)·k): 512 MiB, up to about 5800³ (5000³ ran in 3.05 ms on it against
/// 6.36 on the CUDA cores; H100, docs/runs/2026-11-24-h100-s11/e4). The stream keeps its
/// staging buffer, so larger products stay on the CUDA cores rather than hold more device
/// memory.
pub const X3_AUTO_MAX_STAGED: usize = 1 << 27;

/// FP32 `Auto`'s plan for the tile kernels: the cost model over the CUDA-core `tiles`, and on
/// sm_90a (`wgmma`) FP32 on TF32 tensor cores, in TF32 units scaled by [`TF32_UNIT_IN_F32`]:
/// [`GemmKernel::Tf32x3Split`] (`reads`: the MN-major operands it transposes, each at
/// [`X3_SPLIT_MN_EFF`] of its rate, and the elements it stages first, [`X3SplitReads`]), and
/// [`GemmKernel::Tf32x3Wgmma128x128`] (three TF32 products over a padded k and a staging pass),
/// each if it stages at most [`X3_AUTO_MAX_STAGED`] floats; the cheapest of the three. Its error is
/// the CUDA-core kernels' or smaller (each 32-deep slice's tensor-core sum is added in f32:
/// on 1024³ 2.3e-5 against 2.5e-5 (`WarpTiledWide`) and cuBLAS SGEMM's 7.3e-5, on
/// 128×16384×256 4.6e-5 against 1.2e-4 and 8.3e-5; H100, e1).
pub fn choose_f32(tiles: &[GemmKernel], wgmma: bool, reads: X3SplitReads, m: usize, n: usize, k: usize, sms: Multiprocessors) -> GemmPlan {
    if let Some(plan) = few_blocks_plan(tiles, m, n, k, sms) {
        return plan;
    }
    let (kernel, splits, cost) = cheapest(tile_candidates(tiles, m, n, k), |_, c| c, m, n, k, sms).unwrap_or((tiles[0], 1, f64::INFINITY));
    let split = GemmKernel::Tf32x3Split;
    let split_plan = match TileModel::of(split) {
        Some(model) if wgmma && k > 0 && reads.staged <= X3_AUTO_MAX_STAGED => {
            let (s, c) = model.best_splits(m, n, k, sms);
            Some((s, TF32_UNIT_IN_F32 * (c / X3_SPLIT_MN_EFF.powi(reads.transposed as i32) + staging_cost(reads.staged, sms.count))))
        }
        _ => None,
    };
    let (kernel, splits, cost) = match split_plan {
        Some((s, c)) if c < cost => (split, s, c),
        _ => (kernel, splits, cost),
    };
    let kp = k.max(1).next_multiple_of(kernels::matmul::WG_BK_TF32);
    let staged = 2 * (m + n) * kp;
    let x3 = GemmKernel::Tf32x3Wgmma128x128;
    if wgmma
        && staged <= X3_AUTO_MAX_STAGED
        && let Some(model) = TileModel::of(x3)
    {
        let (x3_splits, c) = model.best_splits(m, n, 3 * kp, sms);
        if TF32_UNIT_IN_F32 * (c + staging_cost(staged, sms.count)) < cost {
            return GemmPlan { kernel: x3, splits: x3_splits };
        }
    }
    GemmPlan { kernel, splits }
}

/// FP32 `Auto`'s plan where even the most splits of the 64×64 tiles keep at most half the
/// multiprocessors busy (an output of one 64×64 tile, k long enough for every split): the
/// 32-row and 32-column tiles, twice the blocks, at the model's splits, as the streaming rule
/// fills a round ([`one_round_splits`]). The model prices the 64×64 tile's splits cheaper
/// (its split cost was fitted on products with more tiles): 64×64×16384 ran 64 splits of
/// `Tile64Fine` in 22.3 µs in every layout, 64 of `Tile32x64` in 16.2–16.7, cuBLAS 12.6–14.8
/// (H200, docs/runs/2026-11-27-s23/c1).
pub fn few_blocks_plan(tiles: &[GemmKernel], m: usize, n: usize, k: usize, sms: Multiprocessors) -> Option<GemmPlan> {
    let wide = TileModel::of(GemmKernel::Tile64Fine)?;
    wide.slices_per_split(k, MAX_SPLITS)?;
    if 2 * wide.tiles(m, n) * MAX_SPLITS as usize > sms.count {
        return None;
    }
    let narrow = [GemmKernel::Tile32x64, GemmKernel::Tile64x32];
    let cands = narrow.into_iter().filter(|x| tiles.contains(x)).map(|x| (x, TileModel::of(x)));
    let (kernel, splits, _) = cheapest(cands, |_, c| c, m, n, k, sms)?;
    Some(GemmPlan { kernel, splits })
}

/// How [`GemmKernel::Tf32x3Split`] reads a product's operands: how many MN-major ones its
/// producers transpose (each at [`X3_SPLIT_MN_EFF`] of its rate), and how many elements of
/// those the copy engine cannot read (rows that break 16-byte alignment) a pass stages
/// k-contiguous first ([`staging_cost`]). Priced so rather than left out, it ran the products
/// with such an operand where the CUDA-core tiles' 4-byte loads were slowest: tn 140×3343×948
/// 44.9 µs against 86.7 on `Tile32x64`, 1854×224×625 19.5 against 30.2, nt 1632×233×1421 36.2
/// against 54.5. Scored offline on every plan timed on 125 FP32 products (with the short-k rule
/// of `SHORTK_AUTO_F32_UNALIGNED_MIN_OUTPUTS`): the pick within 9.2 % of the best plan on
/// geometric mean, from 12.5 % (H100, docs/runs/2026-11-25-h100-s21/d2,
/// docs/runs/2026-11-25-h100-s20/d4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct X3SplitReads {
    pub transposed: u32,
    pub staged: usize,
}

/// [`GemmKernel::Tf32x3Split`]'s rate per MN-major operand, which its producers transpose as
/// they split: FP32 4096³ nt 1.45 ms, nn 1.54, tn 1.70; 2048³ 185, 199 and 218 µs (H100,
/// docs/runs/2026-11-24-h100-s15/e4).
pub const X3_SPLIT_MN_EFF: f64 = 0.93;

/// The cheapest (kernel, splits, cost) of `(kernel, model)` candidates (`None` models skipped);
/// `total` turns a kernel's cost into its plan's, in the model's units (with what the kernel
/// needs besides its own launch, such as a staging pass); between plans of equal cost the one
/// that computes fewer outputs (tiles × tile area) wins, then the earlier candidate and the
/// fewer splits.
///
/// Equal costs happen where the blocks fit the multiprocessors either way: the 32×64 and 64×32
/// FP32 tiles cost the same on 4785×26×49 (150 blocks two to a multiprocessor, or 75 alone),
/// and the 64×32 one, which computes 32 columns for 26 where the other computes 64, ran it in
/// 4.8 µs against 6.0 (tt; tn 4813×14×65 5.4 against 6.3; H100, docs/runs/2026-11-28-s27/h4,
/// h1).
pub fn cheapest<K: Copy>(
    cands: impl IntoIterator<Item = (K, Option<TileModel>)>,
    total: impl Fn(K, f64) -> f64,
    m: usize,
    n: usize,
    k: usize,
    sms: Multiprocessors,
) -> Option<(K, u32, f64)> {
    let mut best: Option<(f64, usize, K, u32)> = None;
    for (kernel, model) in cands {
        let Some(model) = model else { continue };
        let (splits, c) = model.best_splits(m, n, k, sms);
        let c = total(kernel, c);
        let computed = model.tiles(m, n) * model.bm * model.bn;
        let tie = |b: f64| (c - b).abs() <= 1e-9 * b.abs();
        if best.is_none_or(|(b, area, ..)| (c < b && !tie(b)) || (tie(b) && computed < area)) {
            best = Some((c, computed, kernel, splits));
        }
    }
    best.map(|(c, _, kernel, splits)| (kernel, splits, c))
}

/// Cost of one staging pass over `elems` operand elements (`gemm_stage_kmajor_f32`,
/// `gemm_stage_pad_bf16`), in the tensor-core models' units: a launch plus a read and a write
/// of each element at a multiprocessor's share of DRAM bandwidth; 0 when nothing is staged (no
/// pass is launched).
pub fn staging_cost(elems: usize, sms: usize) -> f64 {
    pass_cost(elems, STAGE_PER_ELEMENT, sms)
}

/// A padded-row copy's cost per element and multiprocessor, in model units: a k-contiguous f32
/// operand whose rows break 16-byte alignment, copied row by row (`gemm_stage_pad_f32`, 16-byte
/// stores, no shared memory) rather than through the transposing tiles of
/// `gemm_stage_kmajor_f32` ([`STAGE_PER_ELEMENT`]). The two staged `wgmma` plans timed ran in 0.72
/// of their old time on such operands: nt 89×4118×5637 on the 128×256 tile in 6 splits 119.1 →
/// 86.0 µs, of which staging 23.7 M elements took about 51 (the product on aligned rows, 4118×
/// 5640: 34.6), and nn 6998×40×3170 on the 64×64 tile in 2 splits 114.6 → 82.7, staging 22.2 M
/// in about 44 (H200, docs/runs/2026-11-29-s37/t5 against t1): 260–290 per element.
const STAGE_ROWS_PER_ELEMENT: f64 = 300.0;

/// Cost of a TF32 staging pass over `elems` elements of which `rows` are k-contiguous operands'
/// (copied row by row, [`STAGE_ROWS_PER_ELEMENT`]; the rest transposed, [`staging_cost`]).
pub fn tf32_staging_cost(elems: usize, rows: usize, sms: usize) -> f64 {
    let rows = rows.min(elems);
    let per_element = if elems == 0 { 0.0 } else { (STAGE_PER_ELEMENT * (elems - rows) as f64 + STAGE_ROWS_PER_ELEMENT * rows as f64) / elems as f64 };
    pass_cost(elems, per_element, sms)
}

/// A launch plus `per_element` per element and multiprocessor; 0 for no elements (no pass).
fn pass_cost(elems: usize, per_element: f64, sms: usize) -> f64 {
    if elems == 0 { 0.0 } else { STAGE_LAUNCH + per_element * elems as f64 / sms.max(1) as f64 }
}

/// A BF16 padding pass's cost per element and multiprocessor, in model units, where the
/// `mma.sync` tiles would load an operand an element at a time (rows not 8-byte aligned): half of
/// [`STAGE_PER_ELEMENT`], whose TF32 passes move twice the bytes per element (8 against 4).
const BF16_PAD_PER_ELEMENT: f64 = STAGE_PER_ELEMENT / 2.0;

/// Cost of the BF16 padding pass over `elems` elements (`gemm_stage_pad_bf16`: operands whose
/// rows the copy engine cannot read, copied into rows padded to 16 bytes). `element_loads`: the
/// `mma.sync` tiles would load some such operand an element at a time (its rows 2- or 4-byte
/// aligned); then at 2-byte elements' rate, else at [`staging_cost`]'s.
///
/// At the TF32 rate `Auto` ran products of 17–64 rows or columns with such rows on the 64×64
/// `mma.sync` tile; at half of it on the padded `wgmma` tiles, in 0.70 of the time over 23
/// products (H200, docs/runs/2026-11-27-s26/g8): nn 3166×26×3258 41.3 → 22.7 µs (0.41 → 0.75
/// of cuBLAS), 19×3409×6261 71.1 → 44.8, tn 27×2010×3084 32.5 → 16.0. Where every such operand's
/// rows are 8-byte aligned the tiles copy them with `cp.async` and held their own (nt
/// 18×6130×5316 52.9 µs against 63.4 padded, 51×4001×3980 33.7 against 36.3), so there the
/// TF32 rate stays.
pub fn padding_cost_bf16(elems: usize, element_loads: bool, sms: usize) -> f64 {
    pass_cost(elems, if element_loads { BF16_PAD_PER_ELEMENT } else { STAGE_PER_ELEMENT }, sms)
}

/// The tensor-core candidates of one precision: the `wgmma` kernels (only if `wgmma`; the
/// 128×208 tile `wide_208` only where [`wide_208_saves_columns`] for n) and the `mma.sync` ones.
fn tensor_core_candidates<K: Copy + PartialEq, const W: usize>(
    (wgmma_kernels, wide_208): ([K; W], K),
    mma_kernels: [K; 2],
    model: fn(K) -> Option<TileModel>,
    wgmma: bool,
    n: usize,
) -> impl Iterator<Item = (K, Option<TileModel>)> {
    let admit = move |x| wgmma && (x != wide_208 || wide_208_saves_columns(n));
    let wg = wgmma_kernels.map(move |x| (x, model(x).filter(|_| admit(x))));
    wg.into_iter().chain(mma_kernels.map(move |x| (x, model(x))))
}

/// TF32's `wgmma` kernels, largest tile first.
const TF32_WGMMA: [GemmKernel; 4] = [GemmKernel::Tf32Wgmma, GemmKernel::Tf32Wgmma128x208, GemmKernel::Tf32Wgmma64x128, GemmKernel::Tf32Wgmma64x64];
/// BF16's `wgmma` kernels, largest tile first.
const BF16_WGMMA: [Bf16Kernel; 5] = [Bf16Kernel::Wgmma, Bf16Kernel::Wgmma128x208, Bf16Kernel::Wgmma128x192, Bf16Kernel::Wgmma64x128, Bf16Kernel::Wgmma64x64];

/// The TF32 `wgmma` kernels that transpose MN-major operands in shared memory run at this
/// fraction of the K-major kernels' rate: nn 4096³ took 644 µs against nt's 356, 1024³ 23.4
/// against 11.4, 256×4096×4096 93.9 against 45.8 (H100, docs/runs/2026-11-23-h100-s7/r3).
pub const TF32_TRANSPOSE_EFF: f64 = 0.5;

/// What a TF32 `wgmma` product must do with its operands before `wgmma` can read them:
/// elements staged k-contiguous if every operand that is not is staged (`all`), and if the
/// MN-major operands the copy engine can read are transposed in shared memory instead (`rest`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tf32Staging {
    pub all: usize,
    pub rest: usize,
    /// Elements of `all` (and so of `rest`) in k-contiguous operands, whose staging pass is a
    /// padded-row copy ([`tf32_staging_cost`]).
    pub rows: usize,
    /// Whether [`GemmKernel::Tf32WgmmaRegA`] runs the product (an MN-major operand):
    /// `Some((swap, staged))`, `swap` when it runs as Cᵀ = op(B)ᵀ·op(A)ᵀ (tiles over n×m),
    /// `staged` the elements of the other operand it stages first (both MN-major).
    pub rega: Option<(bool, usize)>,
    /// Whether an operand rules out 16-byte loads, so that the `mma.sync` kernels run their
    /// 4-byte-load main loop ([`TF32_MMA_4BYTE_LOAD_EFF`]).
    pub four_byte: bool,
    /// How [`GemmKernel::Tf32WgmmaCp`] runs the product: (swap, staged, rows): whether it tiles
    /// Cᵀ (over n×m), the elements of its shared operand it stages first, and how many of those
    /// are a padded-row copy (a k-contiguous operand).
    pub cp: (bool, usize, usize),
}

impl Tf32Staging {
    /// Whether a `wgmma` plan whose kernel costs `cost` (model units) transposes its MN-major
    /// operands in shared memory rather than staging them: when the staging pass it saves costs
    /// more than the slower main loop. The staging pass costs about as much as the product at
    /// a few hundred rows, so the small-m products transpose and the large ones stage.
    pub fn transposes(self, cost: f64, sms: usize) -> bool {
        self.all > self.rest && cost / TF32_TRANSPOSE_EFF + self.cost_of(self.rest, sms) < cost + self.cost_of(self.all, sms)
    }

    /// The staging pass over `elems` elements, `all` or `rest` ([`tf32_staging_cost`]).
    pub fn cost_of(self, elems: usize, sms: usize) -> f64 {
        tf32_staging_cost(elems, self.rows, sms)
    }

    /// The cost of a `wgmma` plan of kernel cost `cost`, staged or transposed as
    /// [`Tf32Staging::transposes`] chooses.
    pub fn plan_cost(self, cost: f64, sms: usize) -> f64 {
        if self.transposes(cost, sms) { cost / TF32_TRANSPOSE_EFF + self.cost_of(self.rest, sms) } else { cost + self.cost_of(self.all, sms) }
    }
}

/// Most rows (or, for the TF32 register-A forms, rows or columns) of a product that the
/// streaming rule ([`stream_plan_tf32`], [`stream_plan_bf16`]) takes.
pub const STREAM_MAX_ROWS: usize = 64;

/// Fewest elements of the long operand (its long side × k) for the streaming rule: 4 Mi, 16 MiB
/// of f32. Below it a product is short enough that the plans' fixed costs, which the cost model
/// prices, decide; the products it was measured on stream 16–64 Mi elements.
pub const STREAM_MIN_ELEMS: usize = 1 << 22;

/// Whether an m×n×k product is bound by streaming its long operand: at most
/// [`STREAM_MAX_ROWS`] on its short side, at least [`STREAM_MIN_ELEMS`] elements on the long.
pub fn streams_long_operand(m: usize, n: usize, k: usize) -> bool {
    m.min(n) <= STREAM_MAX_ROWS && m.max(n).saturating_mul(k) >= STREAM_MIN_ELEMS
}

/// The most splits of k, up to one cluster of [`MAX_CLUSTER_SPLITS`], whose blocks all run in
/// one round on `sms` (every tile's cluster resident at once, one block per multiprocessor),
/// among those the kernel's model accepts, if that round keeps at least
/// [`STREAM_MIN_FILL_PCT`] % of the multiprocessors busy; else `None`. A product bound by
/// streaming an operand runs at the rate of the blocks streaming at once, so it wants as many as
/// one round holds, and no second round: a second round, even a partial one, costs more than its
/// splits save (TF32 nn 16×4096×4096 on the 128×192 register-A tile: 3 splits, 32 clusters of 3
/// in one round, 26.4 µs; 4 splits, two rounds of 30 and 2 clusters, 41.0; H200,
/// docs/runs/2026-11-27-s23/c1). The narrow kernels follow the same rule ([`narrow`]).
pub fn one_round_splits(model: &TileModel, m: usize, n: usize, k: usize, sms: Multiprocessors) -> Option<u32> {
    let fits = |s: u32| (s == 1 || model.clusters(s)) && runs_in_one_round(model, m, n, s, sms);
    let splits = (1..=MAX_CLUSTER_SPLITS).rev().find(|&s| fits(s) && model.cost(m, n, k, s, sms).is_some())?;
    fills_round(model, m, n, splits, sms)
}

/// Whether every block of an m×n product in `splits` splits runs in one round on `sms`: as
/// clusters (up to [`MAX_CLUSTER_SPLITS`] splits, one per tile; multiples of it, clusters of
/// that size) as many as [`Multiprocessors::cluster_capacity`] places, else one block per
/// multiprocessor.
fn runs_in_one_round(model: &TileModel, m: usize, n: usize, splits: u32, sms: Multiprocessors) -> bool {
    let blocks = model.tiles(m, n) * splits as usize;
    if model.clusters(splits) {
        let size = splits.min(MAX_CLUSTER_SPLITS);
        blocks / size as usize <= sms.cluster_capacity(size)
    } else {
        blocks <= sms.count
    }
}

/// `splits`, if its round keeps at least [`STREAM_MIN_FILL_PCT`] % of the multiprocessors busy.
fn fills_round(model: &TileModel, m: usize, n: usize, splits: u32, sms: Multiprocessors) -> Option<u32> {
    (100 * model.tiles(m, n) * splits as usize >= STREAM_MIN_FILL_PCT * sms.count).then_some(splits)
}

/// Fewest multiprocessors, in percent, that the streaming rule's round keeps busy
/// ([`one_round_splits`]). Where one round holds fewer blocks (few tiles: a cluster holds at
/// most 8 splits), the cost model's plan, which can split further through the workspace, was
/// faster: TF32 nn 32×1024×16384 ran 8 tiles × 8 splits of the 128×192 tile (64 blocks) in
/// 36.8 µs against 29.6 on the model's plan, 1024×32×16384 37.2 against 31.1 (H200,
/// docs/runs/2026-11-27-s23/c2); so did nn 8192×64×2048 at 65 % (43 tiles × 2 splits: 28.2 µs
/// against 26.6). The products it won on keep 73–97 % busy.
pub const STREAM_MIN_FILL_PCT: usize = 67;

/// `Tf32Auto`'s plan for a product bound by streaming its long operand
/// ([`streams_long_operand`]), where the cost model, which prices a tile by its area, misjudges:
/// it took the 64×128 register-A tile in 2 splits for nn 16×4096×4096, 56.5 µs, and the 64×64
/// tile for nt, 32.7 µs, where cuBLAS takes 23.3 and 21.6 (H200, docs/runs/2026-11-27-s23/c1).
/// With an MN-major operand, the 128×192 register-A tile ([`GemmKernel::Tf32WgmmaRegAWide`],
/// the MN-major operand read into registers, no transposing pass (tn stages its short operand
/// first), tiles over n×m when `rega` says it swaps); with both K-major and few rows, the 64×128 tile
/// ([`GemmKernel::Tf32Wgmma64x128`]); each in the most splits one round holds
/// ([`one_round_splits`]; the register-A tile on up to [`STREAM_WORKSPACE_MAX_ROWS`] rows or
/// columns through the workspace where clusters are too few, [`workspace_round_splits`]). Measured
/// against the fastest of every plan timed (c1): nn 16/32/64×4096×4096 26.4–27.5 µs (the fastest),
/// tn 30.3–31.4 (fastest 27.8–29.7), nn and tn 8×8192×8192 69.6 and 74.0 (the fastest), nt
/// 16/32/64×4096×4096 22.6–24.4 (the fastest or within 2 %), nt 8×8192×8192 68.6. Not for few
/// K-major columns: the 64×128 tile puts its 64 rows along the long side there (nt 4096×16×4096:
/// 60.3 µs in one round, the model's pick 32.7).
pub fn stream_plan_tf32(wgmma: bool, rega: Option<(bool, usize)>, direct: bool, m: usize, n: usize, k: usize, sms: Multiprocessors) -> Option<GemmPlan> {
    if !wgmma || !streams_long_operand(m, n, k) {
        return None;
    }
    let (kernel, (sm, sn)) = match rega {
        Some((swap, _)) => (GemmKernel::Tf32WgmmaRegAWide, if swap { (n, m) } else { (m, n) }),
        None if direct && m <= STREAM_MAX_ROWS => (GemmKernel::Tf32Wgmma64x128, (m, n)),
        None => return None,
    };
    let model = TileModel::of(kernel)?;
    let workspace = rega.is_some() && m.min(n) <= STREAM_WORKSPACE_MAX_ROWS;
    let splits = one_round_splits(&model, sm, sn, k, sms).or_else(|| if workspace { workspace_round_splits(&model, sm, sn, k, sms) } else { None })?;
    Some(GemmPlan { kernel, splits })
}

/// Most rows or columns of a product [`workspace_round_splits`] takes. On 42 products drawn
/// from the 584 of a grid (sides 8–64 by 512–2048, k 2048–16384, layouts nn, tn, tt) whose pick
/// it changed, it ran the 27 of at most 32 rows or columns in 0.81 of the old time on geometric
/// mean (nn 1000×16×8192 22.5 → 15.0 µs, 0.55 → 0.82 of cuBLAS; tt 24×1280×6000 20.2 → 13.0),
/// the slowest 1.12× (nn 2048×32×16384); at 48 and 64, where the old pick was often the 64×128
/// register-A tile, 5 of 15 ran slower, up to 1.35× (tn 1024×64×8192; H200,
/// docs/runs/2026-11-28-s31/m10).
pub const STREAM_WORKSPACE_MAX_ROWS: usize = 32;

/// Where one round of clusters is too few blocks ([`one_round_splits`]: at most 8 splits of a
/// tile), the streaming rule's register-A tile splits further through the workspace, up to
/// [`STREAM_WORKSPACE_MAX_ROWS`] rows or columns: the most splits of [`SPLIT_CHOICES`] past a
/// cluster whose blocks still run in one round (clusters of 8 placed as
/// [`Multiprocessors::cluster_capacity`] allows, other counts one block per multiprocessor), if
/// that round keeps [`STREAM_MIN_FILL_PCT`] % of the multiprocessors busy. TF32 nn
/// 32×1024×16384 (8 tiles of the 128×192 tile over n×m) ran in 12 splits in 30.6 µs, in 8 (one
/// cluster each) 36.8, in 16 (two rounds of clusters) 44.5, where the cost model's pick, the
/// 64×128 register-A tile in 6 splits, took 38.8 (H200, docs/runs/2026-11-28-s31/m3).
pub fn workspace_round_splits(model: &TileModel, m: usize, n: usize, k: usize, sms: Multiprocessors) -> Option<u32> {
    let fits = |s: u32| s > MAX_CLUSTER_SPLITS && runs_in_one_round(model, m, n, s, sms);
    let splits = SPLIT_CHOICES.into_iter().rev().find(|&s| fits(s) && model.cost(m, n, k, s, sms).is_some())?;
    fills_round(model, m, n, splits, sms)
}

/// BF16 `Auto`'s plan for a product of more than [`SLIM_MAX_COLUMNS`] and at most
/// [`STREAM_MAX_ROWS`] rows bound by streaming op(B) ([`streams_long_operand`]; no padding
/// pass): the 64×128 tile in the most splits one round holds ([`one_round_splits`]), as TF32's
/// K-major rule ([`stream_plan_tf32`]). 64×4096×4096 ran in 11.5–11.7 µs in every layout (the
/// fastest plan timed), where the cost model's 64×64 tile in 2 splits took 12.9–13.2 (H200,
/// docs/runs/2026-11-27-s23/c1). Up to 32 rows the 64×32 tile on Cᵀ covers them better (16 rows:
/// 10.1 µs against 13.3).
pub fn stream_plan_bf16(wgmma: bool, stage_elems: usize, m: usize, n: usize, k: usize, sms: Multiprocessors) -> Option<(Bf16Kernel, u32)> {
    let rows = m > SLIM_MAX_COLUMNS && m <= STREAM_MAX_ROWS;
    if !wgmma || stage_elems > 0 || !rows || !streams_long_operand(m, n, k) {
        return None;
    }
    let kernel = Bf16Kernel::Wgmma64x128;
    Some((kernel, one_round_splits(&TileModel::of_bf16(kernel)?, m, n, k, sms)?))
}

/// Narrowest and widest short side of a product [`cp_stream_plan`] takes.
pub const CP_STREAM_ROWS: (usize, usize) = (33, 96);

/// `Tf32Auto`'s plan for a product with few rows or columns ([`CP_STREAM_ROWS`]) whose long
/// operand, at least [`STREAM_MIN_ELEMS`] elements, the copy engine cannot read (rows off 16
/// bytes): the `cp.async`-fed tiles, which read it as it is, in the split the cost model finds
/// cheapest. Every other plan first stages that operand, a pass as long as the product, or runs
/// on the CUDA cores. On the 7 such products of b4 (H200, docs/runs/2026-11-29-s42/b4) they were
/// the fastest plan or within 2 % of it (nn 6998×40×3170 73.4 µs against 81.4 for the best
/// other plan, tn 4286×69×6540 109.8 against 175.1, tn 2087×68×3358 36.9 against 48.6, nt
/// 89×4118×5637 73.2 against 85.9). Below 33 rows FP32's 32-wide tiles and the narrow kernels
/// waste less of a tile (tn 873×22×7834: FP32's plan 25.8 µs, the 64×64 tile 32.4); from
/// about 100 the staging pass is short beside the product and the TMA-fed tiles win (tn
/// 505×118×1934 13.3 against 18.2).
pub fn cp_stream_plan(wgmma: bool, stage: Tf32Staging, m: usize, n: usize, k: usize, sms: Multiprocessors) -> Option<GemmPlan> {
    let (narrow, wide) = (m.min(n), m.max(n));
    let (lo, hi) = CP_STREAM_ROWS;
    if !wgmma || !(lo..=hi).contains(&narrow) || wide.saturating_mul(k) < STREAM_MIN_ELEMS || stage.rest < wide * k {
        return None;
    }
    let (kernel, splits, _) = cheapest_cp(stage, m, n, k, sms)?;
    Some(GemmPlan { kernel, splits })
}

/// The cheapest (kernel, splits, cost) of the `cp.async`-fed tiles for an m×n×k product: their
/// models over their tile space (n×m where they swap, [`Tf32Staging::cp`]) plus the pass that
/// stages their shared operand, if any.
fn cheapest_cp(stage: Tf32Staging, m: usize, n: usize, k: usize, sms: Multiprocessors) -> Option<(GemmKernel, u32, f64)> {
    let (swap, staged, rows) = stage.cp;
    let (cm, cn) = if swap { (n, m) } else { (m, n) };
    let cp = [GemmKernel::Tf32WgmmaCp, GemmKernel::Tf32WgmmaCp64].map(|x| (x, TileModel::of(x)));
    cheapest(cp, |_, c| c + tf32_staging_cost(staged, rows, sms.count), cm, cn, k, sms)
}

/// TF32 `GemmKernel::Tf32Auto`'s plan: for a product bound by streaming its long operand the
/// streaming rule ([`stream_plan_tf32`]); otherwise the cost model over the `Tf32Wgmma` tiles (on sm_90a;
/// with the cost of staging or transposing the operands that are not K-major,
/// [`Tf32Staging::plan_cost`]; the 128×208 tile always stages them, and is considered only
/// where [`wide_208_saves_columns`]), `Tf32` and `Tf32Tile64`; then, with an MN-major operand,
/// the register-A kernels ([`GemmKernel::Tf32WgmmaRegA`], [`GemmKernel::Tf32WgmmaRegAWide`])
/// where they cost less, the 64×128 one on small products whatever the costs
/// ([`TF32_REGA_ALWAYS_FLOPS`]).
pub fn choose_tf32(wgmma: bool, stage: Tf32Staging, m: usize, n: usize, k: usize, sms: Multiprocessors) -> GemmPlan {
    if let Some(plan) = stream_plan_tf32(wgmma, stage.rega, stage.all == 0, m, n, k, sms) {
        return plan;
    }
    let wide = (TF32_WGMMA, GemmKernel::Tf32Wgmma128x208);
    let cands = tensor_core_candidates(wide, [GemmKernel::Tf32, GemmKernel::Tf32Tile64], TileModel::of, wgmma, n).map(move |(x, md)| {
        let slower = stage.four_byte && x == GemmKernel::Tf32;
        (x, md.map(|md| if slower { TileModel { eff: md.eff * TF32_MMA_4BYTE_LOAD_EFF, ..md } } else { md }))
    });
    let total = |kernel, c| match kernel {
        GemmKernel::Tf32Wgmma128x208 => c + stage.cost_of(stage.all, sms.count),
        _ if TF32_WGMMA.contains(&kernel) => stage.plan_cost(c, sms.count),
        _ => c,
    };
    let (kernel, splits, cost) = cheapest(cands, total, m, n, k, sms).unwrap_or((GemmKernel::Tf32, 1, f64::INFINITY));
    // Operands the copy engine cannot read (rows off 16 bytes): the `cp.async`-fed tiles,
    // which read the wide one as it is and stage only the narrow one ([`Tf32Staging::cp`]).
    let cp = if wgmma && stage.rest > 0 { cheapest_cp(stage, m, n, k, sms) } else { None };
    let (kernel, splits, cost) = match cp {
        Some(cp) if cp.2 < cost => cp,
        _ => (kernel, splits, cost),
    };
    // The register-A kernels: no staging, their tiles over n×m when they swap.
    let Some((swap, staged)) = stage.rega.filter(|_| wgmma) else {
        return GemmPlan { kernel, splits };
    };
    let rega_plan = |rega: GemmKernel| {
        // With both operands MN-major (`staged` > 0) the 64×128 tile on a small product
        // transposes op(B) in shared memory over m×n (no staging; `rega_transposes`).
        let transposes = rega_transposes(rega, staged, m, n, k);
        let (rm, rn) = if swap && !transposes { (n, m) } else { (m, n) };
        let model = TileModel::of(rega)?;
        let model = if transposes { TileModel { eff: model.eff * TF32_REGA_TRANSPOSE_EFF, ..model } } else { model };
        let (rsplits, c) = model.best_splits(rm, rn, k, sms);
        Some((GemmPlan { kernel: rega, splits: rsplits }, c + if transposes { 0.0 } else { staging_cost(staged, sms.count) }))
    };
    // The 64×128 tile on small products whatever the costs (TF32_REGA_ALWAYS_FLOPS; tn
    // transposes op(B) up to TF32_REGA_TRANSPOSE_MAX_K and stages an operand past it).
    let small = flops(m, n, k) <= TF32_REGA_ALWAYS_FLOPS && m.min(n) >= 64;
    if small && let Some((plan, _)) = rega_plan(GemmKernel::Tf32WgmmaRegA) {
        return plan;
    }
    [GemmKernel::Tf32WgmmaRegA, GemmKernel::Tf32WgmmaRegAWide]
        .into_iter()
        .filter_map(rega_plan)
        .fold((GemmPlan { kernel, splits }, cost), |best, x| if x.1 < best.1 { x } else { best })
        .0
}

/// The rate of the 128×128 TF32 `mma.sync` tile ([`GemmKernel::Tf32`]) with its 4-byte-load
/// main loop (an operand whose rows break 16-byte alignment), relative to its model: with its
/// fitted rate the model ran such products on it where the `wgmma` tiles, which stage those
/// operands first, were 1.3–1.6× faster (tn 140×3343×948 49.6 µs against 30.7 on the 64×128
/// `wgmma` tile, tt 3567×156×918 50.2 against 33.3, tn 7259×244×1656 126.9 against 94.5). Scored
/// offline on every plan timed on 129 TF32 products of docs/runs/2026-11-25-h100-s21/d2 and
/// docs/runs/2026-11-25-h100-s20/d4: the pick within 1.3 % of the best plan on geometric mean,
/// from 2.7 %; 0.5 gave the same picks, and the same factor on the 64×64 tile made it worse.
pub const TF32_MMA_4BYTE_LOAD_EFF: f64 = 0.7;

/// Whether the register-A kernel `rega`, with `staged` elements of one of two MN-major operands
/// to stage first (0: not both MN-major), transposes op(B) in shared memory instead: the 64×128
/// tile ([`GemmKernel::Tf32WgmmaRegA`]) on products of at most [`TF32_REGA_ALWAYS_FLOPS`] and k
/// of at most [`TF32_REGA_TRANSPOSE_MAX_K`], where the staging pass, a launch of its own, costs
/// more than the producers' transposing. Its tiles are then over m×n.
pub fn rega_transposes(rega: GemmKernel, staged: usize, m: usize, n: usize, k: usize) -> bool {
    rega == GemmKernel::Tf32WgmmaRegA && staged > 0 && k <= TF32_REGA_TRANSPOSE_MAX_K && flops(m, n, k) <= TF32_REGA_ALWAYS_FLOPS
}

/// Longest k for which the 64×128 register-A tile transposes op(B) of a tn product in shared
/// memory rather than staging an operand ([`rega_transposes`]): each k-slice costs its
/// producers a pass over op(B)'s tile, the staging pass a launch and one read and write of the
/// operand. Against the staged form over the sweep's tn products (H100,
/// docs/runs/2026-11-28-s30/k3 against `k2`): k = 32–384 ran in 0.70–0.93 of its time
/// (1024×784×64 6.84 → 4.83 µs, 4096×784×32 12.6 → 8.9, 384³ 8.96 → 7.59) or the same (1024×784
/// ×256 0.99, 1024×1024×256 1.05); k = 512 and 768 in 1.25–1.42 (1024×784×512 11.9 → 14.9, 768³
/// 13.6 → 19.3).
pub const TF32_REGA_TRANSPOSE_MAX_K: usize = 384;

/// The rate of the 64×128 register-A tile where its producers transpose op(B) in shared memory
/// (both operands MN-major, `gemm_wgmma_tf32_mn_rega_64x128`), relative to its model: three
/// stages instead of four, and the producers' shared-memory pass per stage. (Where it runs, on
/// small products, `Tf32Auto` takes this tile whatever the costs, [`TF32_REGA_ALWAYS_FLOPS`];
/// the rate prices its splits and its rare picks on fewer than 64 rows or columns.)
pub const TF32_REGA_TRANSPOSE_EFF: f64 = 0.7;

/// Up to this many FLOPs (2·m·n·k) `Tf32Auto` runs a product with an MN-major operand on the
/// register-A kernel whatever the other tiles' models say, if m and n are both at least 64: on such
/// products a block's time is mostly its fixed cost, which the model scales with the tile's area
/// and so prices above the 64×64 tile's, while the register-A kernel is the only one that reads an
/// MN-major operand with no staging or transposing pass. Measured on every such product of two
/// calls (H100, docs/runs/2026-11-24-h100-s15/e7, e8; nn, tt and tn): up to 2³⁰ it was faster than
/// `Auto`'s pick or as fast (tt 256³ 5.4 µs against 7.7, nn 2048×784×128 6.4 against 12.1,
/// 512×1024×1024 0.79–0.99 of `Auto`'s time), and past it it lost as often as it won (4096×784×256
/// 5–9 % slower, 1024×4096×256 tt 3 %; 2048³ 10–19 %, where the model already keeps it off). Forced
/// on fewer rows its 64×128 tile idles (e9: nn 8×8192×8192 102 → 178 µs, 32×1024×16384 34 → 41).
/// With both operands MN-major (tn) it staged one first, and then only from k = 64 (at k = 32 the
/// staging pass cost more than it saved: tn 1024×784×32 5.9 → 6.4); up to
/// [`TF32_REGA_TRANSPOSE_MAX_K`] it now transposes op(B) in shared memory instead
/// ([`TF32_REGA_TRANSPOSE_EFF`]).
pub const TF32_REGA_ALWAYS_FLOPS: f64 = (1u64 << 30) as f64;

/// Whether `Bf16Kernel::Auto` and `Tf32Auto` consider the 128×208 tile for n columns: only
/// where it computes at most 85 % of the columns the 128×256 tile does (n = 784: 832 against
/// 1024). Elsewhere it
/// only loses: it runs at about 0.93 of the 128×256 tile's rate (4096³ nt 205 µs against 191),
/// and with an MN-major op(B), which lands in four 64-wide boxes for its 208 columns, 0.72
/// (nn 265 µs); given those constants the cost model still chose it for 3000³ and 5000³ nt
/// through wave counts (136 and 583 µs against 127 and 531; H100,
/// docs/runs/2026-11-23-h100-s8/r8, r9). Where the rule admits it with a K-major op(B) it wins:
/// 4096×784×4096 nt 42 µs against 47 on 128×256 tiles (73 before tiles past C stopped copying
/// what lies past it); with an MN-major one see [`BF16_208_MN_B_EFF`] (H100,
/// docs/runs/2026-11-24-h100-s14/e5).
///
/// Nor where n fits one 128-wide tile: there the 64×128 and 64×64 tiles cover n with fewer
/// wasted columns, and the 208-wide one only looked cheaper than the 256-wide one (TF32 nt
/// 32×10×1024 ran 16 splits of it in 9.0 µs, where 8 of the 64×128 tile took 5.6; H100,
/// docs/runs/2026-11-25-h100-s13/r3, r5).
pub fn wide_208_saves_columns(n: usize) -> bool {
    let cols = |bn: usize| n.div_ceil(bn) * bn;
    n > 128 && 100 * cols(208) <= 85 * cols(256)
}

/// `Bf16Kernel::Auto`'s plan: for a product of a few rows bound by streaming op(B) the streaming
/// rule ([`stream_plan_bf16`]); otherwise the cost model over the `Wgmma` tiles (on sm_90a; with the cost
/// of padding the operands `stage_elems` > 0 needs, [`padding_cost_bf16`]; the 128×208 tile only where
/// [`wide_208_saves_columns`], at [`BF16_208_MN_B_EFF`] of its rate with an MN-major op(B)),
/// `MmaLdmatrix` and `MmaTile64`; then the
/// 128×256 tile on Cᵀ ([`Bf16Kernel::WgmmaSwapped`], its model over n×m) in place of the
/// pick where it costs less, or as little with fewer tiles, or as little with as many and an
/// MN-major op(B) (`b_mn`); then the 64×32 tile over m×n or n×m
/// ([`Bf16Kernel::Wgmma64x32`], [`Bf16Kernel::Wgmma64x32Swapped`]) where its 32-wide side
/// covers n or m ([`SLIM_MAX_COLUMNS`]) and it costs less ([`SLIM_SHORT_ROWS_EFF`] of its rate
/// where that side's operand is MN-major, `a_mn` for op(A), and narrower than 32). With it the
/// BF16 sweep ran in 0.976 of the time, 31 shapes below 0.70 of cuBLAS → 20: 32×4096×4096 13.1
/// → 11.0 µs, 4096×16×4096 nt 15.2 → 10.8, 2048×10×4096 nt 17.2 → 9.1 (H100,
/// docs/runs/2026-11-24-h100-s17/e2).
///
/// Measured (H100, docs/runs/2026-11-24-h100-s14/e5): with an MN-major op(B) the 128×208 tile
/// lost to the 128×256 one on a single wave in either orientation (nn 4096×784×4096: 52.5 µs,
/// 48.8 unswapped, 45.9 swapped), and the swapped tile
/// ran nn and tn products as fast or 1–6 % faster where it has as many tiles (3000³ nn 122 µs
/// against 124, 2000³ 29.2 against 30.7), and faster where it has fewer (112 against 128 at
/// 4096×784×4096); with more (784×4096×4096 tn: 128 against 112) 6 % slower.
pub fn choose_bf16(
    wgmma: bool,
    (a_mn, b_mn): (bool, bool),
    (stage_elems, element_loads): (usize, bool),
    m: usize,
    n: usize,
    k: usize,
    sms: Multiprocessors,
) -> (Bf16Kernel, u32) {
    let (kernel, splits, _) = choose_bf16_priced(wgmma, (a_mn, b_mn), (stage_elems, element_loads), m, n, k, sms);
    (kernel, splits)
}

/// [`choose_bf16`], then the same product in TMA multicast pairs
/// (`crate::ops::matmul::Bf16Plan::multicast`) where op(B)'s rows as the copy engine reads them
/// are off the 128-byte lines (`b_off_lines`) and the model prices a pair cheaper: the tiles of
/// [`MULTICAST_EFF`] at that rate, in splits of at least [`MULTICAST_MIN_K`] of k, on an even
/// number of tile rows. Returns the kernel, its splits and whether it runs in pairs.
///
/// Why the rows: a box row off the lines costs the copy engine several L2 requests (session
/// 28: 12.7 M requests at 3000³ against 3.6 M at 3008³), and a pair makes half of op(B)'s. On
/// the H100 every pair timed on such rows ran faster than single blocks (nn 2048×784×1024 16.2
/// → 13.7 µs, nn 512×784×4096 17.0 → 14.3, 3000³ 122–125 → 106–107 in all four layouts), and on
/// rows on the lines all but two ran slower (nn 2048×1024×1024 10.5 → 13.2, 1024³ 7.0–7.4 →
/// 7.8–7.9, 1536³ 16.8 → 17.9; docs/runs/2026-11-28-s29/j3), where the H200 had run most of
/// them faster (`j2`).
#[allow(clippy::too_many_arguments)]
pub fn choose_bf16_multicast(
    wgmma: bool,
    layout: (bool, bool),
    b_off_lines: bool,
    staging: (usize, bool),
    m: usize,
    n: usize,
    k: usize,
    sms: Multiprocessors,
) -> (Bf16Kernel, u32, Multicast) {
    let (kernel, splits, cost) = choose_bf16_priced(wgmma, layout, staging, m, n, k, sms);
    // (A streamed product or no model's pick has no finite cost to beat.)
    if !wgmma || !b_off_lines || !kernel.is_wgmma() || !cost.is_finite() {
        return (kernel, splits, Multicast::OFF);
    }
    let extra = padding_cost_bf16(staging.0, staging.1, sms.count);
    let mut best = (kernel, splits, Multicast::OFF, cost);
    for (tile, gain) in MULTICAST_EFF {
        // The 128×192 tile up to one round more than `choose_bf16` admits it alone
        // ([`MULTICAST_192_MAX_ROUNDS`]).
        let admitted = |md: &TileModel| tile != Bf16Kernel::Wgmma128x192 || md.tiles(m, n) <= MULTICAST_192_MAX_ROUNDS * sms.count;
        let Some(model) = TileModel::of_bf16(tile).filter(admitted) else { continue };
        let model = TileModel { eff: model.eff * gain, ..model };
        for s in 1..=MAX_MULTICAST_SPLITS {
            let long = k / s as usize >= MULTICAST_MIN_K;
            // Pairs on an even number of tile rows (no padded tiles).
            let plan = Bf16Plan { multicast: Multicast::PAIRS, ..Bf16Plan::new(tile, s) };
            let fits = plan.multicast_fits() && m.div_ceil(model.bm).is_multiple_of(2);
            if let Some(c) = model.cost(m, n, k, s, sms).filter(|_| long && fits)
                && c + extra < best.3
            {
                best = (tile, s, Multicast::PAIRS, c + extra);
            }
        }
    }
    (best.0, best.1, best.2)
}

/// Most rounds of 128×192 tiles `Auto` runs in multicast pairs: one more than alone
/// ([`WIDE_192_MAX_ROUNDS`]). In pairs the tile ran 3000³ (2.9 rounds of 128×192 tiles, 2.2 of
/// 128×256) in 96–97 µs, where alone it took 114–115 and the 128×256 tile 113–117 in either
/// form; at 8192³ (21 rounds) in pairs it ran 1487 µs against the 128×256 tile's 1441 (H200,
/// docs/runs/2026-11-28-s29/j2).
pub const MULTICAST_192_MAX_ROUNDS: usize = WIDE_192_MAX_ROUNDS + 1;

/// Most splits of a multicast pair (one cluster of 2 × splits blocks, at most the portable 8).
pub const MAX_MULTICAST_SPLITS: u32 = 4;

/// Least k per split of a multicast plan: below it a pair's cluster barriers and the lockstep of
/// its two blocks cost more than the halved op(B) reads save (nt 2048×1024×784 on the 64×128
/// tile 10.4 → 10.7 µs in pairs, tn 4096×1024×256 10.1 → 12.5; at k ≥ 1024 every unsplit
/// 64×128 pair timed ran in 0.79–0.98 of its single blocks' time). Re-timed at k = 784–1000
/// (H200, docs/runs/2026-11-28-s31/m4): pairs ran 1000³ in 0.87–0.93 of the single blocks'
/// time, 2000×1000×1000 0.88–0.94 (against the 128×192 tile alone), 3000×700×1000 on the
/// 128×192 tile 0.88–0.90, and 1024×784×784 0.97–0.99, so from 896. Shorter splits in pairs
/// also ran faster (nn 128×1024×1024 in 4 splits 5.7 → 5.2 µs), but admitting them sent nn
/// 2048×784×1024 to 2 splits of the 128×208 tile in pairs, 23.2 µs against 11.8 unsplit on
/// the 64×128 one (H200, docs/runs/2026-11-28-s29/j2): the model's split costs are not fitted
/// to pairs.
pub const MULTICAST_MIN_K: usize = 896;

/// The `wgmma` tiles that run in multicast pairs (they have pair kernels), and their rate in
/// pairs relative to single blocks (the model's eff scaled by it), fitted to every plan timed
/// both ways on 22 products (H200, docs/runs/2026-11-28-s29/j2). The 64×128 tile reads 24 KiB
/// of L2 per k-step for 1 MFLOP and gains most: 2048×784×1024 14.8 → 11.8 µs, tn 1024×784×2048
/// 14.5 → 12.0, nn 512×784×4096 in 2 splits 15.6 → 12.9 (median 0.86 of the single blocks'
/// time at k ≥ 1024). The 128×192 tile gained where the operands sit in L2 with rows off the
/// 128-byte lines (3000³ 115 → 97 µs, 0.78–0.86) and 0.91–1.0 elsewhere. The 128×256 tile
/// (either orientation) and the 64×64 one gained nothing (0.98–1.16); the 128×208 tile gained on
/// the H200 (0.87–0.94) but lost on the H100 (nn 2048×784×4096 in 2 splits 33.0 → 50.2 µs,
/// 4096×784×1024 17.5 → 19.3; `j3`), so those run alone.
pub const MULTICAST_EFF: [(Bf16Kernel, f64); 2] = [(Bf16Kernel::Wgmma64x128, 1.15), (Bf16Kernel::Wgmma128x192, 1.06)];

/// [`choose_bf16`] with the pick's modelled cost.
fn choose_bf16_priced(
    wgmma: bool,
    (a_mn, b_mn): (bool, bool),
    (stage_elems, element_loads): (usize, bool),
    m: usize,
    n: usize,
    k: usize,
    sms: Multiprocessors,
) -> (Bf16Kernel, u32, f64) {
    if let Some((kernel, splits)) = stream_plan_bf16(wgmma, stage_elems, m, n, k, sms) {
        return (kernel, splits, f64::INFINITY);
    }
    let wide = (BF16_WGMMA, Bf16Kernel::Wgmma128x208);
    let cands = tensor_core_candidates(wide, [Bf16Kernel::MmaLdmatrix, Bf16Kernel::MmaTile64], TileModel::of_bf16, wgmma, n).map(move |(x, md)| {
        let slower = b_mn && x == Bf16Kernel::Wgmma128x208;
        let md = md.filter(|md| x != Bf16Kernel::Wgmma128x192 || md.tiles(m, n) <= WIDE_192_MAX_ROUNDS * sms.count);
        (x, md.map(|md| if slower { TileModel { eff: md.eff * BF16_208_MN_B_EFF, ..md } } else { md }))
    });
    let staging = padding_cost_bf16(stage_elems, element_loads, sms.count);
    let total = |kernel, c| if BF16_WGMMA.contains(&kernel) { c + staging } else { c };
    let Some((kernel, splits, cost)) = cheapest(cands, total, m, n, k, sms) else {
        return (Bf16Kernel::MmaLdmatrix, 1, f64::INFINITY);
    };
    if !wgmma {
        return (kernel, splits, cost);
    }
    let (mut kernel, mut splits, mut cost) = (kernel, splits, cost);
    if let Some(swapped) = TileModel::of_bf16(Bf16Kernel::WgmmaSwapped) {
        let (sm, sn) = Bf16Kernel::WgmmaSwapped.tile_space(m, n);
        let (s_splits, s_cost) = swapped.best_splits(sm, sn, k, sms);
        let s_cost = s_cost + staging;
        let (s_tiles, tiles) = (swapped.tiles(sm, sn), swapped.tiles(m, n));
        let as_cheap = kernel == Bf16Kernel::Wgmma && s_cost <= SWAP_TIE * cost;
        if s_cost * SWAP_TIE < cost || (as_cheap && (s_tiles < tiles || (s_tiles == tiles && b_mn))) {
            (kernel, splits, cost) = (Bf16Kernel::WgmmaSwapped, s_splits, s_cost);
        }
    }
    // The 64×32 tile, its 32-wide side over n (op(B)), or over m (swapped: op(A)).
    for (slim, mn) in [(Bf16Kernel::Wgmma64x32, b_mn), (Bf16Kernel::Wgmma64x32Swapped, a_mn)] {
        let (sm, sn) = slim.tile_space(m, n);
        let short_rows = mn && sn < SLIM_MAX_COLUMNS;
        let Some(model) = TileModel::of_bf16(slim).filter(|_| sn <= SLIM_MAX_COLUMNS) else { continue };
        let model = if short_rows { TileModel { eff: model.eff * SLIM_SHORT_ROWS_EFF, ..model } } else { model };
        let (s_splits, s_cost) = model.best_splits(sm, sn, k, sms);
        if s_cost + staging < cost {
            (kernel, splits, cost) = (slim, s_splits, s_cost + staging);
        }
    }
    // Few tiles and a short k: the 64×32 tile, unsplit (no modelled cost: final, no pairs).
    if kernel.is_wgmma()
        && let Some(slim) = few_tiles_slim(m, n, k, sms)
    {
        return (slim, 1, f64::INFINITY);
    }
    (kernel, splits, cost)
}

/// Longest k for which BF16 `Auto` runs a product of few tiles on the 64×32 tile
/// ([`few_tiles_slim`]): up to 16 of its 64-deep k-steps.
pub const SLIM_FEW_TILES_MAX_K: usize = 1024;

/// The 64×32 tile for a product wider than [`SLIM_MAX_COLUMNS`] both ways whose k is at most
/// [`SLIM_FEW_TILES_MAX_K`] and whose 64×32 tiles, in the orientation with fewer of them (on a
/// tie, the 32-wide side along the shorter of m and n), are no more than the multiprocessors:
/// one block each, unsplit. Such a product's time is its blocks' latency, not their rate, which
/// the cost model (a tile's time by its area) does not price: on the H100 the 64×32 tile ran
/// nn 128×1024×1024 in 5.15 µs where `Auto`'s 64×64 tile in 3 splits took 5.97 (cuBLAS 3.98,
/// on 32×64 tiles, unsplit), 256×1024×1024 in 5.29 against 6.27, 64×1024×784 in 4.6 against
/// 5.5, 1024×128×1024 5.08 against 5.99 and 384³ 2.93 against 3.41, alike in all four layouts;
/// its splits cost more than they saved (128×1024×1024: 5.3–5.6 µs in 2–3 splits). Past one
/// block per multiprocessor it lost (512×1024×784, 256 tiles: 5.8–6.8 µs against 5.7–5.9), and
/// so it did at longer k, where the operands' traffic decides (64×4096×4096: 15.5 against 12.7;
/// docs/runs/2026-11-28-s30/k1).
pub fn few_tiles_slim(m: usize, n: usize, k: usize, sms: Multiprocessors) -> Option<Bf16Kernel> {
    let model = TileModel::of_bf16(Bf16Kernel::Wgmma64x32)?;
    if m.min(n) <= SLIM_MAX_COLUMNS || k > SLIM_FEW_TILES_MAX_K {
        return None;
    }
    let (plain, swapped) = (model.tiles(m, n), model.tiles(n, m));
    let slim = if swapped < plain || (swapped == plain && m <= n) { Bf16Kernel::Wgmma64x32Swapped } else { Bf16Kernel::Wgmma64x32 };
    (plain.min(swapped) <= sms.count).then_some(slim)
}

/// Least m·n/(m + n) (half the side of a square) of a product whose BF16 operands `Auto` copies
/// into aligned rows ([`align_rows_pays`]).
pub const ALIGN_ROWS_MIN_SIDE: f64 = 2048.0;

/// Least FLOPs (2·m·n·k) of such a product: past the copies' launches by far.
pub const ALIGN_ROWS_MIN_FLOPS: f64 = (1u64 << 37) as f64;

/// Most bf16 elements those copies stage (512 MiB; the stream keeps its staging buffer).
pub const ALIGN_ROWS_MAX_STAGED: usize = 1 << 28;

/// Whether rows of `row_bytes` (a row stride, or a base address) start off the 32-byte sectors
/// of L2, the operands [`crate::ops::matmul::Bf16Plan::align_rows`] copies.
pub fn rows_off_sectors(row_bytes: usize) -> bool {
    !row_bytes.is_multiple_of(32)
}

/// Whether BF16 `Auto` copies its operands into rows of a multiple of 256 bytes before the
/// `wgmma` tiles read them ([`crate::ops::matmul::Bf16Plan::align_rows`]). `operands`: for A
/// and B, the row stride as stored in bytes and whether the copy engine can read it (if not,
/// `Auto` copies it anyway, into the same rows).
///
/// A box row the copy engine reads off the sectors costs several L2 requests (BF16 nn 3000³:
/// 12.7 M against 3.6 M at 3008³, the same tiles; 123.5 µs against 110.2; 5000³ 562 against 393
/// at 5056³; H100, docs/runs/2026-11-28-s28/i1). The copies read and write each element once,
/// so against the product they cost in proportion to 1/m + 1/n: copying both operands paid on
/// the largest sides, 5000³ 524 → 453 µs, 7000³ 1419 → 1071–1081, tn 6008×4104×3000 317 → 267
/// (H100, `i3`); it lost on all 39 smaller products with rows off 64-byte boundaries timed
/// (nt 1024×1024×784 6.4 → 10.3 µs, 2000³ 28 → 40, 776×5000×5000 107 → 115; H200, `i2`) and on
/// 3000³ on the H100. Rows on sectors cost little: 6000³ (rows of 12000 bytes) ran 5–11 %
/// slower copied (626 → 696 µs nt), and copying one operand while the other stays off lost too
/// (nn 4104×4104×8192, B alone: 434 → 474; `i3`), so every operand must end up on the sectors.
pub fn align_rows_pays(m: usize, n: usize, k: usize, operands: [(usize, bool); 2]) -> bool {
    let (mf, nf) = (m as f64, n as f64);
    let off = |&(bytes, supported): &(usize, bool)| supported && rows_off_sectors(bytes);
    let copied = |&(bytes, supported): &(usize, bool)| !supported || rows_off_sectors(bytes);
    let staged = [m * k, n * k].iter().zip(&operands).filter(|(_, o)| copied(o)).map(|(e, _)| e).sum::<usize>();
    operands.iter().any(off)
        && operands.iter().all(copied)
        && staged <= ALIGN_ROWS_MAX_STAGED
        && mf * nf / (mf + nf) >= ALIGN_ROWS_MIN_SIDE
        && flops(m, n, k) >= ALIGN_ROWS_MIN_FLOPS
}

/// Most rounds of blocks (tiles per multiprocessor) for which `Bf16Kernel::Auto` weighs the
/// 128×192 tile. Its gain is filling multiprocessors the 128×256 tiles leave idle (1536³ 16.7
/// µs against 20.2, 2500×1800×3000 nn 67.7 against 72.9 on the H200); over more rounds, where
/// the clocks sink under the load, the model's whole rounds overstate it: 3000³ (384 tiles
/// against 288, three rounds either way) took 113 µs against 113 on the H200 (`e4`), 131 against
/// 122.5 on one H100 (`docs/runs/2026-11-27-s25/f3`) and 133 against 137 on another (`f4`), so
/// past two rounds the tested 128×256 tiles run.
pub const WIDE_192_MAX_ROUNDS: usize = 2;

/// Most columns of its tile space (n, or m when swapped) for which `Bf16Kernel::Auto` considers
/// the 64×32 tile: past one column of tiles each further one reads the wide operand again. At
/// 64 columns the 64×64 tile ran 13.3 µs where the 64×32 tile's best took 15.6, at 33 rows
/// the 64×128 tile 10.5 against 13.5 (nn, nt 64×4096×4096 and 33×2000×5000; H100,
/// docs/runs/2026-11-24-h100-s17/e1).
pub const SLIM_MAX_COLUMNS: usize = 32;

/// The 64×32 tile's rate where its 32-wide operand is MN-major with fewer than 32 columns: the
/// copy engine lands its k-rows of 2·columns bytes (16 at 8 columns) slower than the tile reads
/// them. tn and tt 8×8192×8192 took 68–69 µs on it against nn's 47, 16×4096×4096 13.0–13.6
/// against 10.8, 24×3000×2000 9.2–9.8 against 7.1–7.2; 32-column operands ran as fast either
/// way (H100, docs/runs/2026-11-24-h100-s17/e2). Fitted with plan_fit.py over e1 and e2: 0.7
/// sends tn and tt 8×8192×8192 to the 64×128 tile (59.8 µs against 68), higher values change
/// no pick.
pub const SLIM_SHORT_ROWS_EFF: f64 = 0.7;

/// The BF16 128×208 tile's rate with an MN-major op(B), relative to its rate with a K-major one:
/// op(B) lands in four 64-wide boxes for its 208 columns. nn against nt: 4096×784×4096 52.5
/// against 41.6 µs, 4096×784×2048 29.4 against 24.2, 3000³ 152 against 136, 1024×784×4096 in
/// three splits 23.3 against 20.2 (H100, docs/runs/2026-11-24-h100-s14/e5). Excluded instead,
/// the model ran nn 2048×784×4096 on the swapped 128×256 tile in 47.5 µs against 36.6 (`r2`).
pub const BF16_208_MN_B_EFF: f64 = 0.8;

/// Costs within this factor of each other are a tie between the two orientations of the
/// 128×256 tile ([`choose_bf16`]): the model counts the same waves for both where the
/// measurements differ by the tiles' count and op(B)'s layout.
const SWAP_TIE: f64 = 1.02;

/// The best split count for one fixed tile kernel.
pub fn choose_splits(kernel: GemmKernel, m: usize, n: usize, k: usize, sms: Multiprocessors) -> GemmPlan {
    choose(&[kernel], m, n, k, sms)
}

/// [`GemmKernel::RowDot`] (n ≤ 16): latency-bound, so the rule is occupancy, not the cost
/// model: split k while there are fewer than two blocks per multiprocessor, each split at least 4
/// slices (512 k) long.
pub fn rowdot(m: usize, k: usize, sms: Multiprocessors) -> GemmPlan {
    // The model's tile is the kernel's block (8 rows × 16 values × 32 lanes), so `cost` checks
    // the split's length and workspace.
    occupancy_plan(GemmKernel::RowDot, (m, 1, k), 2, sms)
}

/// [`GemmKernel::ColDot`] (m ≤ 16, n-contiguous op(B)): memory-bound, so the rule is
/// occupancy: split k until there are about four blocks per multiprocessor (blocks of 4 rows ×
/// 1024 columns), each split at least 4 slices (64 k) long, the splits' partials inside the
/// workspace.
pub fn coldot(m: usize, n: usize, k: usize, sms: Multiprocessors) -> GemmPlan {
    occupancy_plan(GemmKernel::ColDot, (m, n, k), 4, sms)
}

/// Most rows or columns of C of the narrow kernels.
const NARROW_MAX: usize = kernels::matmul::NARROW_MAX;

/// Shortest k [`narrow`] splits: below it a split's partial tile round trip and the last
/// block's sum cost more than the streaming it shares out. Unsplit, the narrow plans of 3–12
/// rows by 1500–12000 columns at k = 24–92 ran in 0.61–0.99 of their split time, three
/// precisions, every layout (BF16 nn 3×12000×80 5.1 → 3.2 µs, 0.60 → 0.97 of PyTorch; tt
/// 7723×6×92 6.1 → 5.5; H200, docs/runs/2026-11-29-s41/a8). At k = 130 and 200 they gained on
/// median (0.88) but lost up to 1.22× where the rows are many or off 16 bytes (nn 6×3177×200 6.8
/// → 8.3 µs), so those keep their splits, as do long-k products (f32 1×4096×4096: 28.8 µs in 6,
/// 30.0 in 3; H100, s10 `e3`).
pub const NARROW_MIN_SPLIT_K: usize = 128;

/// [`GemmKernel::NarrowMn`] and [`GemmKernel::NarrowK`] (f32 or bf16; `resident`: the blocks
/// the compiled kernel keeps on a multiprocessor): memory-bound, so the rule is occupancy, over
/// (narrow side, big side): the most splits of k that fit one wave (at most `resident` blocks
/// per multiprocessor), each split at least as long as the model allows (`NarrowMn` 64 k,
/// `NarrowK` 128). Timed at every split count on 12 shapes in three layouts, the fastest was the
/// last count inside one wave in nearly every case: a second wave, even a partial one, cost
/// more than it split (f32 1×4096×4096: 28.8 µs at 6 splits of 32 blocks, 30.0 at 3 and 29.6
/// at 8; H100, docs/runs/2026-11-24-h100-s10/e3).
pub fn narrow(kernel: GemmKernel, resident: usize, m: usize, n: usize, k: usize, sms: Multiprocessors) -> GemmPlan {
    let (small, big) = kernels::matmul::narrow_sides(m, n);
    let plan = occupancy_plan(kernel, (small, big, k), resident, sms);
    if k < NARROW_MIN_SPLIT_K { GemmPlan { splits: 1, ..plan } } else { plan }
}

/// The rule of the memory-bound dot-product kernels: the most splits of k, up to about
/// `blocks_per_sm` blocks per multiprocessor, that the kernel's model accepts (every split long
/// enough, the partials inside the workspace).
fn occupancy_plan(kernel: GemmKernel, (m, n, k): (usize, usize, usize), blocks_per_sm: usize, sms: Multiprocessors) -> GemmPlan {
    let model = TileModel::of(kernel).expect("a tile model");
    // Rounded down: a grid that already has nearly `blocks_per_sm` blocks per multiprocessor is
    // not split (rounded up, 2048×10×1024 ran `RowDot` in 2 splits of 256 blocks: 22.6 µs
    // against 11.9 unsplit; H100, gemm_plans).
    let want = ((blocks_per_sm * sms.count) / model.tiles(m, n).max(1)).clamp(1, MAX_SPLITS as usize) as u32;
    let splits = (1..=want).rev().find(|&s| model.cost(m, n, k, s, sms).is_some()).unwrap_or(1);
    GemmPlan { kernel, splits }
}

/// The FP32 tile kernels `GemmKernel::Auto` chooses among, largest tile first.
///
/// Not `Pipelined`: timed beside these on 30 shapes × 3 layouts it was 5–15 % slower than the
/// best of them from 0.1 GFLOP up (10 % faster only at k = 16), and with its fitted model in
/// the list `Auto` took it for the MLP's 4096×1024×1024 x·Wᵀ (235 µs against 216 on
/// `WarpTiledFast`; H100, docs/runs/2026-11-23-h100-s5).
pub const F32_TILES: [GemmKernel; 8] = [
    GemmKernel::WarpTiledWide,
    GemmKernel::WarpTiledFast,
    GemmKernel::Tile128x64,
    GemmKernel::Tile64x128,
    GemmKernel::Tile64,
    GemmKernel::Tile64Fine,
    GemmKernel::Tile32x64,
    GemmKernel::Tile64x32,
];

/// The FP32 tile kernels for operands that rule out 16-byte loads: [`F32_TILES`] but the wide
/// kernel, which needs them (the others run their main loop with 4-byte loads).
pub const F32_4BYTE_LOAD_TILES: &[GemmKernel] = match F32_TILES.split_first() {
    Some((GemmKernel::WarpTiledWide, rest)) => rest,
    _ => panic!("F32_TILES starts with the wide kernel"),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bf16_aligns_rows_only_on_large_sides_and_rows_off_sectors() {
        let off = |bytes| (bytes, true);
        // 5000³ and 7000³ (rows of 10000 and 14000 bytes) are copied, and so are rows the copy
        // engine cannot read beside rows off the sectors; 3000³ and 776×5000×5000 are too
        // small a side, 6000³'s rows sit on sectors, and one operand on them leaves the other.
        assert!(align_rows_pays(5000, 5000, 5000, [off(10000), off(10000)]));
        assert!(align_rows_pays(7000, 7000, 7000, [off(14000), off(14000)]));
        assert!(align_rows_pays(4500, 6100, 5000, [off(10000), (12200, false)]));
        assert!(!align_rows_pays(8000, 4500, 4000, [off(8000), (9000, false)]), "A on sectors");
        assert!(!align_rows_pays(3000, 3000, 3000, [off(6000), off(6000)]));
        assert!(!align_rows_pays(776, 5000, 5000, [off(10000), off(10000)]));
        assert!(!align_rows_pays(6000, 6000, 6000, [off(12000), off(12000)]));
        assert!(!align_rows_pays(4104, 4104, 8192, [off(16384), off(8208)]));
        assert!(!align_rows_pays(8192, 8192, 8192, [off(16384), off(16384)]));
        // A short k: the product is too small for the copies.
        assert!(!align_rows_pays(5000, 5000, 512, [off(1000), off(10000)]));
    }

    #[test]
    fn big_squares_take_the_widest_tile_unsplit() {
        for n in [4096, 8192] {
            assert_eq!(choose(&F32_TILES, n, n, n, Multiprocessors::H100), GemmPlan { kernel: GemmKernel::WarpTiledWide, splits: 1 }, "{n}");
        }
    }

    #[test]
    fn few_tiles_and_long_k_split() {
        // The MLP's 256×1024 layers: 8 wide tiles for 132 multiprocessors.
        let p = choose(&F32_TILES, 256, 1024, 1024, Multiprocessors::H100);
        assert!(p.splits > 1 || TileModel::of(p.kernel).unwrap().tiles(256, 1024) >= 64, "{p:?}");
        // A weight gradient with a tiny output and k = batch.
        let p = choose(&F32_TILES, 10, 1024, 4096, Multiprocessors::H100);
        assert!(p.splits > 1, "{p:?}");
    }

    #[test]
    fn few_tiles_with_a_short_k_take_the_slim_tile_unsplit() {
        let h = Multiprocessors::H100;
        let kk = (false, false);
        // 64 tiles of 64×32 either way: the 32-wide side along m, the shorter.
        assert_eq!(choose_bf16(true, kk, (0, false), 128, 1024, 1024, h), (Bf16Kernel::Wgmma64x32Swapped, 1));
        assert_eq!(choose_bf16(true, kk, (0, false), 1024, 128, 1024, h), (Bf16Kernel::Wgmma64x32, 1));
        assert_eq!(few_tiles_slim(384, 384, 384, h), Some(Bf16Kernel::Wgmma64x32Swapped));
        // 128 tiles still one per multiprocessor; 256 are not.
        assert_eq!(few_tiles_slim(256, 1024, 784, h), Some(Bf16Kernel::Wgmma64x32Swapped));
        assert_eq!(few_tiles_slim(512, 1024, 784, h), None);
        // A long k, or a side the existing 64×32 rule covers.
        assert_eq!(few_tiles_slim(128, 1024, 2048, h), None);
        assert_eq!(few_tiles_slim(32, 1024, 1024, h), None);
        // The orientation with fewer tiles: 96×3000 has 141 swapped, 188 plain.
        assert_eq!(few_tiles_slim(96, 3000, 1000, h), None);
        assert_eq!(few_tiles_slim(96, 2000, 1000, h), Some(Bf16Kernel::Wgmma64x32Swapped));
    }

    #[test]
    fn multicast_pairs_where_k_is_long_and_the_tile_reads_much_per_flop() {
        let h = Multiprocessors::H100;
        // Packed operands: op(B)'s rows are n (tb = false) or k (tb = true) bf16 long.
        let pick = |(ta, tb): (bool, bool), m, n, k: usize| {
            let off = (2 * if tb { k } else { n }) % 128 != 0;
            choose_bf16_multicast(true, (ta, !tb), off, (0, false), m, n, k, h)
        };
        // The MLP's 784-wide products on the 64×128 tile, 3000³ on the 128×192 one.
        assert_eq!(pick((false, false), 2048, 784, 1024), (Bf16Kernel::Wgmma64x128, 1, Multicast::PAIRS));
        assert_eq!(pick((false, false), 512, 784, 4096), (Bf16Kernel::Wgmma64x128, 2, Multicast::PAIRS));
        for layout in [(false, false), (false, true), (true, false), (true, true)] {
            assert_eq!(pick(layout, 3000, 3000, 3000), (Bf16Kernel::Wgmma128x192, 1, Multicast::PAIRS));
            // From k = 896 (MULTICAST_MIN_K).
            assert_eq!(pick(layout, 1000, 1000, 1000), (Bf16Kernel::Wgmma64x128, 1, Multicast::PAIRS));
        }
        // Short k per split, the 128×256 tile's products, odd tile rows: alone.
        assert!(!pick((false, true), 2048, 1024, 784).2.is_on());
        assert!(!pick((true, false), 4096, 1024, 256).2.is_on());
        assert!(!pick((false, false), 4096, 4096, 4096).2.is_on());
        assert!(!pick((false, true), 8192, 8192, 8192).2.is_on());
        // op(B)'s rows on the 128-byte lines (2048 bytes): alone.
        assert!(!pick((false, false), 2048, 1024, 1024).2.is_on());
        assert!(!pick((false, false), 1024, 1024, 1024).2.is_on());
        // 1088 rows: 17 tiles of 64, 9 of 128.
        assert!(!pick((false, false), 1088, 784, 4096).2.is_on());
    }

    #[test]
    fn the_208_wide_tile_only_where_it_saves_columns() {
        for n in [784, 800, 400] {
            assert!(wide_208_saves_columns(n), "{n}");
        }
        for n in [1000, 3000, 4096, 5000, 256, 1024, 10, 64, 128] {
            assert!(!wide_208_saves_columns(n), "{n}");
        }
        // Large BF16 products with n = 784 take it; 3000³ and 5000³ do not.
        assert_eq!(choose_bf16(true, (false, false), (0, false), 4096, 784, 4096, Multiprocessors::H100).0, Bf16Kernel::Wgmma128x208);
        assert_ne!(choose_bf16(true, (false, false), (0, false), 3000, 3000, 3000, Multiprocessors::H100).0, Bf16Kernel::Wgmma128x208);
        assert_ne!(choose_bf16(true, (false, false), (0, false), 5000, 5000, 5000, Multiprocessors::H100).0, Bf16Kernel::Wgmma128x208);
        // With an MN-major op(B) the 128×256 tile, on Cᵀ where that has fewer tiles or as many.
        assert_eq!(choose_bf16(true, (false, true), (0, false), 4096, 784, 4096, Multiprocessors::H100).0, Bf16Kernel::WgmmaSwapped);
        assert_eq!(choose_bf16(true, (false, true), (0, false), 2000, 2000, 2000, Multiprocessors::H100).0, Bf16Kernel::WgmmaSwapped);
        assert_eq!(choose_bf16(true, (false, true), (0, false), 784, 4096, 4096, Multiprocessors::H100).0, Bf16Kernel::Wgmma);
        assert_eq!(choose_bf16(true, (false, false), (0, false), 4096, 4096, 4096, Multiprocessors::H100).0, Bf16Kernel::Wgmma);
        // The 128×192 tile where it fills more multiprocessors (1536³: 96 tiles against 72), not
        // past two rounds of its tiles (3000³: 384) nor where it adds rounds.
        for layout in [(false, false), (false, true), (true, false), (true, true)] {
            assert_eq!(choose_bf16(true, layout, (0, false), 1536, 1536, 1536, Multiprocessors::H100).0, Bf16Kernel::Wgmma128x192);
            for size in [3000, 4096, 5000, 8192] {
                assert_ne!(choose_bf16(true, layout, (0, false), size, size, size, Multiprocessors::H100).0, Bf16Kernel::Wgmma128x192);
            }
        }
        let kk = Tf32Staging::default();
        assert_eq!(choose_tf32(true, kk, 4096, 784, 4096, Multiprocessors::H100).kernel, GemmKernel::Tf32Wgmma128x208);
        assert_ne!(choose_tf32(true, kk, 3000, 3000, 3000, Multiprocessors::H100).kernel, GemmKernel::Tf32Wgmma128x208);
    }

    #[test]
    fn the_narrow_fp32_tiles_only_where_they_save_rows_or_columns() {
        for (m, n) in [(32, 4096), (16, 1024), (96, 700), (160, 50)] {
            assert!(narrow_tile_saves(GemmKernel::Tile32x64, m, n, 1024), "{m}x{n}");
            assert!(narrow_tile_saves(GemmKernel::Tile64x32, n, m, 1024), "{n}x{m}");
        }
        for (m, n) in [(64, 32), (768, 768), (33, 10), (784, 16)] {
            assert!(!narrow_tile_saves(GemmKernel::Tile32x64, m, n, 1024), "{m}x{n}");
            assert!(!narrow_tile_saves(GemmKernel::Tile64x32, n, m, 1024), "{n}x{m}");
        }
        // A narrow side over 32 only on products that are not compute-bound; 32 or fewer on any.
        assert!(!narrow_tile_saves(GemmKernel::Tile64x32, 5386, 143, 2066));
        assert!(!narrow_tile_saves(GemmKernel::Tile32x64, 89, 4118, 5637));
        assert!(narrow_tile_saves(GemmKernel::Tile32x64, 32, 8192, 8192));
        // Squares and the MLP's wide layers keep the 8×8 tiles; its batch-32 layers and
        // few-column products take the narrow ones.
        let h = Multiprocessors::H100;
        for n in [768, 1024] {
            assert!(!matches!(choose(&F32_TILES, n, n, n, h).kernel, GemmKernel::Tile32x64 | GemmKernel::Tile64x32), "{n}");
        }
        assert_eq!(choose(&F32_TILES, 32, 4096, 4096, h).kernel, GemmKernel::Tile32x64);
        assert_eq!(choose(&F32_TILES, 4096, 16, 4096, h).kernel, GemmKernel::Tile64x32);
    }

    #[test]
    fn bf16_pads_for_wgmma_the_rows_the_mma_tiles_would_load_by_element() {
        let h = Multiprocessors::H100;
        // nn 3166×26×3258: A's rows (3258 bf16) and B's (26) are off 8-byte alignment.
        let pad = 3166 * 3264 + 3258 * 32;
        assert_ne!(choose_bf16(true, (false, true), (pad, true), 3166, 26, 3258, h).0, Bf16Kernel::MmaTile64);
        // Rows 8-byte aligned (copied with cp.async by the mma.sync tiles): the TF32 rate stays,
        // and nt 18×6130×5316 keeps the 64×64 tile.
        let pad = 18 * 5320 + 6130 * 5320;
        assert_eq!(choose_bf16(true, (false, false), (pad, false), 18, 6130, 5316, h).0, Bf16Kernel::MmaTile64);
    }

    #[test]
    fn streaming_products_fill_one_round() {
        let h = Multiprocessors::H100;
        let kk = Tf32Staging::default();
        // K-major, few rows: 32 tiles of 64×128, 3 splits (32 clusters of 3 fit 39; of 4, 30).
        assert_eq!(choose_tf32(true, kk, 16, 4096, 4096, h), GemmPlan { kernel: GemmKernel::Tf32Wgmma64x128, splits: 3 });
        // 64 tiles: 2 splits (64 clusters of 2 fit 66).
        assert_eq!(choose_tf32(true, kk, 8, 8192, 8192, h), GemmPlan { kernel: GemmKernel::Tf32Wgmma64x128, splits: 2 });
        // An MN-major operand (nn: the register-A forms swap): the 128×192 tile over n×m.
        let nn = Tf32Staging { all: 4096 * 4096, rest: 0, rows: 0, rega: Some((true, 0)), four_byte: false, cp: (false, 0, 0) };
        assert_eq!(choose_tf32(true, nn, 16, 4096, 4096, h), GemmPlan { kernel: GemmKernel::Tf32WgmmaRegAWide, splits: 3 });
        // Over n×m = 16×4096: 22 tiles of 192 columns, 5 splits (22 clusters of 5 fit 22).
        assert_eq!(choose_tf32(true, nn, 4096, 16, 4096, h), GemmPlan { kernel: GemmKernel::Tf32WgmmaRegAWide, splits: 5 });
        // Not for few K-major columns, short products, or without `wgmma`.
        assert!(stream_plan_tf32(true, None, true, 4096, 16, 4096, h).is_none());
        assert!(stream_plan_tf32(true, None, true, 32, 1024, 1024, h).is_none());
        assert!(stream_plan_tf32(false, None, true, 16, 4096, 4096, h).is_none());
        // BF16: 33 to 64 rows, no padding pass.
        assert_eq!(choose_bf16(true, (false, false), (0, false), 64, 4096, 4096, h), (Bf16Kernel::Wgmma64x128, 3));
        assert!(stream_plan_bf16(true, 0, 16, 4096, 4096, h).is_none());
        assert!(stream_plan_bf16(true, 8, 64, 4096, 4096, h).is_none());
        // One round never holds more tiles than multiprocessors.
        let m = TileModel::of(GemmKernel::Tf32Wgmma64x128).unwrap();
        assert_eq!(one_round_splits(&m, 64, 128 * 200, 4096, h), None);
        assert_eq!(one_round_splits(&m, 64, 128 * 100, 4096, h), Some(1));
        // Too few tiles to fill two thirds of the multiprocessors in one round of clusters: the
        // register-A tile up to 32 rows through the workspace (8 tiles × 12 splits), else the
        // model.
        let nn = Tf32Staging { all: 1024 * 16384, rest: 0, rows: 0, rega: Some((true, 0)), four_byte: false, cp: (false, 0, 0) };
        let wide = |splits| Some(GemmPlan { kernel: GemmKernel::Tf32WgmmaRegAWide, splits });
        assert_eq!(stream_plan_tf32(true, nn.rega, false, 32, 1024, 16384, h), wide(12));
        assert!(stream_plan_tf32(true, nn.rega, false, 64, 1024, 16384, h).is_none());
        assert!(stream_plan_tf32(true, None, true, 32, 1024, 16384, h).is_none());
    }

    #[test]
    fn one_tile_with_a_long_k_takes_the_narrow_tiles() {
        let h = Multiprocessors::H100;
        let p = choose_f32(&F32_TILES, true, X3SplitReads::default(), 64, 64, 16384, h);
        assert!(matches!(p.kernel, GemmKernel::Tile32x64 | GemmKernel::Tile64x32) && p.splits >= 32, "{p:?}");
        // Two 64×64 tiles at 64 splits fill the multiprocessors; a short k cannot split 64 ways.
        assert!(few_blocks_plan(&F32_TILES, 64, 128, 16384, h).is_none());
        assert!(few_blocks_plan(&F32_TILES, 64, 64, 1024, h).is_none());
    }

    #[test]
    fn rowdot_splits_only_grids_short_of_two_blocks_per_sm() {
        // 256 blocks of 8 rows already fill 132 multiprocessors about twice.
        assert_eq!(rowdot(2048, 1024, Multiprocessors::H100).splits, 1);
        assert_eq!(rowdot(8192, 4096, Multiprocessors::H100).splits, 1);
        // 8 blocks: split k (each split at least 512 long).
        assert_eq!(rowdot(64, 16384, Multiprocessors::H100).splits, 32);
    }

    #[test]
    fn narrow_kernels_split_a_short_k_down_to_one_turn() {
        // 32 blocks of 128 columns over k = 256: 4 splits of 64 k for the big-contiguous form.
        assert_eq!(narrow(GemmKernel::NarrowMn, 2, 10, 4096, 256, Multiprocessors::H100).splits, 4);
        // The k-contiguous form keeps splits of at least 128 k.
        assert_eq!(narrow(GemmKernel::NarrowK, 2, 1582, 2, 111, Multiprocessors::H100).splits, 1);
        assert_eq!(narrow(GemmKernel::NarrowK, 2, 6, 1041, 257, Multiprocessors::H100).splits, 2);
        // Below NARROW_MIN_SPLIT_K no split at all (s41 `a8`); from it, as before.
        assert_eq!(narrow(GemmKernel::NarrowMn, 2, 6, 3177, 80, Multiprocessors::H100).splits, 1);
        assert_eq!(narrow(GemmKernel::NarrowMn, 2, 7723, 6, 92, Multiprocessors::H100).splits, 1);
        assert!(narrow(GemmKernel::NarrowMn, 2, 6, 3177, 200, Multiprocessors::H100).splits > 1);
    }

    #[test]
    fn wgmma_tiles_split_only_in_whole_clusters() {
        let h = Multiprocessors::H100;
        let tiles = [GemmKernel::Tf32Wgmma64x64, GemmKernel::Tf32Wgmma64x128, GemmKernel::Tf32Wgmma].map(|x| TileModel::of(x).unwrap());
        let bf16 = [Bf16Kernel::Wgmma64x32, Bf16Kernel::Wgmma64x64, Bf16Kernel::Wgmma].map(|x| TileModel::of_bf16(x).unwrap());
        // Products that took 9–26 splits through the workspace (docs/runs/2026-11-29-s39/v5).
        for (m, n, k) in [(107, 462, 1307), (2048, 10, 4096), (256, 10, 4096), (121, 239, 1648), (11, 20, 3284), (819, 74, 1750), (64, 64, 65536)] {
            for model in tiles.iter().chain(&bf16) {
                let (splits, _) = model.best_splits(m, n, k, h);
                assert!(splits == 1 || model.clusters(splits), "{m}x{n}x{k} on {}x{}: {splits} splits", model.bm, model.bn);
            }
        }
    }

    #[test]
    fn the_fp32_split_form_takes_two_clusters_at_most() {
        let h = Multiprocessors::H100;
        let model = TileModel::of(GemmKernel::Tf32x3Split).unwrap();
        // Tiny outputs with a long k ran 24–56 splits of it slower than the CUDA-core tiles
        // (docs/runs/2026-11-29-s40/x4); 16 paid on 128×784×4096 (x5).
        for (m, n, k) in [(9, 35, 4991), (84, 76, 1478), (118, 33, 2544), (80, 78, 7054)] {
            assert!(model.best_splits(m, n, k, h).0 <= 16, "{m}x{n}x{k}");
        }
        assert_eq!(model.best_splits(128, 784, 4096, h).0, 16);
    }

    #[test]
    fn cuda_core_splits_pay_for_their_partial_tiles() {
        // A tiny output with a long k: the model no longer splits the 64×64 tile 62 ways for
        // free (docs/runs/2026-11-29-s40/x3, x5: 62 splits 15.3 µs, 34 of the 32×64 tile 12.0).
        let plan = choose(&F32_TILES, 18, 90, 4894, Multiprocessors::H100);
        assert_ne!(plan.kernel, GemmKernel::Tile64Fine);
        assert!(plan.splits <= 40, "{plan:?}");
    }

    #[test]
    fn splits_are_never_empty_or_short() {
        let m = TileModel::of(GemmKernel::Tile64).unwrap();
        for k in [1, 15, 16, 17, 63, 64, 65, 1000, 4096] {
            for s in 1..=MAX_SPLITS {
                if let Some(per) = m.slices_per_split(k, s) {
                    let slices = k.div_ceil(16).max(1);
                    assert!((s as usize - 1) * per < slices, "k {k} splits {s}: last split empty");
                    assert!(s == 1 || per >= MIN_SLICES_PER_SPLIT);
                }
            }
        }
    }
}

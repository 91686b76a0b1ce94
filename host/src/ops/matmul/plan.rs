//! How a GEMM is run: which tile kernel, and into how many k-ranges (split-K) it is cut.
//!
//! The rule is a small cost model, not a table of shapes. For every tile kernel that can run the
//! product and every split count, it estimates the time of the slowest multiprocessor:
//!
//! ```text
//! blocks   = ⌈m/BM⌉·⌈n/BN⌉ · splits            (split s multiplies k-slices s·per ..)
//! L        = ⌈blocks / SMs⌉                     (blocks per multiprocessor, in turn or together)
//! rate(L)  = eff · min(1, min(L, resident)·warps / 8)
//! time     = L · (per·BK + K_FIXED / min(L, resident))·BM·BN / rate(L)
//!            + (splits − 1)·SPLIT_COST·BM·BN / eff
//! ```
//!
//! `eff` is the kernel's throughput per multiprocessor when it is full, relative to the
//! fastest kernel of its precision; a multiprocessor needs about 8 warps in flight before it
//! issues at full rate, so a lone 2-warp block runs at a quarter of it. `K_FIXED` is the
//! per-block cost outside the main loop (prologue, epilogue) in k-steps, partly hidden when
//! several blocks share a multiprocessor (4096×4096×16: one wide block per SM took 85 µs, two
//! 128×64 blocks per SM 65 µs); `SPLIT_COST` the round trip of a partial tile through the
//! workspace. The constants come from the
//! shape sweep (`cargo bench -p benches --bench gemm_sweep`, docs/gemm-sweep.md): what they
//! encode is general (waves, occupancy, fixed costs), so shapes outside the sweep follow the
//! same reasoning.

use super::GemmKernel;
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

/// Most k-ranges one tile is cut into.
pub const MAX_SPLITS: u32 = 16;

/// Fewest k-slices per split: shorter ranges spend more on the prologue and the serialized
/// epilogue than they gain.
const MIN_SLICES_PER_SPLIT: usize = 4;

/// Warps a multiprocessor needs in flight to issue at its full rate.
const SAT_WARPS: f64 = 8.0;
/// Per-block cost outside the main loop, in k-steps (fitted to the sweep's k ≤ 64 products on
/// an H100, where it dominates).
const K_FIXED: f64 = 96.0;
/// Cost of each further split of a tile, in k-steps of that tile: its partial tile goes to the
/// workspace and comes back in the last block's sum (8 bytes per output; a 128×256 tile at a
/// multiprocessor's share of DRAM bandwidth takes about as long as 64 k-steps).
const SPLIT_COST: f64 = 64.0;
/// A split must beat the unsplit product by this factor: below it the gain is in the noise
/// of the model, and the unsplit product is simpler (one write of C).
const SPLIT_GAIN: f64 = 0.95;

/// What the cost model knows of one tile kernel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TileModel {
    pub bm: usize,
    pub bn: usize,
    /// k per main-loop slice (the unit of split ranges).
    pub bk: usize,
    /// Blocks resident per multiprocessor (registers and shared memory).
    pub resident: usize,
    /// Warps per block doing the multiply.
    pub warps: usize,
    /// Throughput per multiprocessor when full, relative to the fastest kernel of the precision.
    pub eff: f64,
}

impl TileModel {
    /// The model of a tile kernel; `None` for kernels without split-K (the ladder's earlier
    /// rungs, `WarpDot`, the `mma.sync` kernels).
    pub fn of(kernel: GemmKernel) -> Option<TileModel> {
        let t = |bm, bn, bk, resident, warps, eff| Some(TileModel { bm, bn, bk, resident, warps, eff });
        match kernel {
            GemmKernel::WarpTiledWide => t(128, 256, 8, 1, 8, 1.0),
            GemmKernel::WarpTiledFast => t(128, 128, 16, 1, 8, 0.93),
            GemmKernel::Tile128x64 => t(128, 64, 16, 2, 4, 0.85),
            GemmKernel::Tile64x128 => t(64, 128, 16, 2, 4, 0.85),
            GemmKernel::Tile64 => t(64, 64, 16, 4, 2, 0.75),
            GemmKernel::Tf32Wgmma => t(128, 256, 32, 1, 8, 1.0),
            // 8 rows of C per block of 8 warps, 16 values per lane: for split-K's validity and
            // workspace only (see `rowdot`).
            GemmKernel::RowDot => t(8, 16 * 32, 128, 2, 8, 0.25),
            _ => None,
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
        let ok = splits == 1 || (per >= MIN_SLICES_PER_SPLIT && slices.div_ceil(per) == splits as usize);
        ok.then_some(per)
    }

    /// Estimated time (arbitrary units, comparable across the kernels of one precision).
    pub fn cost(&self, m: usize, n: usize, k: usize, splits: u32, sms: usize) -> Option<f64> {
        let per = self.slices_per_split(k, splits)?;
        let tiles = self.tiles(m, n);
        if splits > 1 && (tiles > SPLIT_COUNTERS || tiles * splits as usize * self.bm * self.bn > SPLIT_WORKSPACE) {
            return None;
        }
        let blocks = tiles * splits as usize;
        let load = blocks.div_ceil(sms.max(1));
        let together = load.min(self.resident) as f64;
        let rate = self.eff * (together * self.warps as f64 / SAT_WARPS).min(1.0);
        let area = (self.bm * self.bn) as f64;
        // Blocks resident together hide part of each other's prologue and epilogue.
        let main = load as f64 * ((per * self.bk) as f64 + K_FIXED / together) * area / rate;
        Some(main + f64::from(splits - 1) * SPLIT_COST * area / self.eff)
    }
}

impl TileModel {
    /// The BF16 `wgmma` kernels (`Bf16Kernel::Wgmma`): 128×256 tiles, 64 k per stage.
    pub const WGMMA_BF16: TileModel = TileModel { bm: 128, bn: 256, bk: 64, resident: 1, warps: 8, eff: 1.0 };

    /// The cheapest split count for this kernel, with its estimated cost.
    pub fn best_splits(&self, m: usize, n: usize, k: usize, sms: usize) -> (u32, f64) {
        let unsplit = self.cost(m, n, k, 1, sms).unwrap_or(f64::INFINITY);
        let mut best = (1, unsplit);
        for splits in 2..=MAX_SPLITS {
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

/// The cheapest (kernel, splits) among `kernels` for an m×n×k product on `sms`
/// multiprocessors; ties go to the earlier kernel and the fewer splits.
pub fn choose(kernels: &[GemmKernel], m: usize, n: usize, k: usize, sms: usize) -> GemmPlan {
    let mut best: Option<(f64, GemmPlan)> = None;
    for &kernel in kernels {
        let Some(model) = TileModel::of(kernel) else { continue };
        let (splits, c) = model.best_splits(m, n, k, sms);
        if best.is_none_or(|(b, _)| c < b) {
            best = Some((c, GemmPlan { kernel, splits }));
        }
    }
    best.map_or(GemmPlan { kernel: kernels[0], splits: 1 }, |(_, p)| p)
}

/// The best split count for one fixed tile kernel.
pub fn choose_splits(kernel: GemmKernel, m: usize, n: usize, k: usize, sms: usize) -> GemmPlan {
    choose(&[kernel], m, n, k, sms)
}

/// [`GemmKernel::RowDot`] (n ≤ 16): latency-bound, so the rule is occupancy, not the cost
/// model: split k until there are about two blocks per multiprocessor, each split at least 4
/// slices (512 k) long.
pub fn rowdot(m: usize, k: usize, sms: usize) -> GemmPlan {
    let model = TileModel::of(GemmKernel::RowDot).expect("a tile model");
    let want = (2 * sms).div_ceil(m.div_ceil(model.bm).max(1)).clamp(1, MAX_SPLITS as usize) as u32;
    // The model's tile is the kernel's block (8 rows × 16 values × 32 lanes), so `cost` checks
    // the split's length and workspace.
    let splits = (1..=want).rev().find(|&s| model.cost(m, 1, k, s, sms).is_some()).unwrap_or(1);
    GemmPlan { kernel: GemmKernel::RowDot, splits }
}

/// The FP32 tile kernels with a guarded main loop, for operands that rule out 16-byte loads.
pub const F32_GUARDED_TILES: [GemmKernel; 4] = [GemmKernel::WarpTiledFast, GemmKernel::Tile128x64, GemmKernel::Tile64x128, GemmKernel::Tile64];

/// The FP32 tile kernels `GemmKernel::Auto` chooses among, largest tile first.
pub const F32_TILES: [GemmKernel; 5] =
    [GemmKernel::WarpTiledWide, GemmKernel::WarpTiledFast, GemmKernel::Tile128x64, GemmKernel::Tile64x128, GemmKernel::Tile64];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_squares_take_the_widest_tile_unsplit() {
        for n in [4096, 8192] {
            assert_eq!(choose(&F32_TILES, n, n, n, 132), GemmPlan { kernel: GemmKernel::WarpTiledWide, splits: 1 }, "{n}");
        }
    }

    #[test]
    fn few_tiles_and_long_k_split() {
        // The MLP's 256×1024 layers: 8 wide tiles for 132 multiprocessors.
        let p = choose(&F32_TILES, 256, 1024, 1024, 132);
        assert!(p.splits > 1 || TileModel::of(p.kernel).unwrap().tiles(256, 1024) >= 64, "{p:?}");
        // A weight gradient with a tiny output and k = batch.
        let p = choose(&F32_TILES, 10, 1024, 4096, 132);
        assert!(p.splits > 1, "{p:?}");
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

//! Matrix multiplication: the GEMM ladder, one file per variant.
//!
//! Every GEMM kernel computes C[m×n] = act(α·op(A)·op(B) + bias + β·C) for any shape and any
//! operand layout (transposes are strides, see [`GemmParams`]), with the same epilogue
//! (`gemm_epilogue`). The rungs, slowest to fastest:
//!
//! | file | kernel | idea |
//! | --- | --- | --- |
//! | `naive.rs` | `gemm_naive_f32` | one thread per output, operands from global memory |
//! | `tiled.rs` | `gemm_smem_f32` | 32×32 tiles staged in shared memory |
//! | `tiled.rs` | `gemm_shortk_f32`, `gemm_shortk_bf16`, `gemm_shortk_small_*` | k ≤ 32: operands staged once, 8×4 outputs per thread (2×4 on grids short of a wave) stored as quads |
//! | `shortk_mma.rs` | `gemm_shortk_mma_bf16`, `gemm_shortk_mma_small_bf16` | short k on BF16 tensor cores: 32- or 64-deep chunks loaded element by element in any layout, `mma.sync` on a 64×64 tile (32×32 on grids short of a wave), a few hundred instructions |
//! | `blocktile_1d.rs` | `gemm_bt1d_f32` | each thread computes a column of 8 outputs |
//! | `simt.rs` | `gemm_bt2d_f32` | 8×8 outputs per thread from registers (2-D blocking) |
//! | `simt.rs` | `gemm_vec4_f32` | + 128-bit global loads, k-major padded shared tiles, 128-bit shared reads |
//! | `simt.rs` | `gemm_db_f32` | + two shared-memory stages (next tile prefetched into registers) |
//! | `simt.rs` | `gemm_warptile_f32` | + warp tiling (conflict-free shared reads) |
//! | `simt.rs` | `gemm_warptile_fast_f32` | + unguarded loads specialized per layout (edge tiles read clamped rows), split-K |
//! | `simt_wide.rs` | `gemm_wide_f32` | 8×16 outputs per thread on 128×256 tiles, one block per SM, split-K |
//! | `simt_pipelined.rs` | `gemm_pipelined_f32` | 8×16 per thread on 128×128 tiles of 4 warps fed by a 4-stage `cp.async` pipeline, two blocks per SM |
//! | `mma_tf32.rs` | `gemm_mma_tf32` | TF32 tensor cores (`mma.sync.m16n8k8`), f32 accumulation, 3-stage `cp.async` pipeline |
//! | `mma_tf32.rs` | `gemm_mma_tf32_bk64` | the same with 64 k per stage |
//! | `mma_bf16.rs` | `gemm_mma_bf16` | BF16 inputs on tensor cores (`mma.sync.m16n8k16`), f32 accumulation, 4 stages |
//! | `mma_bf16.rs` | `gemm_mma_bf16_ldm` | the same with 64 k per stage and `ldmatrix` fragment loads |
//! | `warpdot.rs` | `gemm_warpdot_f32`, `gemm_warpdot_bf16`, `gemm_coldot_f32`, `gemm_coldot_bf16` | a few rows of C (batch-1 layers): a warp per column, lanes split k; or four columns per thread, split-K, for an n-contiguous B |
//! | `narrow.rs` | `gemm_narrow_mn_*`, `gemm_narrow_k_*` | at most 16 rows or columns of C: a pass over the wide operand, the narrow one staged in shared memory, split-K |
//! | `skinny.rs` | `gemm_rowdot_f32`, `gemm_rowdot_bf16` | n ≤ 16: a warp per row of C, lanes split k, split-K |
//! | `simt.rs` | `gemm_tile64_f32`, `gemm_tile128x64_f32`, `gemm_tile64x128_f32` | the fast 8×8 body on smaller tiles, for outputs with few large tiles |
//! | `simt.rs` | `gemm_tile64_fine_f32` | the same body with 4×4 outputs per thread (256 threads per 64×64 tile), for small products |
//! | `simt.rs` | `gemm_tile32x64_f32`, `gemm_tile64x32_f32` | 4×4 outputs per thread on 32×64 and 64×32 tiles, for products of at most 32 rows or columns |
//! | `mma_tf32.rs`, `mma_bf16.rs` | `gemm_mma_tf32_64`, `gemm_mma_bf16_64` | the `mma.sync` pipeline on 64×64 tiles of 4 warps, split-K: mid-sized outputs |
//! | `stage.rs` | `gemm_stage_kmajor_f32` | copies a TF32 operand k-contiguous (transposed if need be) for `wgmma` |
//! | `wgmma.rs` | `gemm_wgmma_bf16_*`, `gemm_wgmma_tf32_kk` | Hopper: TMA copies into a 4-stage ring of transaction barriers, warp-specialized, `wgmma.mma_async` 64×256 per consumer warpgroup (sm_90a) |
//! | `wgmma_cp.rs` | `gemm_wgmma_tf32_cp_*` | TF32 `wgmma` fed by `cp.async` for rows off 16 bytes (TMA cannot read them): the wide operand from registers, copied as 16-byte chunks shifted by each row's phase (sm_90a) |
//!
//! `GemmKernel::Auto` on the host picks among the tile kernels and split-K counts with a cost
//! model (`host::ops::matmul::plan`). `split.rs` holds split-K (partial tiles added in z order
//! by the last block of a tile), `tile_store.rs` the compact epilogue through shared memory that
//! the tile kernels share. `pipeline.rs` holds the tensor-core kernels' shared `cp.async`
//! pipeline and mma loop; `common.rs`
//! the SIMT kernels' operand loaders and the mma/convert instructions; `hopper.rs` the sm_90a
//! barrier, TMA and wgmma wrappers. Measured speeds: docs/perf.md.

mod blocktile_1d;
#[cfg(target_arch = "nvptx64")]
mod common;
#[cfg(all(target_arch = "nvptx64", target_feature = "sm_90a"))]
mod hopper;
mod mma_bf16;
mod mma_tf32;
mod naive;
mod narrow;
mod pipeline;
mod shortk_mma;
mod simt;
mod simt_pipelined;
mod simt_wide;
mod skinny;
mod split;
mod stage;
mod tile_store;
mod tiled;
mod warpdot;
mod wgmma;
mod wgmma_cp;

pub use blocktile_1d::*;
pub use mma_bf16::*;
pub use mma_tf32::*;
pub use naive::*;
pub use narrow::*;
pub use pipeline::{TC_BK, TC_BM, TC_BN, TC_LDO, TC_THREADS, TC_TILE_64, TC_TILE_128, TcTile, tc_shared_bytes};
pub use shortk_mma::*;
pub use simt::*;
pub use simt_pipelined::*;
pub use simt_wide::*;
pub use skinny::*;
pub use split::*;
pub use stage::*;
pub use tile_store::*;
pub use tiled::*;
pub use warpdot::*;
pub use wgmma::*;
pub use wgmma_cp::*;

/// Shape, layout and epilogue of a general matrix product
/// C[m×n] = act(α·op(A)·op(B) + bias + β·C), shared by every GEMM kernel and its host launcher.
///
/// Operands are addressed through strides, so op(A) = Aᵀ is just swapped strides: element
/// (i, p) of op(A) lives at `a[i·a_row_stride + p·a_col_stride]`. The tiled kernels read 16 bytes
/// at a time along whichever stride is 1, when the other stride keeps those reads aligned; any
/// strides stay correct (they fall back to one element at a time).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GemmParams {
    pub m: u64,
    pub n: u64,
    pub k: u64,
    pub a_row_stride: u64,
    pub a_col_stride: u64,
    pub b_row_stride: u64,
    pub b_col_stride: u64,
    /// Row stride of C (its columns are contiguous).
    pub ldc: u64,
    pub alpha: f32,
    /// 0: overwrite C; 1: accumulate into it. Other values scale it.
    pub beta: f32,
    /// `Activation` code applied last.
    pub act: u32,
    /// Nonzero: `bias` (length n) is added to every row before the activation.
    pub has_bias: u32,
    /// Split-K: the kernels that support it (gridDim.z = `splits`) give block z the k-slices
    /// `z·slices_per_split ..`; the partial tiles are added in z order (`split_reduce`). 1
    /// everywhere else.
    pub splits: u32,
    /// k-slices (of the kernel's own slice depth) per split.
    pub slices_per_split: u32,
    /// Split-K only: one zeroed `u32` per output tile, counting the splits in.
    pub sem: u64,
    /// Split-K only: f32 workspace for every split's partial tile.
    pub ws: u64,
    /// FP32 on TF32 tensor cores (the TF32 `wgmma` kernels only; 0 elsewhere): A and B are
    /// staged as [head | tail] rows of two segments of `x3_slices` k-slices each, and k counts
    /// three segments: head·head, head·tail, tail·head (`stage.rs`).
    pub x3_slices: u32,
    /// Split-K in thread-block clusters (the `wgmma` kernels only; 0 elsewhere): the blocks
    /// per cluster when the `splits` blocks of a tile were launched as clusters along z (rank
    /// = z modulo the cluster size). They add their partial tiles through distributed shared
    /// memory, each block finishing a share of the tile's rows; with one cluster per tile no
    /// workspace or counter, with several the clusters' sums meet in the workspace, a counter
    /// per share.
    pub cluster: u32,
    /// Nonzero: the address of a bf16 copy of C (same shape and `ldc`, raw bf16 bits), which the
    /// epilogue also writes with every stored value, rounded to nearest even. The mixed-precision
    /// MLP takes the next layer's bf16 input from its forward GEMM this way, with no cast pass.
    /// Only the kernels whose epilogue is the `INLINE` one, run as one loop over the tile, write
    /// it: the SIMT tile kernels of `tile_store` (`gemm_warptile_fast_f32`, `gemm_tile*_f32`,
    /// `gemm_pipelined_f32`),
    /// every `mma.sync` and `wgmma` kernel and `gemm_rowdot_*`. The others (naive, shared-memory
    /// tiles, `bt1d`/`bt2d`/`vec4`/`db`/`warptile`/`wide`, `warpdot`/`coldot`) unroll the epilogue
    /// per accumulator and leave it alone; the host refuses them a copy
    /// (`GemmKernel::writes_bf16_copy`).
    pub c_bf16: u64,
}

/// The epilogue's activation: identity and ReLU inline, the transcendental ones (sigmoid, tanh)
/// through one out-of-line function. Inlining those into every unrolled store of a register tile
/// made the SIMT and wgmma kernels' code several times larger than their main loops (tens of
/// KiB of SASS, instruction-cache misses at the end of every tile).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn activate(code: u32, v: f32) -> f32 {
    use crate::math::Activation;
    match Activation::from_code(code) {
        Activation::Identity => v,
        Activation::Relu => Activation::Relu.apply(v),
        act => activate_out_of_line(act, v),
    }
}

#[cfg(target_arch = "nvptx64")]
#[inline(never)]
fn activate_out_of_line(act: crate::math::Activation, v: f32) -> f32 {
    act.apply(v)
}

/// `n`, hidden from the optimizer, so a loop bounded by it keeps one copy of its body
/// instead of being unrolled (code run once per block is fetched cold on every launch).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn opaque(n: usize) -> usize {
    let r: u64;
    // SAFETY: a register move.
    unsafe { core::arch::asm!("mov.u64 {r}, {n};", r = out(reg64) r, n = in(reg64) n as u64, options(pure, nomem, nostack)) };
    r as usize
}

/// Tile rows per group of [`grouped_tile`]'s launch order.
pub const TILE_GROUP_ROWS: usize = 8;

/// The (tile row, tile column) of C this block computes, for a grid of one block per tile (x
/// along n, y along m), in grouped order: consecutive blocks walk down a group of
/// [`TILE_GROUP_ROWS`] tile rows before moving one tile column right. The blocks resident at
/// one time then share k-slices of fewer panels of A and B, so more of their loads hit in L2: in
/// row order at 8192³, the TF32 wgmma kernel read 4.6 to 11 GB from DRAM depending on how the
/// blocks drifted, and took 3.0 to 4.2 ms.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn grouped_tile() -> (usize, usize) {
    use crate::thread::{block_idx_x, block_idx_y, grid_dim_x, grid_dim_y};
    let (gx, gy) = (grid_dim_x() as usize, grid_dim_y() as usize);
    grouped_tile_of(block_idx_y() as usize * gx + block_idx_x() as usize, gx, gy)
}

/// [`grouped_tile`]'s order for block `id` of `gx` tile columns and `gy` tile rows.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn grouped_tile_of(id: usize, gx: usize, gy: usize) -> (usize, usize) {
    grouped_tile_in(id, gx, gy, TILE_GROUP_ROWS)
}

/// [`grouped_tile_of`] in groups of `group_rows` rows.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn grouped_tile_in(id: usize, gx: usize, gy: usize, group_rows: usize) -> (usize, usize) {
    let per_group = group_rows * gx;
    let first = id / per_group * group_rows;
    let rows = if gy - first < group_rows { gy - first } else { group_rows };
    let within = id % per_group;
    (first + within % rows, within / rows)
}

/// The tile of block `id` in clusters of `cm` × `cn` tiles (`wgmma::multicast_pieces`) over a
/// grid of `gx` × `gy` tiles padded to whole clusters: the clusters walk [`grouped_tile`]'s
/// order over the grid of clusters (groups of [`TILE_GROUP_ROWS`] tile rows), and block i of a
/// cluster takes tile (i % cm, i / cm) in it. For pairs (cm = 2, cn = 1) that is
/// [`grouped_tile_of`]'s order on an even `gy`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn clustered_tile_of(id: usize, gx: usize, gy: usize, (cm, cn): (usize, usize)) -> (usize, usize) {
    let (cluster, i) = (id / (cm * cn), id % (cm * cn));
    let (row, col) = grouped_tile_in(cluster, gx.div_ceil(cn), gy.div_ceil(cm), (TILE_GROUP_ROWS / cm).max(1));
    (row * cm + i % cm, col * cn + i / cm)
}

/// Applies α, bias, β·C and the activation to one accumulator and stores it. Shared by every
/// GEMM kernel so their epilogues cannot drift apart.
///
/// # Safety
/// (row, col) is inside C; `bias` has n entries when `p.has_bias != 0`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn gemm_epilogue(c: *mut f32, bias: *const f32, p: &GemmParams, row: usize, col: usize, acc: f32) {
    // SAFETY: forwarded.
    unsafe { gemm_epilogue_act::<false>(c, bias, p, row, col, acc) }
}

/// [`gemm_epilogue`] with the transcendental activations inline (`INLINE`) or out of line.
/// Inline suits a loop's single copy of the epilogue; out of line, code unrolled per
/// accumulator. A call keeps the caller's live values in its stack frame when registers are
/// short: `gemm_rowdot_f32` (128 registers) and the 64×64 `mma.sync` tiles (170) spilled
/// 28-52 bytes per thread around it (ptxas 13.5).
///
/// # Safety
/// As [`gemm_epilogue`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn gemm_epilogue_act<const INLINE: bool>(c: *mut f32, bias: *const f32, p: &GemmParams, row: usize, col: usize, acc: f32) {
    let mut v = p.alpha * acc;
    if p.has_bias != 0 {
        // SAFETY: col < n.
        v += unsafe { *bias.add(col) };
    }
    let i = row * p.ldc as usize + col;
    // SAFETY: (row, col) is inside C.
    let dst = unsafe { c.add(i) };
    if p.beta != 0.0 {
        // SAFETY: inside C.
        v += p.beta * unsafe { *dst };
    }
    let v = if INLINE { crate::math::Activation::from_code(p.act).apply(v) } else { activate(p.act, v) };
    // SAFETY: inside C.
    unsafe { *dst = v };
    // The bf16 copy of C only where the epilogue is inlined once per loop (`INLINE`): in the
    // unrolled per-accumulator epilogues the extra store stopped `gemm_bt1d_f32`'s epilogue loop
    // from unrolling (its accumulators went to local memory). The host runs the other kernels
    // only without a copy (see `GemmParams::c_bf16`).
    if INLINE && p.c_bf16 != 0 {
        // SAFETY: the bf16 copy has C's shape and ldc; (row, col) is inside it.
        unsafe { *(p.c_bf16 as *mut u16).add(i) = crate::math::f32_to_bf16(v) };
    }
}

/// `gemm_epilogue` for four adjacent outputs (row, col..col+4): 16-byte accesses to C (and to
/// the bias) when all four are inside C and aligned, else element by element with bounds checks.
/// Rows at or past m are skipped.
///
/// # Safety
/// `c` holds m rows of `ldc` floats; `bias` has n entries when `p.has_bias != 0`; `p.c_bf16`,
/// when nonzero, holds m rows of `ldc` bf16.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn gemm_epilogue4(c: *mut f32, bias: *const f32, p: &GemmParams, row: usize, col: usize, acc: [f32; 4]) {
    // SAFETY: forwarded.
    unsafe { gemm_epilogue4_with::<false>(c, bias, p, crate::math::Activation::from_code(p.act), row, col, acc) }
}

/// Whether C takes the epilogue's 16-byte quads: its rows, base and bias 16-byte aligned.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn c_takes_quads(c: *mut f32, bias: *const f32, p: &GemmParams) -> bool {
    p.ldc % 4 == 0 && c as usize % 16 == 0 && (p.has_bias == 0 || bias as usize % 16 == 0)
}

/// [`gemm_epilogue4`] with `p.act` decoded once by the caller (`act`), so a loop over quads
/// branches once per quad on the activation, not once per value; `INLINE` as in
/// [`gemm_epilogue_act`].
///
/// # Safety
/// As [`gemm_epilogue4`]; `act` is `p.act`'s activation.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn gemm_epilogue4_with<const INLINE: bool>(
    c: *mut f32,
    bias: *const f32,
    p: &GemmParams,
    act: crate::math::Activation,
    row: usize,
    col: usize,
    acc: [f32; 4],
) {
    // SAFETY: forwarded.
    unsafe { gemm_epilogue4_step::<INLINE>(c, bias, p, act, (row, col), (0, 1), acc) }
}

/// [`gemm_epilogue4_with`] for the outputs (row + j·rs, col + j·cs), j < 4, with `(rs, cs)`
/// = `step`: with (0, 1) a quad; with (1, 0) four rows of one column, the form the tile stores
/// take where C's rows break 16-byte alignment ([`c_takes_quads`] false), so that each of the
/// four stores a warp issues covers 32 adjacent floats of a row. Quads there went out as four
/// 4-byte stores 16 bytes apart per warp instruction, 4.5 times the L2 write sectors (nt
/// 800×346×9 on the 64×32 tiles: 4.9 µs against 3.2 for 800×344×9; H100,
/// docs/runs/2026-11-24-h100-s18/e3, e4), and as four floats 8 columns apart per lane, runs of
/// 32 bytes, they still took 4.6 (e5). In this form the `wgmma` tiles ran bf16 nn 2111×7083×62
/// in 55 µs, from 97 (r2).
///
/// # Safety
/// As [`gemm_epilogue4_with`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn gemm_epilogue4_step<const INLINE: bool>(
    c: *mut f32,
    bias: *const f32,
    p: &GemmParams,
    act: crate::math::Activation,
    (row, col): (usize, usize),
    (rs, cs): (usize, usize),
    acc: [f32; 4],
) {
    use crate::math::Activation;
    use crate::vector::F32x4;
    let (m, n) = (p.m as usize, p.n as usize);
    if row >= m {
        return;
    }
    // A quad of C, or a column of four rows all inside C: computed as one vector (one
    // activation, one test of the bias, beta and copy for four outputs). Output by output
    // instead, the columns of four took the BF16 64×128 tile 2.5 times the instructions of
    // the aligned quads on output-bound products (nt 1248×6186×40 against 1248×6184×40;
    // H100, docs/runs/2026-11-25-h100-s20/d7).
    let quad = (rs, cs) == (0, 1) && col % 4 == 0 && col + 4 <= n && c_takes_quads(c, bias, p);
    let column = (rs, cs) == (1, 0) && col < n && row + 3 < m;
    if quad || column {
        let ldc = p.ldc as usize;
        let i = row * ldc + col;
        let mut v = F32x4(acc).map(|x| p.alpha * x);
        // SAFETY (every access below): a quad is inside C (row < m, col + 4 ≤ n) and 16-byte
        // aligned with its bias (checked above); a column's rows row..row + 4 < m and col < n.
        if p.has_bias != 0 {
            let b = unsafe { if quad { *(bias.add(col) as *const F32x4) } else { F32x4([*bias.add(col); 4]) } };
            v = v.zip(b, |x, b| x + b);
        }
        if p.beta != 0.0 {
            let old = unsafe { if quad { *(c.add(i) as *const F32x4) } else { F32x4([*c.add(i), *c.add(i + ldc), *c.add(i + 2 * ldc), *c.add(i + 3 * ldc)]) } };
            v = v.zip(old, |x, y| x + p.beta * y);
        }
        let v = match act {
            Activation::Identity => v,
            Activation::Relu => v.map(|x| Activation::Relu.apply(x)),
            other if INLINE => v.map(|x| other.apply(x)),
            other => v.map(|x| activate_out_of_line(other, x)),
        };
        // SAFETY: as above.
        unsafe {
            if quad {
                *(c.add(i) as *mut F32x4) = v;
            } else {
                unroll!(j in [0, 1, 2, 3] { *c.add(i + j * ldc) = v.0[j]; });
            }
        }
        if INLINE && p.c_bf16 != 0 {
            // SAFETY: as above; c_bf16 is C's copy (the contract).
            unsafe {
                if quad {
                    store_bf16x4(p.c_bf16, i, v.0[0], v.0[1], v.0[2], v.0[3]);
                } else {
                    let copy = p.c_bf16 as *mut u16;
                    unroll!(j in [0, 1, 2, 3] { *copy.add(i + j * ldc) = crate::math::f32_to_bf16(v.0[j]); });
                }
            }
        }
        return;
    }
    // Unrolled by hand, so `acc` stays in registers whatever the epilogue's size: as a loop, with
    // the bf16-copy store in the `INLINE` epilogue, it stopped unrolling in the `mma.sync` and
    // SIMT tile kernels and `acc` went to local memory (16 bytes of stack, ptxas 13).
    unroll!(j in [0, 1, 2, 3] {
        if row + j * rs < m && col + j * cs < n {
            // SAFETY: (row + j·rs, col + j·cs) is inside C.
            unsafe { gemm_epilogue_act::<INLINE>(c, bias, p, row + j * rs, col + j * cs, acc[j]) };
        }
    });
}

/// Writes four adjacent values (row, col..col+4) to the bf16 copy of C (`p.c_bf16`): one 8-byte
/// store when aligned, else four 2-byte ones.
///
/// Out of line, so the inlined epilogue stays small.
///
/// # Safety
/// `row < m`, `col + 4 ≤ n`, and `c_bf16` is C's bf16 copy.
#[cfg(target_arch = "nvptx64")]
#[inline(never)]
unsafe fn store_bf16x4(c_bf16: u64, i: usize, v0: f32, v1: f32, v2: f32, v3: f32) {
    use crate::math::f32_to_bf16;
    let base = c_bf16 as *mut u16;
    // Four scalars, no array indexed in a loop (that put a 16-byte frame in local memory).
    let (h0, h1, h2, h3) = (f32_to_bf16(v0), f32_to_bf16(v1), f32_to_bf16(v2), f32_to_bf16(v3));
    // SAFETY (both branches): inside the copy (the caller's bounds); the 8-byte store only when
    // 8-byte aligned.
    unsafe {
        if (c_bf16 as usize + 2 * i) % 8 == 0 {
            *(base.add(i) as *mut u64) = h0 as u64 | (h1 as u64) << 16 | (h2 as u64) << 32 | (h3 as u64) << 48;
        } else {
            *base.add(i) = h0;
            *base.add(i + 1) = h1;
            *base.add(i + 2) = h2;
            *base.add(i + 3) = h3;
        }
    }
}

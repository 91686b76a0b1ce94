//! Matrix multiplication C = A·B.

use kernels::KernelArg;
use kernels::matmul::{self as k, NAIVE_BLOCK};

use super::expect_shape;
use crate::buffer::DeviceMatrix;
use crate::context::Gpu;
use crate::error::Result;
use crate::launch::LaunchConfig;

/// Which matmul kernel to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatmulKernel {
    /// One thread per output element, operands read from global memory (the article's kernel).
    Naive,
    /// The fastest FP32 GEMM ([`GemmKernel::Auto`]).
    #[default]
    Auto,
    /// Any rung of the GEMM ladder, run with the identity epilogue.
    Gemm(GemmKernel),
}

/// C = A·B (new output). A is m×k, B is k×n.
pub fn matmul(gpu: &Gpu, a: &DeviceMatrix, b: &DeviceMatrix) -> Result<DeviceMatrix> {
    let mut c = DeviceMatrix::uninit(gpu, a.rows(), b.cols())?;
    matmul_into(gpu, a, b, &mut c, MatmulKernel::default())?;
    Ok(c)
}

/// C = A·B into an existing m×n output.
pub fn matmul_into(gpu: &Gpu, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix, kernel: MatmulKernel) -> Result<()> {
    expect_shape("matmul", "rows of B (= cols of A)", a.cols(), b.rows())?;
    expect_shape("matmul", "output shape", (a.rows(), b.cols()), c.shape())?;
    let (m, kk, n) = (a.rows(), a.cols(), b.cols());
    if m == 0 || n == 0 {
        return Ok(());
    }
    if kk == 0 {
        return c.fill(gpu, 0.0); // an empty sum
    }
    match kernel {
        MatmulKernel::Naive => {
            let cfg = LaunchConfig::for_2d("matmul_naive_f32", m, n, NAIVE_BLOCK)?;
            // SAFETY: shapes checked above; the grid covers m×n.
            unsafe { k::matmul_naive_f32(gpu, cfg, a, b, c, m, n, kk) }
        }
        MatmulKernel::Auto => gemm(gpu, a, Transpose::No, b, Transpose::No, Epilogue::default(), c, GemmKernel::Auto),
        MatmulKernel::Gemm(g) => gemm(gpu, a, Transpose::No, b, Transpose::No, Epilogue::default(), c, g),
    }
}

pub use kernels::math::Activation;
pub use plan::GemmPlan;

pub mod plan;
use kernels::matmul::{GEMM_NAIVE_BLOCK, GemmParams};

use crate::buffer::DeviceVector;
use crate::buffer_bf16::DeviceMatrixBf16;
use crate::tensor_map::{TmaElement, TmaMatrix};

/// Whether an operand is used as stored or transposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Transpose {
    #[default]
    No,
    Yes,
}

/// What happens to each accumulator before it is stored:
/// C = act(α·op(A)·op(B) + bias + β·C).
#[derive(Clone, Copy)]
pub struct Epilogue<'a> {
    pub alpha: f32,
    /// 0 overwrites C, 1 accumulates into it.
    pub beta: f32,
    /// Added to every row (length n).
    pub bias: Option<&'a DeviceVector<f32>>,
    pub act: Activation,
    /// Also written: a bf16 copy of C (C's shape), each stored value rounded to nearest even.
    /// The device memory behind this shared handle is overwritten, as C's is: the mixed-precision
    /// MLP's forward GEMM emits the next layer's bf16 input this way, with no cast pass.
    pub bf16_copy: Option<&'a DeviceMatrixBf16>,
}

impl Default for Epilogue<'_> {
    fn default() -> Self {
        Epilogue { alpha: 1.0, beta: 0.0, bias: None, act: Activation::Identity, bf16_copy: None }
    }
}

impl<'a> Epilogue<'a> {
    /// act(x + bias): a dense layer's epilogue.
    pub fn bias_act(bias: &'a DeviceVector<f32>, act: Activation) -> Self {
        Epilogue { bias: Some(bias), act, ..Epilogue::default() }
    }
    /// C += op(A)·op(B).
    pub fn accumulate() -> Self {
        Epilogue { beta: 1.0, ..Epilogue::default() }
    }
    /// This epilogue, also writing every stored value of C, rounded to bf16, into `copy`.
    pub fn with_bf16_copy(self, copy: &'a DeviceMatrixBf16) -> Self {
        Epilogue { bf16_copy: Some(copy), ..self }
    }
}

/// Which GEMM kernel [`gemm`] runs: the rungs of the ladder (see `kernels::matmul`). Every one
/// takes any shape, layout and epilogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum GemmKernel {
    /// The fastest FP32 kernel for the shape ([`GemmKernel::plan_for`] says which): `WarpDot`
    /// for a few rows, `NarrowMn` or `NarrowK` for at most 16 rows or columns, `ShortK` for a
    /// short k, `SmemTiled` for launch-bound products, `RowDot` for a few columns, `Pipelined`
    /// for k ≤ [`PIPELINED_AUTO_MAX_K`] on outputs of at least one of its tiles per
    /// multiprocessor, else the tile kernel and split-K that the cost model of [`plan`] picks
    /// (`WarpTiledWide`, `WarpTiledFast`, `Tile128x64`, `Tile64x128`, `Tile64`, and on sm_90a
    /// `Tf32x3Wgmma128x128`, whose error is the CUDA-core kernels' or smaller:
    /// [`plan::choose_f32`]). Plain TF32 rounds inputs to 10 mantissa bits, so it only runs
    /// when asked for (`Tf32Auto`).
    #[default]
    Auto,
    /// One thread per output, any layout (the reference).
    Naive,
    /// 32×32 tiles in shared memory, one output per thread.
    SmemTiled,
    /// 64×64 block tile, a column of 8 outputs per thread.
    BlockTile1d,
    /// 128×128 block tile, 8×8 outputs per thread.
    BlockTile2d,
    /// + 16-byte global loads, k-major padded shared tiles read 16 bytes at a time.
    Vectorized,
    /// + two shared-memory stages.
    DoubleBuffered,
    /// + warp tiling.
    WarpTiled,
    /// `WarpTiled` with unguarded 16-byte loads specialized for the layout (edge tiles read
    /// clamped rows; operands without 16-byte loads take the same loop with 4-byte loads), split-K, 128×128
    /// tiles, one block per multiprocessor.
    WarpTiledFast,
    /// 8×16 outputs per thread on 128×256 tiles, one block per multiprocessor: half the
    /// shared-memory reads per FMA of the 8×8 kernels; edge tiles in the same launch, split-K.
    /// Operands that rule out 16-byte loads run `WarpTiledFast` (its 4-byte-load loop) instead.
    WarpTiledWide,
    /// 8×16 outputs per thread on 128×128 tiles of 4 warps, two blocks per multiprocessor, fed
    /// by a 4-stage `cp.async` pipeline (no registers hold a slice in transit, and one block
    /// issues while the other waits at its barrier). Any layout and alignment (a k-contiguous
    /// operand is copied 4 bytes at a time into the k-major tile); edge tiles and a ragged k in
    /// the same loop, split-K. Measured 5–15 % slower than the register-staged tiles (ptxas
    /// spends the registers it would need to keep the copies' row offsets on recomputing them
    /// every slice), so `Auto` picks it only for the shortest k on large outputs ([`PIPELINED_AUTO_MAX_K`]).
    Pipelined,
    /// `WarpTiledFast` on 64×64 tiles of 64 threads, four blocks per multiprocessor: outputs
    /// with few larger tiles. Split-K like every tile kernel; operands without 16-byte loads
    /// run the main loop with 4-byte loads (as in `WarpTiledFast`, `Tile128x64` and `Tile64x128`).
    Tile64,
    /// `Tile64`'s 64×64 tiles on 256 threads of 4×4 outputs, two blocks per multiprocessor:
    /// a quarter of the instructions per thread and slice, spread over eight warps, for
    /// products too small to fill the GPU with the 8×8 tiles (the 64-thread tile spent its
    /// time issuing two warps' instruction streams: 189×16×832 in 36 µs under ncu, H100).
    /// Split-K and the 4-byte-load loop as in `Tile64`.
    Tile64Fine,
    /// `Tile64Fine`'s 4×4 outputs per thread on 32×64 tiles of 128 threads, four blocks per
    /// multiprocessor: products of at most 32 rows, where a 64-row tile computes as many
    /// padding rows as rows. Split-K and the 4-byte-load loop as in `Tile64`.
    Tile32x64,
    /// The 64×32 twin of `Tile32x64`: products of at most 32 columns.
    Tile64x32,
    /// `WarpTiledFast` on 128×64 tiles of 128 threads.
    Tile128x64,
    /// `WarpTiledFast` on 64×128 tiles of 128 threads.
    Tile64x128,
    /// n ≤ 16 (a narrow output layer's x·Wᵀ): one warp per row of C, lanes splitting k,
    /// split-K. Other shapes are an `InvalidArgument`.
    RowDot,
    /// TF32 tensor cores (`mma.sync`), f32 accumulation: inputs rounded to TF32 (about 1e-3
    /// relative error per product).
    Tf32,
    /// TF32 with 64 k per pipeline stage (half the barriers; 204 KiB of shared memory).
    Tf32Bk64,
    /// `Tf32` on 64×64 tiles of 4 warps, two blocks per multiprocessor, split-K: outputs with
    /// few 128×128 tiles, in any layout with no staging pass.
    Tf32Tile64,
    /// A few rows of C (a batch-1 dense layer): one warp per output column, lanes splitting k,
    /// 16-byte loads when both operands are k-contiguous; on Cᵀ (a warp per row of C) where C
    /// has fewer columns than rows, such as a matrix-vector product. Correct for any shape;
    /// fast for m ≤ 4 or n ≤ 4.
    WarpDot,
    /// At most 16 rows of C (four per block row) with an n-contiguous op(B) (x·W with W stored
    /// k×n): four columns per thread, 16-byte loads along B's rows, split-K. `Auto` no longer
    /// runs it: the narrow kernels beat it wherever it ran (f32 1×4096×4096: 28.8 µs against
    /// 44.5; H100, docs/gemm-sweep.md, tenth pass). Other shapes are an `InvalidArgument`.
    ColDot,
    /// k ≤ 32 (`kernels::matmul::SHORTK_MAX`): a product that is mostly its output. Each block
    /// stages op(A)'s 64 rows and op(B)'s 128 columns over all of k once, and each thread
    /// writes its 8×4 outputs in 16-byte quads.
    /// Longer k is an `InvalidArgument`.
    ShortK,
    /// At most 16 rows or 16 columns of C with a big-contiguous wide operand (op(B)ᵀ for few
    /// rows, op(A) for few columns; see `kernels::matmul::narrow_sides`): a pass over it, 128
    /// big indices per block, the narrow operand staged in shared memory, split-K. Any layout
    /// is correct; others load one element at a time. Other shapes are an `InvalidArgument`.
    NarrowMn,
    /// `NarrowMn` for a k-contiguous wide operand: four of its rows per warp, lanes along k,
    /// 32 big indices per block.
    NarrowK,
    /// Hopper TF32 (sm_90a only): TMA copies and `wgmma.mma_async`, 128×256 tiles, split-K.
    /// TF32 `wgmma` reads k-contiguous operands with 16-byte aligned rows only: x·Wᵀ with k a
    /// multiple of 4 runs as is; an m- or n-contiguous operand is either transposed in shared
    /// memory by the kernel's producer warpgroup (slower main loop, no extra pass: products
    /// with few rows) or first staged k-contiguous (one pass over it, into a staging buffer the
    /// stream keeps), as the cost model finds cheaper ([`plan::Tf32Staging`]).
    Tf32Wgmma,
    /// `Tf32Wgmma` on 64×128 tiles of one consumer warpgroup, two blocks per multiprocessor
    /// (sm_90a only): four times the tiles of the 128×256 kernel for mid-sized outputs.
    Tf32Wgmma64x128,
    /// `Tf32Wgmma` on 128×208 tiles (sm_90a only): products whose n the 256-wide tile covers
    /// badly (n = 784: four tiles, 832 columns, against 1024). MN-major operands are always
    /// staged k-contiguous first (no transposing form of this tile).
    Tf32Wgmma128x208,
    /// `Tf32Wgmma` on 64×64 tiles of one consumer warpgroup, two blocks per multiprocessor
    /// (sm_90a only): products with few rows or columns, split along k over more blocks.
    Tf32Wgmma64x64,
    /// TF32 `wgmma` with an MN-major operand read into registers (sm_90a only): its tiles land
    /// as they are and each consumer reads its fragments of them into registers, the operand
    /// `wgmma` takes from registers (an MN-major op(B) as Cᵀ = op(B)ᵀ·op(A)ᵀ, stored
    /// transposed), with no staging or transposing pass for it. With both operands MN-major the
    /// one with fewer rows or columns is staged k-contiguous first. 64×128 tiles, two blocks per
    /// multiprocessor; the MN-major operand's rows 16-byte aligned, and a k-contiguous other
    /// with 16-byte aligned rows, else an `InvalidArgument`.
    Tf32WgmmaRegA,
    /// `Tf32WgmmaRegA` on 128×192 tiles of two consumer warpgroups, one block per
    /// multiprocessor: large products, where the 64×128 tile's operand traffic caps its rate.
    Tf32WgmmaRegAWide,
    /// TF32 `wgmma` fed by `cp.async` (sm_90a only), for operands whose rows break 16-byte
    /// alignment, which the copy engine cannot read. The operand with more rows or columns
    /// (op(A), or op(B) as Cᵀ = op(B)ᵀ·op(A)ᵀ; [`wgcp_swaps`]) is read into registers as it is
    /// stored, copied 16 bytes at a time at any alignment (each row shifted by its phase); the
    /// other is copied 16 bytes at a time into `wgmma`'s shared layout, staged k-contiguous first
    /// where it is not so already (the narrow side: a short pass). 64×128 tiles of one
    /// warpgroup, two blocks per multiprocessor, split-K; any layout.
    Tf32WgmmaCp,
    /// `Tf32WgmmaCp` on 64×64 tiles, three blocks per multiprocessor: narrow products.
    Tf32WgmmaCp64,
    /// Near-FP32 products on TF32 tensor cores (sm_90a only, opt-in): each operand is staged as
    /// a TF32 head and the TF32 rounding of its remainder (`gemm_stage_split_tf32`), and the
    /// TF32 `wgmma` kernel (128×256 tiles) adds head·head + head·tail + tail·head: each product
    /// to about 2⁻²² relative. The tensor cores' accumulation over all of k is not f32's,
    /// though: on 256×4096×512 its largest error was 9–17× the CUDA-core kernel's (4.6e-4 and
    /// 9.1e-4 against 5.0e-5 and 5.3e-5, the more the fewer splits; H100), so `Auto` runs
    /// [`GemmKernel::Tf32x3Wgmma128x128`] instead.
    Tf32x3Wgmma,
    /// FP32 on TF32 tensor cores as [`GemmKernel::Tf32x3Wgmma`], on 128×128 tiles whose
    /// consumers add each 32-deep slice's `wgmma` sum to f32 registers (no room for those
    /// beside the 128×256 tile's accumulators). Its error against an f64 product is the
    /// CUDA-core kernels' or smaller (1024³: 2.3e-5 against 2.5e-5 on `WarpTiledWide` and 7.3e-5
    /// for cuBLAS SGEMM; 128×16384×256: 4.6e-5, 1.2e-4 and 8.3e-5), at 1.7–2× their speed from
    /// about 1 GFLOP (4096³ 1.56 ms against 2.95; H100, docs/runs/2026-11-24-h100-s11/e1). FP32
    /// `Auto` runs it on sm_90a where the cost model finds it faster ([`plan::choose_f32`]).
    Tf32x3Wgmma128x128,
    /// FP32 on TF32 tensor cores as [`GemmKernel::Tf32x3Wgmma128x128`] (the same 128×128 tile,
    /// head·head + head·tail + tail·head, each slice's sum added in f32), but the kernel's
    /// producer warpgroup splits each landed tile of f32 operands into heads and tails in shared
    /// memory (by truncation, four operations an element: `cvt.rna` made the producer the
    /// bottleneck): no staging pass (a launch and a write and read of both operands, twice their
    /// size), k read once, MN-major operands transposed as they are split. FP32 nt 4096³ 1.45
    /// ms against the staged form's 1.64, 256×1024×1024 15.7 µs against 23 (and the CUDA-core
    /// tiles' 24; H100, docs/runs/2026-11-24-h100-s15/e4); its error within 2× the CUDA-core
    /// kernels' (tests/ops). Operands the copy engine cannot read (rows not 16-byte aligned)
    /// are first staged k-contiguous. FP32 `Auto` weighs it beside the staged form and the
    /// CUDA-core tiles ([`plan::choose_f32`]).
    Tf32x3Split,
    /// The fastest TF32 kernel for the shape and device: the cost model of [`plan`] picks among
    /// `Tf32Wgmma`, `Tf32Wgmma128x208`, `Tf32Wgmma64x128` and `Tf32Wgmma64x64`, with an
    /// MN-major operand `Tf32WgmmaRegA` and `Tf32WgmmaRegAWide`, with an operand whose rows
    /// break 16-byte alignment `Tf32WgmmaCp` and `Tf32WgmmaCp64` (sm_90a only), `Tf32` and
    /// `Tf32Tile64`, and their split-K counts.
    Tf32Auto,
}

impl GemmKernel {
    /// Every concrete f32-input kernel, slowest rung first (`Auto` excluded).
    pub const LADDER: [GemmKernel; 20] = [
        GemmKernel::Naive,
        GemmKernel::SmemTiled,
        GemmKernel::BlockTile1d,
        GemmKernel::BlockTile2d,
        GemmKernel::Vectorized,
        GemmKernel::DoubleBuffered,
        GemmKernel::WarpTiled,
        GemmKernel::Tile64,
        GemmKernel::Tile64Fine,
        GemmKernel::Tile32x64,
        GemmKernel::Tile64x32,
        GemmKernel::Tile128x64,
        GemmKernel::Tile64x128,
        GemmKernel::WarpTiledFast,
        GemmKernel::WarpTiledWide,
        GemmKernel::Pipelined,
        GemmKernel::WarpDot,
        GemmKernel::Tf32,
        GemmKernel::Tf32Bk64,
        GemmKernel::Tf32Tile64,
    ];

    /// How `gemm` runs this kernel on `p` (on a device with `sms` multiprocessors that has
    /// `wgmma` or not): `Auto` and `Tf32Auto` resolve to a concrete kernel, and every tile
    /// kernel gets the split-K count of the cost model ([`plan`]). Up to [`WARPDOT_MAX_ROWS`]
    /// rows with a k-contiguous op(B) (a batch-few dense layer's x·Wᵀ) run one warp per output
    /// column, reading W once, while that gives a block per multiprocessor ([`warpdot_fills`]).
    /// Products with at most 16 rows or columns run a narrow kernel, a pass over the wide
    /// operand ([`NARROW_AUTO_MIN`] and the constants after it); k ≤ 32 (FP32, k < 32 on C rows
    /// of 16-byte alignment; TF32 [`SHORTK_AUTO_TF32_MAX_K`], BF16 [`SHORTK_AUTO_MAX_K`]) on
    /// larger outputs the short-k kernel. Products with a short k (at most [`AUTO_SMEM_MAX_K`], or
    /// [`AUTO_SMEM_MAX_K_SCALAR`] with an operand the tile kernels read one element at a time;
    /// `Tf32Auto` [`AUTO_SMEM_MAX_K_TF32`]) and at most
    /// [`AUTO_SMEM_MAX_BLOCKS_PER_SM`] of its 32×32 tiles per multiprocessor run the
    /// shared-memory tiles, whose launch costs least ([`smem_tiles_fit`]; `Tf32Auto` too, up to
    /// [`AUTO_SMEM_MAX_BLOCKS_PER_SM_TC`]: they
    /// are exact f32). Up to 16 columns with a
    /// k-contiguous op(A), where the kernel streams k fast enough ([`rowdot_streams_k`]: a
    /// narrow output layer's x·Wᵀ, or a short k) and at most [`ROWDOT_MAX_ROWS_PER_SM`] rows
    /// per multiprocessor run one warp per row
    /// ([`GemmKernel::RowDot`]). Operands without 16-byte loads (a row stride, or m or n where
    /// contiguous, not a multiple of 4) run the tile kernels' 4-byte-load main loop, chosen
    /// among those tiles by the same model.
    pub fn plan_for(self, p: &GemmParams, sms: plan::Multiprocessors, wgmma: bool) -> GemmPlan {
        let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
        let fixed = |kernel| GemmPlan { kernel, splits: 1 };
        // TF32 products `wgmma` reads as they are, with both sides at least 8: the tiles.
        let tiles_first = self == GemmKernel::Tf32Auto && wgmma && tf32_staging(p).all == 0 && wgmma_takes_narrow(m, n);
        // The narrow kernel `Auto`'s rules pick, if any; not where the row-per-warp kernel
        // runs x·Wᵀ of a narrow output layer.
        let narrow = match self {
            GemmKernel::Auto if !rowdot_kb(p, ROWDOT_MAX_ROWS_PER_SM, sms.count) => narrow_auto(p, Precision::F32, false),
            GemmKernel::Tf32Auto if !tiles_first && !rowdot_kb(p, ROWDOT_MAX_ROWS_PER_SM_TF32, sms.count) => narrow_auto(p, Precision::Tf32, false),
            _ => None,
        };
        match self {
            // Exact f32 on the CUDA cores, like the shared-memory tiles below: a few rows read W
            // once, where a tensor-core tile of 64 or 128 rows would be mostly idle (TF32
            // 1×5099×6665 took 251 µs on the 128×256 `wgmma` tiles against cuBLAS's 53; H100).
            GemmKernel::Auto | GemmKernel::Tf32Auto if warpdot_picked(p, narrow, Precision::F32, sms.count) => fixed(GemmKernel::WarpDot),
            GemmKernel::Auto | GemmKernel::Tf32Auto if let Some(mn) = narrow => {
                let kernel = if mn { GemmKernel::NarrowMn } else { GemmKernel::NarrowK };
                narrow_plan(kernel, narrow_f32(mn, m, n).0, m, n, k, sms)
            }
            GemmKernel::Auto if shortk_auto(p, Precision::F32, sms.count) => fixed(GemmKernel::ShortK),
            // A short k is mostly output: TF32 runs what FP32 runs there, exact f32 at no cost
            // (nt 800×344×9: the f32 64×32 tiles 3.3 µs against 4.5 for the short-k kernel; H100,
            // docs/runs/2026-11-24-h100-s18/e5).
            GemmKernel::Tf32Auto if shortk_auto(p, Precision::Tf32, sms.count) => GemmKernel::Auto.plan_for(p, sms, wgmma),
            GemmKernel::ColDot => plan::coldot(m, n, k, sms),
            GemmKernel::Auto if smem_tiles_fit(m, n, k, sms.count, vec_operands(p)) => fixed(GemmKernel::SmemTiled),
            // Before the shared-memory tiles' rule: FP32's plan starts as fast and runs the
            // short-k products with staged operands on its 32-wide tiles (TF32 nn 7689×64×47
            // 5.0 µs against 10.3 on the shared-memory tiles, tt 510×687×59 6.2 against 9.6;
            // H100, docs/runs/2026-11-25-h100-s21/d3).
            GemmKernel::Tf32Auto if wgmma && tf32_stages_first(p) && 2 * m * n * k < TF32_STAGED_MIN_FLOPS && !tf32_staged_long_k(m, n, k) => {
                GemmKernel::Auto.plan_for(p, sms, wgmma)
            }
            // Short k and few tiles: FP32's plan, the shared-memory tiles up to one block per
            // multiprocessor and its 4×4 tiles past it (AUTO_SMEM_MAX_BLOCKS_PER_SM_TC).
            GemmKernel::Tf32Auto if smem_tiles_fit_below(AUTO_SMEM_MAX_K_TF32, AUTO_SMEM_MAX_BLOCKS_PER_SM_TC, m, n, k, sms.count) => {
                GemmKernel::Auto.plan_for(p, sms, wgmma)
            }
            GemmKernel::Auto if rowdot_fits(p, ROWDOT_MAX_ROWS_PER_SM, sms.count) => plan::rowdot(m, k, sms),
            GemmKernel::Tf32Auto if !tiles_first && rowdot_fits(p, ROWDOT_MAX_ROWS_PER_SM_TF32, sms.count) => plan::rowdot(m, k, sms),
            GemmKernel::RowDot => plan::rowdot(m, k, sms),
            GemmKernel::NarrowMn | GemmKernel::NarrowK => narrow_plan(self, narrow_f32(self == GemmKernel::NarrowMn, m, n).0, m, n, k, sms),
            GemmKernel::Auto if pipelined_fits(m, n, k, sms.count) => fixed(GemmKernel::Pipelined),
            GemmKernel::Auto if !vec_operands(p) => plan::choose_f32(plan::F32_4BYTE_LOAD_TILES, wgmma, x3_split_reads(p), m, n, k, sms),
            GemmKernel::Auto => plan::choose_f32(&plan::F32_TILES, wgmma, x3_split_reads(p), m, n, k, sms),
            GemmKernel::Tf32x3Wgmma | GemmKernel::Tf32x3Wgmma128x128 => plan::choose_splits(self, m, n, x3_k(k).1, sms),
            GemmKernel::Tf32x3Split => plan::choose_splits(self, m, n, k, sms),
            // Tiles over n×m when it runs as Cᵀ = op(B)ᵀ·op(A)ᵀ.
            GemmKernel::Tf32WgmmaRegA | GemmKernel::Tf32WgmmaRegAWide if rega_swaps(self, p) => plan::choose_splits(self, n, m, k, sms),
            GemmKernel::Tf32WgmmaCp | GemmKernel::Tf32WgmmaCp64 if wgcp_swaps(p) => plan::choose_splits(self, n, m, k, sms),
            GemmKernel::Tf32Auto if let Some(plan) = plan::cp_stream_plan(wgmma, tf32_staging(p), m, n, k, sms) => plan,
            GemmKernel::Tf32Auto if wgmma && m.min(n) <= TF32_STAGED_NARROW_MAX && tf32_staging(p).rest >= m.max(n) * k => {
                GemmKernel::Auto.plan_for(p, sms, wgmma)
            }
            GemmKernel::Tf32Auto if k == 0 => fixed(GemmKernel::Tf32),
            GemmKernel::Tf32Auto => plan::choose_tf32(wgmma, tf32_staging(p), m, n, k, sms),
            // The wide kernel needs 16-byte loads; the 128×128 kernel is the same tile size
            // with a 4-byte-load path.
            GemmKernel::WarpTiledWide if !vec_operands(p) => plan::choose_splits(GemmKernel::WarpTiledFast, m, n, k, sms),
            kernel if plan::TileModel::of(kernel).is_some() => plan::choose_splits(kernel, m, n, k, sms),
            kernel => fixed(kernel),
        }
    }

    /// The tile of a TF32 `wgmma` kernel (`None` for every other kernel).
    fn wgmma_tile(self) -> Option<kernels::matmul::WgTile> {
        match self {
            GemmKernel::Tf32Wgmma => Some(kernels::matmul::WG_WIDE),
            GemmKernel::Tf32Wgmma128x208 => Some(kernels::matmul::WG_WIDE_208),
            GemmKernel::Tf32Wgmma64x128 => Some(kernels::matmul::WG_NARROW),
            GemmKernel::Tf32Wgmma64x64 => Some(kernels::matmul::WG_SMALL),
            GemmKernel::Tf32WgmmaRegA => Some(kernels::matmul::WG_NARROW),
            GemmKernel::Tf32WgmmaRegAWide => Some(kernels::matmul::WG_REGA_WIDE),
            _ => None,
        }
    }

    /// Whether the kernel reads its MN-major operand into registers: the register-A kernels.
    pub fn reads_a_into_registers(self) -> bool {
        matches!(self, GemmKernel::Tf32WgmmaRegA | GemmKernel::Tf32WgmmaRegAWide)
    }

    /// Whether the kernel writes an [`Epilogue::bf16_copy`]: the kernels whose epilogue runs as
    /// one loop over the tile (see `kernels::matmul::GemmParams::c_bf16`). [`gemm`] runs `Auto`
    /// and `Tf32Auto` with a copy on such a kernel; any other kernel with a copy is an
    /// `InvalidArgument`.
    pub fn writes_bf16_copy(self) -> bool {
        matches!(
            self,
            GemmKernel::WarpTiledFast
                | GemmKernel::Pipelined
                | GemmKernel::Tile64
                | GemmKernel::Tile64Fine
                | GemmKernel::Tile32x64
                | GemmKernel::Tile64x32
                | GemmKernel::Tile128x64
                | GemmKernel::Tile64x128
                | GemmKernel::RowDot
                | GemmKernel::NarrowMn
                | GemmKernel::NarrowK
                | GemmKernel::Tf32
                | GemmKernel::Tf32Bk64
                | GemmKernel::Tf32Tile64
                | GemmKernel::Tf32Wgmma
                | GemmKernel::Tf32Wgmma128x208
                | GemmKernel::Tf32Wgmma64x128
                | GemmKernel::Tf32Wgmma64x64
                | GemmKernel::Tf32WgmmaRegA
                | GemmKernel::Tf32WgmmaRegAWide
                | GemmKernel::Tf32WgmmaCp
                | GemmKernel::Tf32WgmmaCp64
                | GemmKernel::Tf32x3Wgmma
                | GemmKernel::Tf32x3Wgmma128x128
                | GemmKernel::Tf32x3Split
        )
    }

    /// Whether the kernel rounds its inputs below f32 precision.
    pub fn is_reduced_precision(self) -> bool {
        matches!(
            self,
            GemmKernel::Tf32
                | GemmKernel::Tf32Bk64
                | GemmKernel::Tf32Tile64
                | GemmKernel::Tf32Wgmma
                | GemmKernel::Tf32Wgmma128x208
                | GemmKernel::Tf32Wgmma64x128
                | GemmKernel::Tf32Wgmma64x64
                | GemmKernel::Tf32WgmmaRegA
                | GemmKernel::Tf32WgmmaRegAWide
                | GemmKernel::Tf32WgmmaCp
                | GemmKernel::Tf32WgmmaCp64
                | GemmKernel::Tf32Auto
        )
    }

    /// The PTX kernel and its launch configuration for an m×n output (`self` concrete, from a
    /// [`GemmPlan`]; the grid's z is the split count).
    fn launch_config(self, p: &GemmParams, sms: usize) -> Result<(F32Gemm, LaunchConfig)> {
        use kernels::matmul as km;
        let name = |k: &'static kernels::KernelInfo| k.name;
        let (m, n) = (p.m as usize, p.n as usize);
        let tiles = |info: &'static kernels::KernelInfo, launch: F32Gemm, tile, threads, shared| -> Result<_> {
            let mut cfg = tile_grid(info.name, m, n, tile, threads, shared)?;
            cfg.grid.z = p.splits;
            Ok((launch, cfg))
        };
        Ok(match self {
            GemmKernel::WarpDot => (km::gemm_warpdot_f32 as F32Gemm, warpdot_config("gemm_warpdot_f32", m, n)?),
            GemmKernel::ColDot => (km::gemm_coldot_f32 as F32Gemm, coldot_config("gemm_coldot_f32", p)?),
            GemmKernel::WarpTiled => (
                km::gemm_warptile_f32 as F32Gemm,
                tile_grid(name(&km::GEMM_WARPTILE_F32), m, n, (km::SIMT_BM, km::SIMT_BN), km::SIMT_THREADS, km::SIMT_SHARED_2)?,
            ),
            GemmKernel::WarpTiledFast => tiles(&km::GEMM_WARPTILE_FAST_F32, km::gemm_warptile_fast_f32, (128, 128), 256, km::simt_tile_shared_bytes(128, 128))?,
            GemmKernel::Tile64 => tiles(&km::GEMM_TILE64_F32, km::gemm_tile64_f32, (64, 64), 64, km::simt_tile_shared_bytes(64, 64))?,
            GemmKernel::Tile64Fine => tiles(&km::GEMM_TILE64_FINE_F32, km::gemm_tile64_fine_f32, (64, 64), 256, km::simt_tile_shared_bytes(64, 64))?,
            GemmKernel::Tile32x64 => tiles(&km::GEMM_TILE32X64_F32, km::gemm_tile32x64_f32, (32, 64), 128, km::simt_tile_shared_bytes(32, 64))?,
            GemmKernel::Tile64x32 => tiles(&km::GEMM_TILE64X32_F32, km::gemm_tile64x32_f32, (64, 32), 128, km::simt_tile_shared_bytes(64, 32))?,
            GemmKernel::Tile128x64 => tiles(&km::GEMM_TILE128X64_F32, km::gemm_tile128x64_f32, (128, 64), 128, km::simt_tile_shared_bytes(128, 64))?,
            GemmKernel::Tile64x128 => tiles(&km::GEMM_TILE64X128_F32, km::gemm_tile64x128_f32, (64, 128), 128, km::simt_tile_shared_bytes(64, 128))?,
            GemmKernel::WarpTiledWide => tiles(&km::GEMM_WIDE_F32, km::gemm_wide_f32, (km::WIDE_BM, km::WIDE_BN), km::WIDE_THREADS, km::WIDE_SHARED)?,
            GemmKernel::Pipelined => tiles(&km::GEMM_PIPELINED_F32, km::gemm_pipelined_f32, (km::PIPE_TILE, km::PIPE_TILE), km::PIPE_THREADS, km::PIPE_SHARED)?,
            GemmKernel::RowDot => (km::gemm_rowdot_f32 as F32Gemm, rowdot_config("gemm_rowdot_f32", p)?),
            GemmKernel::ShortK => {
                shortk_launch(m, n, sms, (&km::GEMM_SHORTK_F32, km::gemm_shortk_f32 as F32Gemm), (&km::GEMM_SHORTK_SMALL_F32, km::gemm_shortk_small_f32))?
            }
            GemmKernel::NarrowMn | GemmKernel::NarrowK => {
                let mn = self == GemmKernel::NarrowMn;
                let (info, launch) = narrow_f32(mn, m, n);
                (launch, narrow_config(name(info), p, mn)?)
            }
            GemmKernel::Naive => (km::gemm_naive_f32 as F32Gemm, LaunchConfig::for_2d("gemm_naive_f32", m, n, GEMM_NAIVE_BLOCK)?),
            GemmKernel::SmemTiled => {
                let t = km::SMEM_TILE as u32;
                let cfg = LaunchConfig::for_2d("gemm_smem_f32", m, n, (t, t))?.with_shared_mem(km::SMEM_TILED_SHARED);
                (km::gemm_smem_f32 as F32Gemm, cfg)
            }
            GemmKernel::BlockTile1d => {
                (km::gemm_bt1d_f32 as F32Gemm, tile_grid("gemm_bt1d_f32", m, n, (km::BT1D_BM, km::BT1D_BN), km::BT1D_THREADS, km::BT1D_SHARED)?)
            }
            GemmKernel::BlockTile2d => {
                (km::gemm_bt2d_f32 as F32Gemm, tile_grid("gemm_bt2d_f32", m, n, (km::SIMT_BM, km::SIMT_BN), km::SIMT_THREADS, km::SIMT_SHARED_1)?)
            }
            GemmKernel::Vectorized => {
                (km::gemm_vec4_f32 as F32Gemm, tile_grid("gemm_vec4_f32", m, n, (km::SIMT_BM, km::SIMT_BN), km::SIMT_THREADS, km::SIMT_SHARED_1)?)
            }
            GemmKernel::DoubleBuffered => {
                (km::gemm_db_f32 as F32Gemm, tile_grid("gemm_db_f32", m, n, (km::SIMT_BM, km::SIMT_BN), km::SIMT_THREADS, km::SIMT_SHARED_2)?)
            }
            GemmKernel::Tf32 => tiles(&km::GEMM_MMA_TF32, km::gemm_mma_tf32, (km::TF32_BM, km::TF32_BN), km::TF32_THREADS, km::TF32_SHARED)?,
            GemmKernel::Tf32Bk64 => tiles(&km::GEMM_MMA_TF32_BK64, km::gemm_mma_tf32_bk64, (km::TF32_BM, km::TF32_BN), km::TF32_THREADS, km::TF32_BK64_SHARED)?,
            GemmKernel::Tf32Tile64 => {
                tiles(&km::GEMM_MMA_TF32_64, km::gemm_mma_tf32_64, (km::TF32_64_TILE, km::TF32_64_TILE), km::TF32_64_THREADS, km::TF32_64_SHARED)?
            }
            GemmKernel::Auto
            | GemmKernel::Tf32Auto
            | GemmKernel::Tf32Wgmma
            | GemmKernel::Tf32Wgmma128x208
            | GemmKernel::Tf32Wgmma64x128
            | GemmKernel::Tf32Wgmma64x64
            | GemmKernel::Tf32WgmmaRegA
            | GemmKernel::Tf32WgmmaRegAWide
            | GemmKernel::Tf32WgmmaCp
            | GemmKernel::Tf32WgmmaCp64
            | GemmKernel::Tf32x3Wgmma
            | GemmKernel::Tf32x3Wgmma128x128
            | GemmKernel::Tf32x3Split => {
                unreachable!("plans hold concrete kernels; gemm launches the wgmma kernel through launch_tf32_wgmma")
            }
        })
    }
}

/// Whether TF32 `wgmma` reads an operand (outer stride `os`, k stride `ks`) as it is:
/// k-contiguous, rows 16-byte aligned.
fn tf32_direct(os: u64, ks: u64) -> bool {
    ks == 1 && os.is_multiple_of(4)
}

/// Whether the TF32 `wgmma` kernels' producers can transpose an operand in shared memory: the
/// copy engine reads it MN-major (m or n contiguous, k rows 16-byte aligned).
fn tf32_transposable(os: u64, ks: u64) -> bool {
    os == 1 && ks.is_multiple_of(4)
}

/// Elements a TF32 `wgmma` product stages if it stages every operand that is not K-major, and
/// if it transposes in shared memory those it can ([`plan::Tf32Staging`]).
fn tf32_staging(p: &GemmParams) -> plan::Tf32Staging {
    let padded = (p.k as usize).next_multiple_of(4);
    let ops = [(p.a_row_stride, p.a_col_stride, p.m as usize), (p.b_col_stride, p.b_row_stride, p.n as usize)];
    let staged = |o: &&(u64, u64, usize)| !tf32_direct(o.0, o.1);
    let all = ops.iter().filter(staged).map(|o| o.2 * padded).sum();
    let rest = ops.iter().filter(staged).filter(|o| !tf32_transposable(o.0, o.1)).map(|o| o.2 * padded).sum();
    // k-contiguous operands staged: a padded-row copy (`stage_kmajor_f32`).
    let rows = ops.iter().filter(staged).filter(|o| o.1 == 1).map(|o| o.2 * padded).sum();
    // The `cp.async`-fed kernels' shared operand, staged where it is not k-contiguous with
    // aligned rows: a padded-row copy if it is k-contiguous.
    let cp_staged = wgcp_staged(p);
    let cp_rows = if wgcp_shared_operand(p).1 == 1 { cp_staged } else { 0 };
    plan::Tf32Staging { all, rest, rows, rega: tf32_rega(p).map(|f| (f.swap, f.staged)), four_byte: !vec_operands(p), cp: (wgcp_swaps(p), cp_staged, cp_rows) }
}

/// Whether `Tf32Auto`'s tensor-core plans all start with a staging pass: an operand that no
/// `wgmma` kernel reads as it is, or both MN-major (tn), where the register-A kernel stages one
/// from k = 64 (below it the tiles' rule keeps it off). Below [`TF32_STAGED_MIN_FLOPS`] such
/// products run FP32's plan; for tn that took 128³ from 6.6 µs to 5.8, 256³ from 9.2 to 6.5 and
/// 10×4096×1024 from 14.0 to 13.0 (`f32` against `tf32` rows of one sweep; H100,
/// docs/runs/2026-11-24-h100-s18/r1, r2).
fn tf32_stages_first(p: &GemmParams) -> bool {
    tf32_staging(p).rest > 0 || tf32_rega(p).is_some_and(|f| f.staged > 0 && p.k >= 64)
}

/// How [`GemmKernel::Tf32WgmmaRegA`] runs `p`, if it can: which operand it reads into
/// registers and whether the other is staged k-contiguous first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RegAForm {
    /// The MN-major op(B) is the register operand: tiles of Cᵀ = op(B)ᵀ·op(A)ᵀ, over n×m.
    pub swap: bool,
    /// Elements of the other operand staged k-contiguous first (both were MN-major: the one
    /// with fewer rows or columns is staged); 0 when it is k-contiguous already.
    pub staged: usize,
}

/// [`RegAForm`] of `p`: an MN-major op(A) the copy engine reads with a k-contiguous op(B)
/// (tt), the other way round (nn, swapped), or both MN-major (tn: the operand with fewer rows
/// or columns staged); `None` for two k-contiguous operands (nt, the plain kernels' case) or an
/// MN-major one whose rows break 16-byte alignment.
fn tf32_rega(p: &GemmParams) -> Option<RegAForm> {
    let (a_k, b_k) = (tf32_direct(p.a_row_stride, p.a_col_stride), tf32_direct(p.b_col_stride, p.b_row_stride));
    let (a_mn, b_mn) = (tf32_transposable(p.a_row_stride, p.a_col_stride), tf32_transposable(p.b_col_stride, p.b_row_stride));
    let padded = (p.k as usize).next_multiple_of(4);
    let (m, n) = (p.m as usize, p.n as usize);
    match (a_k, b_k) {
        (false, true) if a_mn => Some(RegAForm { swap: false, staged: 0 }),
        (true, false) if b_mn => Some(RegAForm { swap: true, staged: 0 }),
        (false, false) if a_mn && b_mn => Some(if n <= m { RegAForm { swap: false, staged: n * padded } } else { RegAForm { swap: true, staged: m * padded } }),
        _ => None,
    }
}

/// Whether the register-A kernel `which` runs `p` (of form `form`) with op(B) transposed in
/// shared memory rather than an operand staged ([`plan::rega_transposes`]).
fn rega_transposes(which: GemmKernel, form: RegAForm, p: &GemmParams) -> bool {
    plan::rega_transposes(which, form.staged, p.m as usize, p.n as usize, p.k as usize)
}

/// Whether the register-A kernel `which` runs `p` as Cᵀ = op(B)ᵀ·op(A)ᵀ, its tiles and splits
/// over n×m: where its form swaps, unless it transposes op(B) instead ([`rega_transposes`]).
fn rega_swaps(which: GemmKernel, p: &GemmParams) -> bool {
    tf32_rega(p).is_some_and(|f| f.swap && !rega_transposes(which, f, p))
}

/// Whether [`GemmKernel::Tf32WgmmaCp`] runs `p` as Cᵀ = op(B)ᵀ·op(A)ᵀ (tiles over n×m), op(B)
/// its register operand: where only op(A) is k-contiguous with 16-byte aligned rows (the shared
/// operand's 16-byte copies), or neither or both are and n > m (the wider operand in registers,
/// whose copies are 16 bytes wide at any alignment).
pub(crate) fn wgcp_swaps(p: &GemmParams) -> bool {
    match (tf32_direct(p.a_row_stride, p.a_col_stride), tf32_direct(p.b_col_stride, p.b_row_stride)) {
        (true, false) => true,
        (false, true) => false,
        _ => p.n > p.m,
    }
}

/// The shared operand of [`GemmKernel::Tf32WgmmaCp`] as (outer stride, k stride, rows): op(B)
/// (n rows), or op(A) (m rows) where [`wgcp_swaps`].
fn wgcp_shared_operand(p: &GemmParams) -> (u64, u64, usize) {
    if wgcp_swaps(p) { (p.a_row_stride, p.a_col_stride, p.m as usize) } else { (p.b_col_stride, p.b_row_stride, p.n as usize) }
}

/// Elements of the shared operand of [`GemmKernel::Tf32WgmmaCp`] ([`wgcp_shared_operand`])
/// staged k-contiguous first: all of it (rows of k padded to a multiple of 4) unless it is
/// k-contiguous with 16-byte aligned rows already.
pub(crate) fn wgcp_staged(p: &GemmParams) -> usize {
    let (os, ks, outer) = wgcp_shared_operand(p);
    if tf32_direct(os, ks) { 0 } else { outer * (p.k as usize).next_multiple_of(4) }
}

/// Whether the kernel tiles `p` over n×m: the register-A kernels when they swap
/// ([`rega_swaps`]) and the `cp.async`-fed ones when they do ([`wgcp_swaps`]).
fn tiles_swapped(kernel: GemmKernel, p: &GemmParams) -> bool {
    match kernel {
        GemmKernel::Tf32WgmmaRegA | GemmKernel::Tf32WgmmaRegAWide => rega_swaps(kernel, p),
        GemmKernel::Tf32WgmmaCp | GemmKernel::Tf32WgmmaCp64 => wgcp_swaps(p),
        _ => false,
    }
}

/// Whether both operands allow the SIMT kernels' 16-byte loads (device buffers are 16-byte
/// aligned): stride 1 one way, a multiple of 4 the other, and m or n a multiple of 4 where it
/// is the contiguous direction (`kernels::matmul::Operand`).
fn vec_operands(p: &GemmParams) -> bool {
    let vec = |os: u64, ks: u64, outer: u64| if ks == 1 { os.is_multiple_of(4) } else { os == 1 && ks.is_multiple_of(4) && outer.is_multiple_of(4) };
    vec(p.a_row_stride, p.a_col_stride, p.m) && vec(p.b_col_stride, p.b_row_stride, p.n)
}

/// The typed launcher of an f32 GEMM kernel (what `#[kernel]` generates for its signature).
type F32Gemm = unsafe fn(&Gpu, LaunchConfig, *const f32, *const f32, *mut f32, *const f32, GemmParams) -> Result<()>;
/// The typed launcher of a BF16 GEMM kernel.
type Bf16Gemm = unsafe fn(&Gpu, LaunchConfig, *const u16, *const u16, *mut f32, *const f32, GemmParams) -> Result<()>;
/// The typed launcher of a `wgmma` GEMM kernel.
type WgmmaGemm = unsafe fn(
    &Gpu,
    LaunchConfig,
    kernels::matmul::TensorMap,
    kernels::matmul::TensorMap,
    kernels::matmul::TensorMap,
    kernels::matmul::TensorMap,
    *mut f32,
    *const f32,
    GemmParams,
) -> Result<()>;

/// A `wgmma` GEMM kernel: its descriptor (for the device check and messages), its launcher,
/// and the TMA multicast cluster it is compiled for (`WgKind::CLUSTER`; [`Multicast::OFF`]:
/// blocks alone), which its launch must match.
#[derive(Clone, Copy)]
struct WgmmaKernel {
    info: &'static kernels::KernelInfo,
    launch: WgmmaGemm,
    cluster: Multicast,
}

impl WgmmaKernel {
    /// A kernel whose blocks run alone (no multicast cluster).
    fn alone(info: &'static kernels::KernelInfo, launch: WgmmaGemm) -> WgmmaKernel {
        WgmmaKernel { info, launch, cluster: Multicast::OFF }
    }

    /// `MissingKernel` unless the loaded PTX has this kernel (sm_90a).
    fn require(&self, gpu: &Gpu) -> Result<()> {
        if gpu.supports(self.info) {
            return Ok(());
        }
        Err(crate::Error::MissingKernel { name: self.info.name, hint: " (it needs sm_90a PTX, i.e. a compute capability 9.0 GPU)" })
    }
}

/// The TF32 `wgmma` kernel (x·Wᵀ operands, k-major) on the 128×256, 64×128 or 64×64 tile.
fn wgmma_tf32(tile: kernels::matmul::WgTile) -> WgmmaKernel {
    wgmma_tf32_layout(tile, false, false).0
}

/// The tile of the TF32 kernel that transposes MN-major operands of `tile` in shared memory
/// (`both`: op(A) and op(B)); `None` for the 128×208 tile, which has no transposing form (its
/// MN-major operands are staged).
fn tf32_transposing_tile(tile: kernels::matmul::WgTile, both: bool) -> Option<kernels::matmul::WgTile> {
    use kernels::matmul as km;
    match (tile, both) {
        (t, false) if t == km::WG_WIDE => Some(km::WG_WIDE_T),
        (t, true) if t == km::WG_WIDE => Some(km::WG_WIDE_TT),
        (t, false) if t == km::WG_NARROW => Some(km::WG_NARROW_T),
        (t, true) if t == km::WG_NARROW => Some(km::WG_NARROW_TT),
        (t, _) if t == km::WG_SMALL => Some(km::WG_SMALL_T),
        _ => None,
    }
}

/// The TF32 `wgmma` kernel on `tile` (128×256, 64×128 or 64×64) for MN-major op(A) (`a_mn`)
/// and op(B) (`b_mn`), and the tile it runs: with an MN-major operand, the transposing
/// kernel's tile (fewer stages, scratch slots in their place).
fn wgmma_tf32_layout(tile: kernels::matmul::WgTile, a_mn: bool, b_mn: bool) -> (WgmmaKernel, kernels::matmul::WgTile) {
    use kernels::matmul as km;
    let k = WgmmaKernel::alone;
    let (wide, narrow) = (tile == km::WG_WIDE, tile == km::WG_NARROW);
    let Some(transposing) = tf32_transposing_tile(tile, a_mn && b_mn) else {
        // K-major only: launch_tf32_wgmma stages MN-major operands for this tile.
        return (k(&km::GEMM_WGMMA_TF32_KK_128X208, km::gemm_wgmma_tf32_kk_128x208), tile);
    };
    match (a_mn, b_mn) {
        (false, false) if wide => (k(&km::GEMM_WGMMA_TF32_KK, km::gemm_wgmma_tf32_kk), tile),
        (false, false) if narrow => (k(&km::GEMM_WGMMA_TF32_KK_64X128, km::gemm_wgmma_tf32_kk_64x128), tile),
        (false, false) => (k(&km::GEMM_WGMMA_TF32_KK_64X64, km::gemm_wgmma_tf32_kk_64x64), tile),
        (false, true) if wide => (k(&km::GEMM_WGMMA_TF32_KN, km::gemm_wgmma_tf32_kn), transposing),
        (false, true) if narrow => (k(&km::GEMM_WGMMA_TF32_KN_64X128, km::gemm_wgmma_tf32_kn_64x128), transposing),
        (false, true) => (k(&km::GEMM_WGMMA_TF32_KN_64X64, km::gemm_wgmma_tf32_kn_64x64), transposing),
        (true, false) if wide => (k(&km::GEMM_WGMMA_TF32_MK, km::gemm_wgmma_tf32_mk), transposing),
        (true, false) if narrow => (k(&km::GEMM_WGMMA_TF32_MK_64X128, km::gemm_wgmma_tf32_mk_64x128), transposing),
        (true, false) => (k(&km::GEMM_WGMMA_TF32_MK_64X64, km::gemm_wgmma_tf32_mk_64x64), transposing),
        (true, true) if wide => (k(&km::GEMM_WGMMA_TF32_MN, km::gemm_wgmma_tf32_mn), transposing),
        (true, true) if narrow => (k(&km::GEMM_WGMMA_TF32_MN_64X128, km::gemm_wgmma_tf32_mn_64x128), transposing),
        (true, true) => (k(&km::GEMM_WGMMA_TF32_MN_64X64, km::gemm_wgmma_tf32_mn_64x64), transposing),
    }
}

/// Device pointers of one f32 GEMM launch: A, B, C and the bias (0 for none).
#[derive(Clone, Copy)]
struct GemmPtrs {
    a: u64,
    b: u64,
    c: u64,
    bias: u64,
}

/// Launches one f32 GEMM kernel (`kernel` resolved for the shape by `launch_config`).
fn launch_f32(gpu: &Gpu, kernel: GemmKernel, x: GemmPtrs, params: GemmParams) -> Result<()> {
    let GemmPtrs { a, b, c, bias } = x;
    if kernel == GemmKernel::WarpDot
        && let Some(t) = warpdot_transposed(&params)
    {
        let cfg = warpdot_config("gemm_warpdot_t_f32", t.m as usize, t.n as usize)?;
        // SAFETY: as below, for the transposed product: B is its first operand and A its second,
        // their strides swapped with them; the kernel stores every sum at C's own (row, column).
        return unsafe { kernels::matmul::gemm_warpdot_t_f32(gpu, cfg, b as *const f32, a as *const f32, c as *mut f32, bias as *const f32, t) };
    }
    let (launch, cfg) = kernel.launch_config(&params, gpu.info().multiprocessors as usize)?;
    // SAFETY: every f32 GEMM kernel takes (a, b, c, bias, GemmParams); the caller checked the
    // shapes, the strides address only inside A and B, the grid covers C and the shared memory
    // is what the kernel's constants ask for. The kernels bounds-check C against m and n and
    // read only inside A and B (rows clamped, k guarded); `check_plan` gave the wide kernel
    // operands that allow 16-byte loads, and split-K plans the counters and workspace they use.
    unsafe { launch(gpu, cfg, a as *const f32, b as *const f32, c as *mut f32, bias as *const f32, params) }
}

/// Longest k for which `Auto` runs [`GemmKernel::Pipelined`] (past the shared-memory tiles,
/// and with at least one of its 128×128 tiles per multiprocessor: [`pipelined_fits`]): a
/// product of one or two slices is all prologue and epilogue, which its asynchronous copies and
/// two blocks per multiprocessor start soonest. 4096×4096×16 took 38.5 µs against 43.0 on the
/// cost model's tile, 4096×1024×10 10.3 against 12.6, and 1024×4096×10, 2048×4096×10 ran
/// 21–26 % faster; but with fewer tiles than multiprocessors it lost to the 64×64 tiles
/// (1024×1024×10, 64 tiles: 8.9 against 5.6 µs; 512×4096×10, 128 tiles: 9.0 against 6.8), and
/// from k = 64 it tied or lost (8192×8192×64). H100, gemm_sweep and gemm_plans,
/// docs/runs/2026-11-23-h100-s5.
pub const PIPELINED_AUTO_MAX_K: usize = 16;

/// Whether `Auto` runs [`GemmKernel::Pipelined`] ([`PIPELINED_AUTO_MAX_K`]).
fn pipelined_fits(m: usize, n: usize, k: usize, sms: usize) -> bool {
    let tile = kernels::matmul::PIPE_TILE;
    k <= PIPELINED_AUTO_MAX_K && m.div_ceil(tile) * n.div_ceil(tile) >= sms
}

/// Longest k for which `Auto` runs [`GemmKernel::SmemTiled`] (four of its 32-deep steps):
/// launch-bound products, where the tile kernels' longer prologue and epilogue cost more than
/// their loop saves (the digits MLP, 64-128-64-10 at batch 32, took 5.4 ms per epoch on the
/// tile kernels and 2.2 ms on these tiles). Each of its blocks walks k alone, about 1 µs per
/// step, so a long k is slow however small the product: 25×2×6880 took 235 µs (the 8×8 tiles
/// with split-K 29 µs, `RowDot` 19 µs), while k ≤ 128 products of up to four tiles per
/// multiprocessor ran in 3.7-7.7 µs against the tile kernels' 5.3-13 µs (H100, `gemm_plans`:
/// 673×159×57, 6308×37×20, 797×346×9, 256×1024×10, 10×1024×128, 128³). Since the 32-wide tiles
/// are candidates on small products ([`plan::NARROW_TILES_ALWAYS_FLOPS`]) they beat it at k =
/// 128 (128³ 5.2-5.5 µs against 5.8-9.8 in the four layouts, 10×1024×128 nn 5.1 against 5.8;
/// docs/runs/2026-11-24-h100-s15/e12, e13), and it keeps k ≤ 64, where it still won (673×159×57
/// 3.9-4.3 against 5.8; 6308×37×20 5.4 against 5.6).
pub const AUTO_SMEM_MAX_K: usize = 64;

/// [`AUTO_SMEM_MAX_K`] where an operand breaks the tile kernels' 16-byte loads (a row stride or
/// contiguous size not a multiple of 4), which then load one element at a time: there the
/// shared-memory tiles kept winning to k = 128 (tt 473×206×114: 7.0 µs on them, 8.0 on the
/// 32-wide tiles, docs/runs/2026-11-24-h100-s16/r2 against s15 `r2`; 673×159×57 3.9-4.3
/// against 5.8).
pub const AUTO_SMEM_MAX_K_SCALAR: usize = 128;

/// Most 32×32 tiles per multiprocessor for [`GemmKernel::SmemTiled`] under `Auto`: one block
/// each. Beyond it the 4×4-per-thread 64×64 tiles ([`GemmKernel::Tile64Fine`]) cover four times
/// the area per block and win. Between one and two blocks per multiprocessor they won 56 of 60
/// products timed in four layouts (256×1024×10 3.1 µs against 4.0, 256×1024×128 7.8 against
/// 10.0–18.2, 1024×160×48 4.7 against 5.8–8.2; 300×700×24 lost, 4.4 against 3.8–4.3; H100,
/// gemm_plans, docs/runs/2026-11-24-h100-s12/e14); at two waves before that, 128×4096×10 (512
/// tiles) 3.2 against 6.8 µs (docs/runs/2026-11-23-h100-s6/r2). Below one block per
/// multiprocessor the shared-memory tiles start sooner (64×1024×10: 2.6 µs against 3.0; s12/e6).
pub const AUTO_SMEM_MAX_BLOCKS_PER_SM: usize = 1;

/// Most 32×32 tiles per multiprocessor up to which `Tf32Auto` runs FP32's plan on a short k
/// ([`AUTO_SMEM_MAX_K_TF32`]) rather than its tensor-core tiles: two waves. At one, the six sweep
/// products between one and two waves lost to their tensor-core tiles (TF32 797×346×9: 0.89 of
/// cuBLAS with the shared-memory tiles, 0.42 without; H100, docs/runs/2026-11-23-h100-s6/final).
/// FP32's plan runs the shared-memory tiles up to one block per multiprocessor
/// ([`AUTO_SMEM_MAX_BLOCKS_PER_SM`]) and its 4×4 tiles past it, where they beat the
/// shared-memory tiles on 56 of 60 products (s12/e14) and TF32 tt 6308×37×20 (396 tiles, three
/// per multiprocessor) ran 4.6 µs on FP32's 32×64 tiles against 5.5 on the shared-memory tiles
/// (H100, docs/runs/2026-11-28-s29/j4 `f32` and `tf32` rows; 4.4–4.7 on FP32's 64×64 4×4 and
/// 32-wide tiles, docs/runs/2026-11-28-s30/k1). TF32 products that stage an operand first run
/// FP32's plan before this rule is asked (`TF32_STAGED_MIN_FLOPS`).
pub const AUTO_SMEM_MAX_BLOCKS_PER_SM_TC: usize = 4;

/// [`AUTO_SMEM_MAX_BLOCKS_PER_SM_TC`] for BF16 `Auto`: one wave of two blocks. At four, every
/// random product timed with 2.7 to 3.7 tiles per multiprocessor ran 1.3–2.2× slower on them
/// than on the 64×64 `mma.sync` tiles (nn 7689×64×47 10.2 µs against 4.6, tt 510×687×59 9.3
/// against 6.3, nn 186×2616×51 10.4 against 5.3), while at 1.5 they still won (tn 65×2116×23
/// 4.1 against 6.0; H100, docs/runs/2026-11-25-h100-s21/d3).
pub const AUTO_SMEM_MAX_BLOCKS_PER_SM_BF16: usize = 2;

/// Longest k for which `Tf32Auto` runs FP32's plan on few tiles
/// ([`AUTO_SMEM_MAX_BLOCKS_PER_SM_TC`]; it ran the shared-memory tiles there, [`AUTO_SMEM_MAX_K`]
/// for FP32): at k = 128 the 64×64 `wgmma` tile the cost model picks started sooner (128³: 5.6, 3.3, 7.5
/// and 5.6 µs in the four layouts against 7.6 on the tiles; H100,
/// docs/runs/2026-11-24-h100-s10/e5).
pub const AUTO_SMEM_MAX_K_TF32: usize = 64;

/// Longest k for which BF16 `Auto` runs [`Bf16Kernel::SmemTiled`]: the BF16 `mma.sync` tiles
/// start faster than the FP32 ones, so the shared-memory tiles win only up to half the k
/// (H100, gemm_sweep: 2.3-6.4 µs against 4.1-10.1 on the tensor cores from k = 2 to 64; at
/// k = 128, 128³ took 5.7-9.7 µs against 3.5-3.6).
pub const AUTO_SMEM_MAX_K_BF16: usize = 64;

/// Whether `Auto` runs the 32×32 shared-memory tiles on an m×n×k product
/// ([`AUTO_SMEM_MAX_K`], [`AUTO_SMEM_MAX_K_SCALAR`] where the tile kernels cannot load 16
/// bytes at a time (`vec`: they can), [`AUTO_SMEM_MAX_BLOCKS_PER_SM`]).
pub fn smem_tiles_fit(m: usize, n: usize, k: usize, sms: usize, vec: bool) -> bool {
    let max_k = if vec { AUTO_SMEM_MAX_K } else { AUTO_SMEM_MAX_K_SCALAR };
    smem_tiles_fit_below(max_k, AUTO_SMEM_MAX_BLOCKS_PER_SM, m, n, k, sms)
}

/// [`smem_tiles_fit`] for k up to `max_k` and `per_sm` tiles per multiprocessor.
fn smem_tiles_fit_below(max_k: usize, per_sm: usize, m: usize, n: usize, k: usize, sms: usize) -> bool {
    let t = kernels::matmul::SMEM_TILE;
    k <= max_k && m.div_ceil(t).saturating_mul(n.div_ceil(t)) <= per_sm * sms
}

/// Rows per multiprocessor up to which `Auto` runs [`GemmKernel::RowDot`] for n ≤ 16 (one warp
/// per row; where [`rowdot_streams_k`]): one unsplit block of 8 rows per warp
/// group beat session 10's tiles up to 62 rows per multiprocessor (m×10×1024, m = 2048: 11.9
/// against 22.8 µs; 3000×12×2000: 30.3 against 37.0; H100, gemm_plans). Since the 64×32
/// CUDA-core tiles (session 13) it loses at 4096 rows (31 per SM): 4096×16×4096 71 µs against
/// 49 on them, 4096×10×1024 22.4 against 18.3, and the narrow kernel's 19.4
/// (docs/runs/2026-11-24-h100-s15/e12); so it stops at 24 per multiprocessor.
pub const ROWDOT_MAX_ROWS_PER_SM: usize = 24;

/// Longest k the row-per-warp kernel's scalar path takes in `Auto` (at most 8 passes of its
/// two-step loop; [`rowdot_streams_k`]).
pub const ROWDOT_SCALAR_MAX_K: usize = 512;

/// Whether the row-per-warp kernel streams k fast enough for `Auto`: on its vector path (both
/// operands k-contiguous, rows a multiple of 4 elements; the kernel also checks the bases'
/// alignment), or on a k of at most [`ROWDOT_SCALAR_MAX_K`]. Its scalar path loads one element
/// per lane and k-step (and a row of B apart per lane with an n-contiguous op(B)); past that k
/// it lost to the 64×32 CUDA-core tiles, the narrow kernels or the `wgmma` tiles on every
/// product of random shapes timed: nn 2090×12×1209 31.4 µs against 13.9, 118×15×6287 17.0
/// (8 splits) against 15.5, 500×12×777 13.1 against 9.3, nt 1000×10×1001 12.3 against 9.8,
/// 11×6×7469 12.7 against 6.2; TF32 nn 313×10×5936 28.8 against 11.4. Below it, it won: nt
/// 367×2×329 4.9 µs against 8.2, 7×3×263 4.6 against 6.3, TF32 nn 1×3×125 3.7 against 5.5
/// (H100, docs/runs/2026-11-25-h100-s20/d2, d3). The scalar path also stops at
/// [`ROWDOT_SCALAR_MAX_ROWS_PER_SM`] rows per multiprocessor.
fn rowdot_streams_k(p: &GemmParams, sms: usize) -> bool {
    let vector = p.b_row_stride == 1 && p.a_row_stride.is_multiple_of(4) && p.b_col_stride.is_multiple_of(4);
    let scalar = p.k as usize <= ROWDOT_SCALAR_MAX_K && p.m as usize <= ROWDOT_SCALAR_MAX_ROWS_PER_SM * sms;
    p.a_col_stride == 1 && (vector || scalar)
}

/// Rows per multiprocessor up to which the row-per-warp kernel's scalar path runs in `Auto`
/// (with a short k, [`ROWDOT_SCALAR_MAX_K`]): the products it won on had at most 3 rows per
/// multiprocessor (nt 367×2×329 above); at 17 it ran twice as long as the narrow kernel and
/// the 64×32 tiles (nn and nt 2193×10×314: 17.7 µs against 8.4 and 8.5, where TF32 cuBLAS
/// took 6.3; H200, docs/runs/2026-11-28-s31/m1), its blocks past one wave each a full pass of
/// one-element loads.
pub const ROWDOT_SCALAR_MAX_ROWS_PER_SM: usize = 8;

/// Rows of C up to which `Auto` runs [`GemmKernel::WarpDot`] (when op(B) is k-contiguous).
pub const WARPDOT_MAX_ROWS: usize = 4;

/// Rows per multiprocessor up to which `Tf32Auto` runs [`GemmKernel::RowDot`] (exact f32, and
/// memory-bound like the tensor-core tiles there): at n = 10 it took 7.2-8.2 µs against the
/// TF32 tiles' 11.5-13.1 from m = 32 to 512 (k = 1024), and 24 against 27 µs at m = 1024
/// (k = 4096), but 22-40 against 14-34 µs at m = 2048 (H100, gemm_sweep).
pub const ROWDOT_MAX_ROWS_PER_SM_TF32: usize = 8;

/// Fewest FLOPs (2·m·n·k) for which `Tf32Auto` runs a product whose operands the `wgmma` kernels
/// must first stage k-contiguous on the tensor cores; below it, the FP32 plan (exact f32, no
/// staging pass). Of the sweep's 30 such products from 0.01 to 0.1 GFLOP, the FP32 plan was faster
/// in 23 (geometric mean 0.70 of cuBLAS against 0.57; e.g. nn 32×784×1024: TF32 14.4 µs, FP32
/// 11.6); from 0.1 GFLOP up it won 10 of 119 (H100, docs/runs/2026-11-23-h100-s6/final3).
pub const TF32_STAGED_MIN_FLOPS: usize = 100_000_000;

/// Shortest k, and fewest FLOPs, for which a product below [`TF32_STAGED_MIN_FLOPS`] whose
/// operands the `wgmma` kernels must stage first still runs TF32's plan: a long main loop pays
/// for the staging pass. Of the 19 products of 25–100 MFLOP that TF32's plan would take (A/B
/// against FP32's, both alternated twice; H200, docs/runs/2026-11-29-s42/ab2), the 5 with k ≥
/// 1024 all ran faster on it (tt 14×499×6896 24.0 → 11.9 µs, nn 121×239×1648 12.7 → 9.4, tt
/// 79×101×4453 14.9 → 12.5, nn 121×214×1214 0.91, tn 80×78×7054 0.98 of the time), and those of
/// k ≤ 130 all slower (up to 1.45×: tn 7240×49×70 6.7 → 9.7); in between both ways (nn
/// 229×129×894 0.86, tn 67×377×938 1.07).
pub const TF32_STAGED_LONG_K: (usize, usize) = (1024, 25_000_000);

/// Whether an m×n×k product below [`TF32_STAGED_MIN_FLOPS`] runs TF32's plan anyway
/// ([`TF32_STAGED_LONG_K`]).
fn tf32_staged_long_k(m: usize, n: usize, k: usize) -> bool {
    let (min_k, min_flops) = TF32_STAGED_LONG_K;
    k >= min_k && 2 * m * n * k >= min_flops
}

/// Most rows or columns for which `Tf32Auto` runs FP32's plan, whatever the FLOPs, when the
/// `wgmma` tiles would first stage the long operand (no `wgmma` kernel reads it as it is): such
/// a product is bound by reading that operand, so the tensor cores' rate buys nothing, while
/// the `mma.sync` tiles that skip the staging pass leave most of a 64- or 128-wide tile idle,
/// and FP32 has 32-wide ones. tt 6609×12×2773 ran 175 µs on TF32's pick (the 128×128
/// `mma.sync` tile) against 53 on FP32's 64×32 tiles, tn 2447×29×1049 20.7 against 15.2 (H100,
/// docs/runs/2026-11-24-h100-s18/r3); at 47 columns tn 1186×47×7488 (both operands' rows off 16
/// bytes) ran 62 µs on TF32's pick (the 64×64 `wgmma` tile in 13 splits after staging 9.2 M
/// elements) against 47 on FP32's plan (docs/runs/2026-11-28-s30/k3), so up to 64. Staging only
/// the narrow operand costs little: tn 10×4096×4096 stays on the `wgmma` tiles (39.9 µs against
/// FP32's 44.3).
pub const TF32_STAGED_NARROW_MAX: usize = 64;

/// Whether a few-columns product runs the row-per-warp kernel (`rowdot_fits`) with a k-contiguous op(B) too (a narrow
/// output layer's x·Wᵀ): then `Auto` keeps it before the narrow kernels, which it matched
/// (1024×10×4096: 19.6 µs against 22.0, 256×10×1024: 8.0 against 8.9, 4096×10×1024: 22.5
/// against 19.4; H100, docs/runs/2026-11-24-h100-s10/e2).
fn rowdot_kb(p: &GemmParams, rows_per_sm: usize, sms: usize) -> bool {
    p.b_row_stride == 1 && kernels::matmul::narrow_few_cols(p.m as usize, p.n as usize) && rowdot_fits(p, rows_per_sm, sms)
}

/// Whether `Auto` or `Tf32Auto` runs the row-per-warp kernel: up to 16 columns where it streams
/// k fast enough ([`rowdot_streams_k`]) and at most `rows_per_sm` rows per multiprocessor, but
/// not on at most [`WARPDOT_MAX_ROWS`] columns with more than [`WARPDOT_T_K_PER_ROW`] k per row
/// of C ([`rowdot_rows_too_long`]).
fn rowdot_fits(p: &GemmParams, rows_per_sm: usize, sms: usize) -> bool {
    p.n as usize <= kernels::matmul::SKINNY_MAX && p.m as usize <= rows_per_sm * sms && rowdot_streams_k(p, sms) && !rowdot_rows_too_long(p)
}

/// Whether a few-columns product (at most [`WARPDOT_MAX_ROWS`]) has too long a k for its rows
/// for the row-per-warp kernel: past [`WARPDOT_T_K_PER_ROW`] per row of C (where the
/// warp-per-column kernel on Cᵀ stops), its few warps each stream a long row while the narrow
/// k-contiguous kernel splits k over a full wave. Timed beside it in f32 nt (µs, PyTorch in
/// brackets): 1024×1×16384 48.7 against 23.5 (18.2), 768×1×12288 33.3 against 13.2 (9.5),
/// 1000×1×20000 60.6 against 26.7 (22.9), 512×1×32768 48.9 against 23.6 (24.6), 256×2×65536
/// 53.3 against 25.1, 1024×4×16384 53.4 against 29.9, 50×2×7000 8.1 against 6.6 (H200,
/// docs/runs/2026-11-28-s36/s2, docs/runs/2026-11-28-s35/r5). `Tf32Auto` took the same plans.
fn rowdot_rows_too_long(p: &GemmParams) -> bool {
    p.n as usize <= WARPDOT_MAX_ROWS && p.k as usize > WARPDOT_T_K_PER_ROW * p.m as usize
}

/// The grid of the row-per-warp kernels: a block of `ROWDOT_WARPS` rows per x, a split per z.
fn rowdot_config(op: &'static str, p: &GemmParams) -> Result<LaunchConfig> {
    use kernels::matmul as km;
    let mut cfg = LaunchConfig::for_2d(op, 1, (p.m as usize).div_ceil(km::ROWDOT_WARPS as usize), (1, 1))?;
    cfg.block = crate::launch::Dim3::x(32 * km::ROWDOT_WARPS);
    cfg.grid.z = p.splits;
    Ok(cfg)
}

/// The grid of the column kernels: a block of `COLDOT_COLS` columns per x, of four rows per y, a
/// split per z.
fn coldot_config(op: &'static str, p: &GemmParams) -> Result<LaunchConfig> {
    use kernels::matmul as km;
    let mut cfg = LaunchConfig::for_2d(op, (p.m as usize).div_ceil(km::WARPDOT_ROWS), (p.n as usize).div_ceil(km::COLDOT_COLS), (1, 1))?;
    cfg.block = crate::launch::Dim3::x(km::COLDOT_THREADS);
    cfg.grid.z = p.splits;
    Ok(cfg)
}

/// The short-k kernel of a precision for an m×n output, 64-row (`big`) or 16-row (`small`,
/// where [`shortk_small`]), and its launch configuration.
fn shortk_launch<K>(
    m: usize,
    n: usize,
    sms: usize,
    big: (&'static kernels::KernelInfo, K),
    small: (&'static kernels::KernelInfo, K),
) -> Result<(K, LaunchConfig)> {
    use kernels::matmul as km;
    let ((info, kernel), rows) = if shortk_small(m, n, sms) { (small, km::SHORTK_SMALL_BM) } else { (big, km::SHORTK_BM) };
    Ok((kernel, tile_grid(info.name, m, n, (rows, km::SHORTK_BN), km::SHORTK_THREADS, km::SHORTK_SHARED)?))
}

/// Whether the short-k kernels run on blocks of 16 rows (`gemm_shortk_small_*`) rather than 64:
/// where 64-row blocks would leave more than a quarter of the multiprocessors idle. A block's
/// time is mostly latency (its loads, then its stores), so a grid short of a wave runs about as
/// long as one block: 797×346×9 took 39 blocks of 64×128 and 11.0 µs under the profiler, where
/// cuBLAS's 104 blocks of 64×64 took 5.4 (H200, docs/runs/2026-11-27-s26/g2). On 16-row blocks
/// (`g6`, against session 25's kernels in the same call) 797×346×9 took 3.4 µs for 5.4,
/// 566×339×10 2.7 for 5.4, 128×4096×10 (64 blocks of 64 rows) 3.0 for 3.9, 4670×94×6 (73) 3.5
/// for 4.8. But each block stages op(B)'s 128 columns for a quarter of the outputs: at 99 blocks
/// of 64 rows the two tied (6308×37×20, 6.4 against 6.6 in `g3`/`g5`), at 112 the 16-row blocks
/// lost (1024×784×32 8.4 µs against 7.0, `g6`), at 128 too (1024×1024×32 8.8 against 6.2).
fn shortk_small(m: usize, n: usize, sms: usize) -> bool {
    use kernels::matmul as km;
    4 * m.div_ceil(km::SHORTK_BM) * n.div_ceil(km::SHORTK_BN) < 3 * sms
}

/// `InvalidArgument` unless k fits the short-k kernels.
fn check_shortk_shape(op: &'static str, p: &GemmParams) -> Result<()> {
    let max = kernels::matmul::SHORTK_MAX;
    if p.k as usize > max {
        return Err(crate::Error::InvalidArgument { op, reason: format!("ShortK takes k ≤ {max} (k = {})", p.k) });
    }
    Ok(())
}

/// The f32 narrow kernel of a form (`mn`: big-contiguous G) compiled for an m×n product's
/// narrow side (`kernels::matmul::narrow_width`).
fn narrow_f32(mn: bool, m: usize, n: usize) -> (&'static kernels::KernelInfo, F32Gemm) {
    use kernels::matmul as km;
    match (mn, km::narrow_width(km::narrow_sides(m, n).0)) {
        (true, 4) => (&km::GEMM_NARROW_MN4_F32, km::gemm_narrow_mn4_f32),
        (true, 8) => (&km::GEMM_NARROW_MN8_F32, km::gemm_narrow_mn8_f32),
        (true, _) => (&km::GEMM_NARROW_MN16_F32, km::gemm_narrow_mn16_f32),
        (false, 4) => (&km::GEMM_NARROW_K4_F32, km::gemm_narrow_k4_f32),
        (false, 8) => (&km::GEMM_NARROW_K8_F32, km::gemm_narrow_k8_f32),
        (false, _) => (&km::GEMM_NARROW_K16_F32, km::gemm_narrow_k16_f32),
    }
}

/// [`narrow_f32`] for bf16 operands.
fn narrow_bf16(mn: bool, m: usize, n: usize) -> (&'static kernels::KernelInfo, Bf16Gemm) {
    use kernels::matmul as km;
    match (mn, km::narrow_width(km::narrow_sides(m, n).0)) {
        (true, 4) => (&km::GEMM_NARROW_MN4_BF16, km::gemm_narrow_mn4_bf16),
        (true, 8) => (&km::GEMM_NARROW_MN8_BF16, km::gemm_narrow_mn8_bf16),
        (true, _) => (&km::GEMM_NARROW_MN16_BF16, km::gemm_narrow_mn16_bf16),
        (false, 4) => (&km::GEMM_NARROW_K4_BF16, km::gemm_narrow_k4_bf16),
        (false, 8) => (&km::GEMM_NARROW_K8_BF16, km::gemm_narrow_k8_bf16),
        (false, _) => (&km::GEMM_NARROW_K16_BF16, km::gemm_narrow_k16_bf16),
    }
}

/// The split-K plan of a narrow kernel (`kernel`: `NarrowMn` or `NarrowK`, `info` the compiled
/// kernel it runs): one wave of the blocks its launch bounds keep resident per multiprocessor
/// (`plan::narrow`).
fn narrow_plan(kernel: GemmKernel, info: &kernels::KernelInfo, m: usize, n: usize, k: usize, sms: plan::Multiprocessors) -> GemmPlan {
    plan::narrow(kernel, info.min_blocks.max(1) as usize, m, n, k, sms)
}

/// Which narrow kernel the `Auto` rules of a precision choose for a product: `Some(true)` the
/// big-contiguous form, `Some(false)` the k-contiguous one, `None` neither
/// (see [`NARROW_AUTO_MIN`] and the constants after it). `bf16_staged`: BF16 `Auto`'s `wgmma`
/// path would first copy an operand into padded rows.
fn narrow_auto(p: &GemmParams, precision: Precision, bf16_staged: bool) -> Option<bool> {
    use kernels::matmul as km;
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    let (small, big) = km::narrow_sides(m, n);
    let elems = big.saturating_mul(k);
    // FP32's tiny products of at most 8 rows or columns take the k-contiguous narrow kernel
    // below NARROW_AUTO_LONG_K too, from NARROW_AUTO_TINY_MIN_K.
    let tiny_short = precision == Precision::F32 && small <= 8 && k >= NARROW_AUTO_TINY_MIN_K;
    if small > km::NARROW_MAX || (elems < NARROW_AUTO_MIN && k < NARROW_AUTO_LONG_K && !tiny_short) {
        return None;
    }
    let few_cols = km::narrow_few_cols(m, n);
    let (outer, inner) = if few_cols { (p.a_row_stride, p.a_col_stride) } else { (p.b_col_stride, p.b_row_stride) };
    let mn = match (outer, inner) {
        (1, _) => true,
        (_, 1) => false,
        _ => return None,
    };
    let width = km::narrow_width(small);
    // The k-contiguous form on a small wide operand contiguous along m, or a tiny one
    // ([`NARROW_MN_MIN_ELEMS`]).
    let k_form = width <= 8 && elems < NARROW_MN_MIN_ELEMS && (few_cols || elems < NARROW_AUTO_MIN);
    let mn = mn && !k_form;
    // At width 16 only with 16-byte loads along G: one element at a time, f32 6609×12×2773 (its
    // k-rows 6609 floats apart) took 83 µs against the tiles' 75.5, where at width 4 it still
    // won by 2.4× (4×7337×2921; H100, docs/runs/2026-11-24-h100-s10/r5, s9/r3).
    let aligned = if mn { inner.is_multiple_of(4) } else { outer.is_multiple_of(4) };
    if width == km::NARROW_MAX && !aligned {
        return None;
    }
    let f32_rule = if mn { width <= 8 || elems >= NARROW_AUTO_F32_MN_WIDE_MIN } else { width <= 8 || elems <= NARROW_AUTO_WIDE_MAX };
    let take = match precision {
        Precision::F32 => f32_rule,
        Precision::Tf32 => f32_rule && (width == 4 || (mn && elems <= NARROW_AUTO_WIDE_MAX)),
        Precision::Bf16 => width <= 8 && (elems <= NARROW_AUTO_WIDE_MAX || bf16_staged || (width == 4 && elems <= NARROW_AUTO_BF16_MAX)),
    };
    take.then_some(mn)
}

/// Whether TF32 and BF16 `Auto` run a product with at most 16 rows or columns on the `wgmma`
/// tiles rather than the CUDA-core narrow and row-per-warp kernels, when `wgmma` reads both
/// operands as they are (k-contiguous, aligned): from 8 rows and columns up (`wgmma`'s narrowest
/// n). With the clustered split-K plans placed by rounds, the tiles won every such product timed:
/// TF32 m×10×1024 for m = 32 to 1024 5.5-6.3 µs against 7.3-12.1, 1024×10×4096 11.0 against
/// 19.2, 10×4096×128 3.0 against 4.8; BF16 4096×10×1024 6.9 against 8.7, 256×10×4096 6.6 against
/// 8.4 (H100, docs/runs/2026-11-25-h100-s13/r3).
fn wgmma_takes_narrow(m: usize, n: usize) -> bool {
    m.min(n) >= 8
}

/// Whether `Auto` runs a few-rows product with a k-contiguous op(B) on the warp-per-column kernel
/// (`narrow`: the narrow kernel its rules pick, if any): where its grid fills the device
/// ([`warpdot_fills`]), where no narrow kernel runs, and short of a full grid up to
/// [`WARPDOT_TINY_MAX_K`] (once only on tiny products, below [`NARROW_AUTO_MIN`] elements).
fn warpdot_auto(p: &GemmParams, narrow: Option<bool>, sms: usize) -> bool {
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    let fills = warpdot_fills(m, n, sms);
    // Short of a full grid each warp's chain of k-steps is short enough up to
    // WARPDOT_TINY_MAX_K, at any grid: 1 and 4 rows, n = 300–1004 (38–126 blocks), k = 325–1023,
    // nt and tt, three precisions: 0.51–0.94 of the narrow kernel's time in `Auto`'s splits
    // (f32 nt 1×1004×325 4.34 → 2.52 µs, PyTorch 2.81; 4×1004×700 5.72 → 3.44; H200,
    // docs/runs/2026-11-29-s41/a4). At k = 2000 it lost on tt (4×500×2000 8.3 against 6.6).
    // Tiny products take it up to that k on a full grid too.
    let short_chain = k <= WARPDOT_TINY_MAX_K && (!fills || tiny_product(m, n, k));
    // Not where its grid fills the device with a k the short-k kernel takes: a warp per column
    // then idles most of its lanes over many columns (nt 3×6269×3: 3.7 µs against 2.2 on the
    // short-k kernel, bf16 2×1080×7 2.4 against 2.1). Short of a full grid it starts soonest
    // (f32 tn 3×1×11 1.5 against 2.0, tt 4×850×3 1.9 against 2.1; H200,
    // docs/runs/2026-11-29-s40/x7).
    let short = k <= SHORTK_AUTO_SMALL_MAX_K && fills;
    // Nor for its full grid alone, below a quad per lane, on more than
    // WARPDOT_SHORT_K_MAX_BLOCKS_PER_SM blocks per multiprocessor: the narrow kernel streams the
    // columns faster there.
    let crowded = k < WARPDOT_T_MIN_K && warpdot_blocks(m, n) > WARPDOT_SHORT_K_MAX_BLOCKS_PER_SM * sms;
    !short && m <= WARPDOT_MAX_ROWS && p.b_row_stride == 1 && ((fills && !crowded) || narrow.is_none() || short_chain)
}

/// Whether `Auto` runs a few-columns product on the warp-per-column kernel over Cᵀ (a warp per
/// row of C, `gemm_warpdot_t_*`): at most [`WARPDOT_MAX_ROWS`] columns and fewer than rows, a
/// k-contiguous op(B) (a matrix-vector product's vector always is), k past the short-k
/// kernel's, and
/// - op(A) k-contiguous: a tiny product (below [`NARROW_AUTO_MIN`] elements of op(A)), or k
///   from [`WARPDOT_T_MIN_K`] to [`WARPDOT_T_K_PER_ROW`] per row of C (in f32 up to
///   [`NARROW_AUTO_WIDE_MAX`] elements, and on more than one column with rows of a multiple of
///   4 floats);
/// - op(A) contiguous along m (one column only): up to [`NARROW_MN_MIN_ELEMS`] elements.
///
/// Measured against the narrow kernels, every split count, and `Auto`'s plan before, on 20
/// few-column shapes in three layouts and three precisions (H200, docs/runs/2026-11-28-s35/r5;
/// µs, PyTorch in brackets): nt 1130×1×248 2.25–2.47 against 2.85–2.91 on the narrow
/// k-contiguous kernel and 4.0–4.1 before (2.5–3.0), nn 454×1×1813 4.0–5.0 against 5.5 and 6.0
/// (3.4–3.7), nt 3000×1×2000 5.3–5.8 against 9.1–10.2 (5.4–5.9), nt 2000×4×3000 7.3–8.2
/// against 10.8–11.7, nn 7×1×222 2.2 against 2.7 and 3.7–3.9 (2.0–2.1), tn 1130×1×248 3.3–3.4
/// against 4.4–5.0 (2.8–3.5). Its warps lose where each takes a long k alone (nt 50×2×7000 10.0
/// against 5.7; 65×3×4099 9.4 against 4.7), where k is short on many rows (nt 10000×2×100 5.3
/// against 4.8), in f32 on large products (nt 16384×1×1024 23.1 against 19.4) and with an
/// MN-major op(A) past half a million elements (tn 454×1×1813 7.5 against 6.2).
fn warpdot_t_auto(p: &GemmParams, precision: Precision) -> bool {
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    // (A k short enough for the short-k kernel runs there.)
    if n > WARPDOT_MAX_ROWS || n >= m || p.b_row_stride != 1 || k <= kernels::matmul::SHORTK_MAX {
        return false;
    }
    let elems = m.saturating_mul(k);
    if p.a_col_stride != 1 {
        return n == 1 && elems <= NARROW_MN_MIN_ELEMS;
    }
    let bf16 = precision == Precision::Bf16;
    // f32 on more than one column loads by quads only with rows of a multiple of 4 floats (the
    // row-per-warp kernel keeps the others: nt 367×2×329).
    if !bf16 && n > 1 && !(p.a_row_stride.is_multiple_of(4) && p.b_col_stride.is_multiple_of(4)) {
        return false;
    }
    elems < NARROW_AUTO_MIN || ((WARPDOT_T_MIN_K..=WARPDOT_T_K_PER_ROW * m).contains(&k) && (bf16 || elems <= NARROW_AUTO_WIDE_MAX))
}

/// Whether `Auto` (every precision) runs a tiny product with at most [`WARPDOT_MAX_ROWS`] rows
/// or columns on the warp-per-column kernel in any layout (on Cᵀ for few columns): below
/// [`NARROW_AUTO_MIN`] elements of the wide operand and k past [`SHORTK_AUTO_SMALL_MAX_K`],
/// where the rules above leave it to the shared-memory tiles, the row-per-warp kernel or the
/// padded tensor-core tiles. On such products drawn at random (and five of the random groups'
/// own) it ran as fast or faster, µs (H200, docs/runs/2026-11-28-s36/s5, s6): f32 tn 64×2×34
/// 2.0 against 3.9, tn 8×2×55 1.8 against 3.3, nn 3×133×306 2.9 against 4.9, nn 10×3×513 2.9
/// against 4.5, tn 3×6×333 2.4 against 4.3, tn 18×4×24 1.8 against 2.3; tf32 nt 139×2×490 3.2
/// against 6.2, tt 5×4×156 1.9 against 3.2; bf16 tn 4×290×134 2.4 against 3.9, tn 98×4×375
/// 3.5 against 5.2, tt 211×3×550 4.1 against 5.6; tn 18×2×709 3.45 against 4.76 on the narrow
/// kernel (`s7`). Up to that k the rules above keep their plans (f32 nn 291×1×7 stays on the
/// short-k kernel: 1.9 against 2.0 here), and past [`WARPDOT_TINY_MAX_K`] the narrow kernels'
/// split k (each warp's chain of k-steps).
fn warpdot_tiny(p: &GemmParams) -> bool {
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    (SHORTK_AUTO_SMALL_MAX_K + 1..=WARPDOT_TINY_MAX_K).contains(&k) && m.min(n) <= WARPDOT_MAX_ROWS && tiny_product(m, n, k)
}

/// Whether `Auto` of `precision` (`Precision::F32` for `Tf32Auto` too) runs the warp-per-column
/// kernel (`narrow`: the narrow kernel its rules pick, if any): few rows ([`warpdot_auto`]),
/// few columns on Cᵀ ([`warpdot_t_auto`]) or a tiny product ([`warpdot_tiny`]).
fn warpdot_picked(p: &GemmParams, narrow: Option<bool>, precision: Precision, sms: usize) -> bool {
    warpdot_auto(p, narrow, sms) || warpdot_t_auto(p, precision) || warpdot_tiny(p)
}

/// Whether an m×n×k product is tiny for the narrow-product rules: below [`NARROW_AUTO_MIN`]
/// elements of its wide operand (the larger of m and n, times k).
fn tiny_product(m: usize, n: usize, k: usize) -> bool {
    m.max(n).saturating_mul(k) < NARROW_AUTO_MIN
}

/// Most blocks per multiprocessor for which the warp-per-column kernel takes a few-rows product
/// with k below [`WARPDOT_T_MIN_K`] ([`warpdot_auto`]): with short k its time grows with its
/// columns (a warp each), where the unsplit k-contiguous narrow kernel stays near 3 µs (µs: nt
/// 1×3861×67, 3.7 blocks per multiprocessor, 3.7 against 2.6; nt 2×5000×100 3.6 against 3.0; nt
/// 4×8000×64 5.3 against 3.0; but nt 3×2500×120, 2.4 blocks per multiprocessor, 2.6 against
/// 3.0; H200, docs/runs/2026-11-29-s40/x8).
pub const WARPDOT_SHORT_K_MAX_BLOCKS_PER_SM: usize = 3;

/// Shortest k [`warpdot_t_auto`] takes past a tiny product: a quad per lane.
pub const WARPDOT_T_MIN_K: usize = 128;
/// Most k per row of C [`warpdot_t_auto`] takes past a tiny product: beyond it the rows are too
/// few for the length of each warp's pass.
pub const WARPDOT_T_K_PER_ROW: usize = 4;

/// Longest k for which a few-rows product with a k-contiguous op(B) whose warp-per-column grid
/// is short of a block per multiprocessor (or any tiny one) keeps that kernel ([`warpdot_auto`]):
/// there it started sooner than the narrow kernels
/// (nt 1×14×412: 2.3–2.4 µs against 3.9–4.0, 1×86×993 3.0–3.8 against 6.2–6.8; H100,
/// docs/runs/2026-11-28-s27/h4); past it its chain of k-steps is long (f32 1×2×5936 took 13 µs
/// on it, PyTorch 3.7; [`NARROW_AUTO_LONG_K`]).
pub const WARPDOT_TINY_MAX_K: usize = 1023;

/// Whether the warp-per-column kernel's grid (8 columns by 4 rows per block) has a block per
/// multiprocessor: then it matched or beat the narrow k-contiguous kernel (f32 1×4096×4096: 28.6
/// µs against 29.9, 4×7337×2921: 48 against 57, 3×2000×300: 2.9 against 4.1), and short of it
/// lost on a long k (1×165×7552, 21 blocks: 10.1 against 7.3; H100,
/// docs/runs/2026-11-24-h100-s10/e2, e3); up to [`WARPDOT_TINY_MAX_K`] it wins short of it too.
fn warpdot_fills(m: usize, n: usize, sms: usize) -> bool {
    warpdot_blocks(m, n) >= sms
}

/// The warp-per-column kernel's grid for an m×n product: blocks of 8 columns by 4 rows.
fn warpdot_blocks(m: usize, n: usize) -> usize {
    use kernels::matmul as km;
    n.div_ceil(km::WARPDOT_WARPS as usize) * m.div_ceil(km::WARPDOT_ROWS)
}

/// Whether the `Auto` rules of a precision run the short-k kernel ([`SHORTK_AUTO_MAX_K`] and the
/// constants after it).
fn shortk_auto(p: &GemmParams, precision: Precision, sms: usize) -> bool {
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    // C rows of 16-byte alignment: the kernels store them by quads.
    let quads = n.is_multiple_of(4);
    let max_k = match precision {
        Precision::F32 if quads => SHORTK_AUTO_F32_ALIGNED_MAX_K,
        Precision::F32 => kernels::matmul::SHORTK_MAX,
        Precision::Tf32 => SHORTK_AUTO_TF32_MAX_K,
        Precision::Bf16 => SHORTK_AUTO_MAX_K,
    };
    let outputs = m.saturating_mul(n);
    // A very short k on the 16-row blocks: they start sooner than the tiles.
    if (1..=SHORTK_AUTO_SMALL_MAX_K).contains(&k) && shortk_small(m, n, sms) {
        return true;
    }
    let fits = (1..=max_k).contains(&k) && outputs >= SHORTK_AUTO_MIN_OUTPUTS;
    // C rows that break 16-byte alignment: the short-k kernel stores them an element at a time.
    let min_outputs = if quads { SHORTK_AUTO_F32_MIN_OUTPUTS } else { SHORTK_AUTO_F32_UNALIGNED_MIN_OUTPUTS };
    let aligned_short = k <= SHORTK_AUTO_F32_MAX_K && quads;
    fits && (precision != Precision::F32 || aligned_short || outputs >= min_outputs)
}

/// Longest k for which BF16 `Auto` runs [`GemmKernel::ShortK`] on outputs of at least
/// [`SHORTK_AUTO_MIN_OUTPUTS`] (FP32 `Auto` runs it up to `kernels::matmul::SHORTK_MAX`, or
/// [`SHORTK_AUTO_F32_ALIGNED_MAX_K`], `Tf32Auto` up to [`SHORTK_AUTO_TF32_MAX_K`]): a product
/// that is mostly its output. Against the tensor-core tiles it won every such product timed (TF32 128×4096×10: 4.2 µs against 8.0,
/// 797×346×9: 5.5 against 6.3, 2236×588×4: 4.2 against 8.3; BF16 4670×94×6: 6.1 against 7.8),
/// and lost from k = 16 (4096×4096×16: 51 against 31-39; H100, docs/runs/2026-11-24-h100-s10/e5).
/// With 8×4 outputs per thread stored as quads, staged as deep as k needs, it writes
/// 4096×4096×10 in 28.4 µs (f32 or bf16 inputs), from 51 (docs/runs/2026-11-24-h100-s12/e9);
/// staged 32 deep it lost at k = 16 to the BF16 tiles (39.5 against 30.7) and tied the f32 ones
/// (39.3 against 39.2; e6).
/// At k = 16 and 24 the BF16 `wgmma` tiles still win (4096×4096×16 30.8 µs against 33.3,
/// 1024×4096×24 9.3 against 13.5); the FP32 tiles lose up to k = 32 (4096×4096×16 33.4 against
/// 39.5, 8192×4096×32 104.8 against 112.6; docs/runs/2026-11-24-h100-s12/e10).
pub const SHORTK_AUTO_MAX_K: usize = 12;
/// Longest k for which `Tf32Auto` runs [`GemmKernel::ShortK`]: it beats the TF32 `wgmma` tiles
/// at k = 16 (4096×4096×16 33.3 µs against 36.0, 1024×1024×16 4.2 against 5.3) and ties or loses
/// from k = 24 (1024×4096×24 nn 13.5 against 11.5; H100, docs/runs/2026-11-24-h100-s12/e10).
pub const SHORTK_AUTO_TF32_MAX_K: usize = 16;

/// Whether [`Bf16Kernel::ShortKMma`] runs on 32×32 tiles (`gemm_shortk_mma_small_bf16`) rather
/// than 64×64 ones: where the 64×64 grid holds fewer than one and a half blocks per
/// multiprocessor. A block's time there is the chain of its warps' instructions (one warp per
/// scheduler), and the 32×32 tile's warps run a quarter of the loads, steps and stores: both
/// tiles timed in one call on 94 BF16 products of k 9–128 (H200, docs/runs/2026-11-28-s34/q5),
/// the 32×32 tiles ran in 0.53–0.96 of the 64×64 ones' time below 132 blocks of 64×64 (tn
/// 388×236×84 3.3 µs against 5.8, PyTorch 3.9; tt 6308×37×20 3.0 against 4.0, PyTorch 3.2), in
/// 0.72–1.02 from 132 to 198 (nn 1484×340×20 3.3 against 4.4; nn 1380×539×91 7.5 against 7.4),
/// and mostly slower from 208 (tn 1024×1024×64 6.5 against 5.2, tt 193×4861×74 9.5 against
/// 8.1).
fn shortk_mma_small(m: usize, n: usize, sms: usize) -> bool {
    let tile = kernels::matmul::SHORTK_MMA_TILE;
    2 * m.div_ceil(tile) * n.div_ceil(tile) < 3 * sms
}

/// Whether BF16 `Auto` runs the short-k tensor-core tile ([`Bf16Kernel::ShortKMma`]): operand
/// rows the copy engine cannot read (`pad` > 0: the `wgmma` path would copy them into padded
/// rows first), more than 16 rows and columns, k in [`SHORTK_MMA_AUTO_K`] and fewer outputs than
/// [`SHORTK_MMA_AUTO_MAX_OUTPUTS`]. There the other plans pay for a padding pass, element loads
/// into a long pipeline, or CUDA-core FMAs, and this tile starts and finishes sooner. With 64×64
/// tiles only, `Auto` new against old took 0.775 of the old time on geometric mean over 49 such
/// products of 2¹⁷–2²² outputs (H200, docs/runs/2026-11-28-s34/q4); with the 32×32 tiles on
/// small grids ([`shortk_mma_small`]) it also beat the old picks below 2¹⁷ outputs, where the
/// shared-memory and `wgmma` tiles had won against the 64×64 one (tt 125×22×91 6.3 µs → 3.1,
/// nn 462×32×66 4.2 → 2.8, tn 227×138×45 3.9 → 2.5, nn 673×159×57 3.8 → 2.6, nn 24×137×22 2.4
/// → 2.2; q5).
fn shortk_mma_auto(m: usize, n: usize, k: usize, pad: usize) -> bool {
    let outputs = m.saturating_mul(n);
    let one_chunk = k <= kernels::matmul::SHORTK_MMA_BK;
    if m.min(n) <= kernels::matmul::NARROW_MAX {
        // At most 16 rows or columns: tiny products only (the narrow kernels take the others).
        return pad > 0 && tiny_product(m, n, k) && (*SHORTK_MMA_AUTO_K.start()..=SHORTK_MMA_NARROW_MAX_K).contains(&k);
    }
    pad > 0 && SHORTK_MMA_AUTO_K.contains(&k) && outputs < SHORTK_MMA_AUTO_MAX_OUTPUTS && (one_chunk || outputs < SHORTK_MMA_AUTO_TWO_CHUNK_OUTPUTS)
}

/// Whether BF16 `Auto` runs a product of 3 to 16 rows or columns on the short-k tensor-core tile
/// ([`Bf16Kernel::ShortKMma`]) before any other rule: k within one chunk of the tile (11 to
/// `kernels::matmul::SHORTK_MMA_BK`) and at most [`SHORTK_MMA_FEW_ROWS_MAX_ELEMS`] elements of the
/// wide operand, in any layout and alignment. There the narrow kernels (their splits), the
/// warp-per-column kernel and the `wgmma` tiles all start or finish later: 3, 6 and 12 rows by
/// 1500–12000 columns at k = 24 and 48, every layout, it ran in 0.42–1.01 of `Auto`'s time (nt
/// 12×6000×48 6.0 → 2.5 µs, nn 6×3177×48 4.1 → 2.5, PyTorch 2.6; tt 6×12000×24 5.5 → 2.6), worst
/// 1.06 (tn 3×6000×48, the narrow kernel unsplit); past one chunk (k = 80–200) it lost on three
/// rows of a k-contiguous op(B) to the narrow kernel unsplit (nt 3×3177×80 3.1 against 2.6) and
/// past 2¹⁹ elements to the narrow kernels' streaming (tn 3×12000×48 3.4 against 2.9; H200,
/// docs/runs/2026-11-29-s41/a6).
fn shortk_mma_few_rows(m: usize, n: usize, k: usize) -> bool {
    let (small, big) = kernels::matmul::narrow_sides(m, n);
    (3..=kernels::matmul::NARROW_MAX).contains(&small)
        && (*SHORTK_MMA_AUTO_K.start()..=kernels::matmul::SHORTK_MMA_BK).contains(&k)
        && big.saturating_mul(k) <= SHORTK_MMA_FEW_ROWS_MAX_ELEMS
}

/// Most elements of the wide operand for [`shortk_mma_few_rows`].
pub const SHORTK_MMA_FEW_ROWS_MAX_ELEMS: usize = 1 << 19;

/// Longest k for which [`shortk_mma_auto`] takes a tiny product with at most 16 rows or
/// columns (below [`NARROW_AUTO_MIN`] elements of the wide operand; four chunks): most of a
/// 32-wide tile lies past C, and still it beat the plans `Auto` had on every such product timed
/// from k = 18 to 194, µs (H200, docs/runs/2026-11-28-s36/s5, s6): tn 830×11×113 3.4 against 6.5
/// (PyTorch 6.1), tt 780×13×167 3.7 against 6.5, nt 9×28×194 3.9 against 5.9, tn 6×38×33 2.2
/// against 3.3, tt 11×145×44 2.4 against 3.5, nn 6×11×41 2.2 against 3.3, tt 1945×11×19 2.2
/// against 2.5.
pub const SHORTK_MMA_NARROW_MAX_K: usize = 256;

/// The k of [`shortk_mma_auto`]: from 11, below which the CUDA-core short-k kernel wins on the
/// larger outputs (nn 4096×1024×10 8.6 µs on it against 10.8 on the 64×64 tile, 2048×1024×10
/// 5.3 against 6.7; q3, q5), to 128: one or two chunks of the tile (64 k each). With a second
/// chunk it still beat the padded `wgmma` tiles at k = 67–92 (nn 1964×126×67 6.8 → 5.6 µs on
/// 64×64 tiles, tt 193×4861×74 10.4 → 8.1; q3) and on small grids up to 109 (tt 502×89×109 6.7
/// → 3.2 on 32×32 tiles, nn 404×136×109 4.9 → 3.1; q5); past 64 only below
/// [`SHORTK_MMA_AUTO_TWO_CHUNK_OUTPUTS`].
pub const SHORTK_MMA_AUTO_K: std::ops::RangeInclusive<usize> = 11..=128;

/// Outputs from which [`shortk_mma_auto`] leaves products to the `wgmma` tiles, which stream C
/// faster (nt 6756×5013×42, 34 M outputs: 75 µs against 88; q3). The largest product timed
/// below it ran faster on the short-k tile (nt 3182×1181×18, 3.8 M outputs: 19.3 → 11.2 µs; q4).
pub const SHORTK_MMA_AUTO_MAX_OUTPUTS: usize = 1 << 22;

/// Most outputs of [`shortk_mma_auto`] for k past one chunk (64): each block loads and stages a
/// second chunk, and over many blocks the padded `wgmma` tiles ran faster (tn 143×13368×80:
/// 10.5 µs against 14.5, nt 172×8544×74 9.1 against 10.4, tn 513×6617×92 13.6 against 22.0),
/// where below 2²⁰ it won every product timed (nn 129×1867×77 7.2 → 5.4 µs, nn 372×1355×79 7.6
/// → 5.5, tn 641×676×89 7.0 → 6.0; H200, docs/runs/2026-11-28-s34/q4).
pub const SHORTK_MMA_AUTO_TWO_CHUNK_OUTPUTS: usize = 1 << 20;

/// Whether BF16 `Auto` runs a product its `wgmma` path would pad first (`pad` > 0) on the
/// `mma.sync` tiles instead, which read any rows: one k-slice of theirs (k ≤
/// `kernels::matmul::BF16_LDM_BK`) on at most [`MMA_PADDED_MAX_OUTPUTS`] outputs, where the
/// padding pass and the `wgmma` tile's longer start cost more than a single slice saves.
fn mma_instead_of_padding(m: usize, n: usize, k: usize, pad: usize) -> bool {
    pad > 0 && k <= kernels::matmul::BF16_LDM_BK && m.saturating_mul(n) <= MMA_PADDED_MAX_OUTPUTS
}

/// Most outputs of [`mma_instead_of_padding`]. Below it the 64×64 `mma.sync` tiles beat the
/// padded `wgmma` plan on all but one product timed with k ≤ 64 (nn 284×3687×22 6.9 µs against
/// 10.6, nt 6858×86×38 6.1 against 10.3, nt 1184×655×30 5.9 against 8.6, nn 2726×284×46 6.8
/// against 7.8; tn 552×1009×21 6.1 against 5.4); above it the padded `wgmma` tiles won four of
/// six (tn 1632×1195×51 8.2 against 10.1, nt 1691×3668×46 19.4 against 23.4; H100,
/// docs/runs/2026-11-25-h100-s21/d3).
pub const MMA_PADDED_MAX_OUTPUTS: usize = 1 << 20;

/// Fewest outputs for the short-k kernel in `Auto`: below it the 32×32 shared-memory tiles
/// start sooner (326×6×8: 3.0 µs against 4.8; e5); not so for FP32 and TF32 since the 16-row
/// blocks ([`SHORTK_AUTO_SMALL_MAX_K`]).
pub const SHORTK_AUTO_MIN_OUTPUTS: usize = 1 << 16;
/// Longest k for which FP32 and TF32 `Auto` run the short-k kernel wherever it runs on blocks
/// of 16 rows ([`shortk_small`]), at any size and alignment. On them (session 26) it started
/// every such product timed sooner than the shared-memory and 32-wide tiles, or as soon:
/// 162×1×1 1.7 µs against 2.3, 483×49×1 1.9 against 2.5, 463×292×6 2.2 against 3.2, 62×2779×1
/// 2.2 against 3.3, 1412×278×2 3.1 against 3.5, tt 98×4463×8 3.1 against 3.7, 5600×13×8 3.3
/// against 3.3 (22 FP32 products of k ≤ 13, TF32 likewise); where the grid needs 64-row blocks
/// the tiles won (nt 7527×39×10, 118 blocks: 3.6 µs on `Tile64Fine` against 4.7; tt
/// 219×3694×4, 116: 4.3 against 4.7), and at k = 19 and 24 the shared-memory tiles (356×11×19
/// 2.6 against 3.2, 25×1059×24 2.7 against 3.7; H100, docs/runs/2026-11-28-s27/h4 and the plan
/// files of sessions 25 and 26). Below [`SHORTK_AUTO_MIN_OUTPUTS`] the rules before it took the
/// shared-memory tiles, measured against the 64-row blocks. BF16 too: on every BF16 product of
/// the plan files of sessions 27–33 with k ≤ 12 and fewer outputs than that, the 16-row blocks
/// ran in 0.79–0.95 of the shared-memory tiles' time (nt 162×1×1 1.9 µs against 2.4, tn
/// 679×2×1 2.0 against 2.5, 483×49×1 2.1 against 2.5, 337×48×2 2.1 against 2.4, 659×33×10 2.4
/// against 2.6), and the sweep's launch-bound nt 472×1×2 took 2.30 µs on the tiles against
/// PyTorch's 2.09 (H200, docs/runs/2026-11-28-s33/p3).
pub const SHORTK_AUTO_SMALL_MAX_K: usize = 12;
/// Longest k for which FP32 `Auto` runs the short-k kernel on C rows of 16-byte alignment (n a
/// multiple of 4; other rows up to `kernels::matmul::SHORTK_MAX`). At k = 32, one whole slice of
/// the FP32-on-TF32 split kernel, that kernel beat it on every such product timed: nn 4096×4096×32
/// 45.1 µs against 54.3, nt 4096×1024×32 11.9 against 17.8 (H100,
/// docs/runs/2026-11-25-h100-s21/d1, s20/d5), tn 4096×784×32 11.8 against 17.4, tn 1024×784×32
/// 6.5 against 8.8 (H200, docs/runs/2026-11-27-s26/g4). On rows it stores an element at a time
/// it won one and lost one (nt 4096×1026×32 29.5 against 23.0, `d5`; nt 2857×1539×32 18.6
/// against 23.2, s21/d3). Below k = 32 the short-k kernel still won on the largest outputs (nn
/// 3776×3059×31 46.3 µs against 55.3, tn 2480×3723×20 33.1 against 53.3; s20/d4).
pub const SHORTK_AUTO_F32_ALIGNED_MAX_K: usize = 31;
/// Longest k for which FP32 `Auto` runs the short-k kernel below
/// [`SHORTK_AUTO_F32_MIN_OUTPUTS`]. The tiles beat it past k = 4 (128×4096×10: 3.3 µs against
/// 4.2, 1024×1024×10: 4.2 against 4.9) but not at k = 4 (2236×588×4: 6.9 against 4.2;
/// docs/runs/2026-11-24-h100-s10/e5). On C rows that break 16-byte alignment too, since the
/// tiles store those a column of four rows per thread (`kernels::matmul::gemm_epilogue4_step`):
/// nn 797×346×9 4.6 µs against 5.2, tt 6308×37×20 5.7 against 6.0 (H100, sweep of
/// docs/runs/2026-11-24-h100-s18/r3).
pub const SHORTK_AUTO_F32_MAX_K: usize = 4;
/// Fewest outputs for which FP32 `Auto` runs the short-k kernel at any k up to
/// `kernels::matmul::SHORTK_MAX`: a pass that writes C (4096×4096×10: 28.4 µs against 39.4 for
/// `Pipelined`, 1024×1024×10 3.8 against 4.2 for the 64×64 tiles, 256×4096×10 3.7 against 4.1),
/// where below it the 64×64 tiles start sooner (797×346×9: 5.0 against 5.3; H100,
/// docs/runs/2026-11-24-h100-s12/e9).
pub const SHORTK_AUTO_F32_MIN_OUTPUTS: usize = 1 << 19;
/// [`SHORTK_AUTO_F32_MIN_OUTPUTS`] where C's rows break 16-byte alignment (n not a multiple of
/// 4), at any k (the k ≤ [`SHORTK_AUTO_F32_MAX_K`] exception is for aligned rows only). Since the
/// tiles store such rows a column of four at a time (`kernels::matmul::gemm_epilogue4_step`),
/// they beat the short-k kernel on every such product timed below 2²⁰ outputs: 197×1997×4 3.4
/// µs against 4.8, 57×5561×4 3.4 against 4.6, 181×2986×10 3.9 against 5.4, 1184×655×30 5.9
/// against 7.3 (564×1034×3 tied, 5.0 against 4.8); above it the short-k kernel won every one,
/// 2091×6973×4 32.6 against 61.4, 1502×2937×7 13.3 against 21.1 (H100,
/// docs/runs/2026-11-25-h100-s21/d2, docs/runs/2026-11-25-h100-s20/d4).
pub const SHORTK_AUTO_F32_UNALIGNED_MIN_OUTPUTS: usize = 1 << 20;

/// The `Auto` rule a product is judged by: FP32 `Auto`, `Tf32Auto` or BF16 `Auto`
/// ([`narrow_auto`], [`auto_plan`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// Exact f32 (`GemmKernel::Auto`).
    F32,
    /// f32 operands rounded to TF32 (`GemmKernel::Tf32Auto`).
    Tf32,
    /// bf16 operands (`Bf16Kernel::Auto`).
    Bf16,
}

/// Fewest elements of the wide operand (big side · k) for which `Auto`, `Tf32Auto` and BF16
/// `Auto` run a narrow kernel (at most 16 rows or columns): below it the product is about a
/// launch, which the shared-memory tiles start soonest.
///
/// The narrow kernels are passes over the wide operand; against them the tile kernels pay for
/// rows that do not exist but have more FMAs per byte. Measured on an H100 in every layout
/// (docs/runs/2026-11-24-h100-s10/e2, e3, e7; µs, Auto's plan before → narrow): at widths 4 and 8
/// they won every f32 product (1×4096×4096 n-contiguous B 44.5 → 28.8, 4×7337×2921 99 → 42,
/// 8×8192×8192 240 → 121, 6×6898×548 x·Wᵀ 34.5 → 10.1, 762×3×114 5.8 → 3.2), and BF16 ones up
/// to 2²³ elements, or 2²⁵ at width 4 (1×4096×4096 19.1 → 12.3, 4×7337×2921 88 → 37;
/// 3×8192×8192 47.6 → 60.5 and 8×8192×8192 48 → 80 lost to the `wgmma` tiles). At width 16
/// the f32 big-contiguous kernel won from about 2²⁰ elements (10×4096×256 11.9 → 9.0,
/// 10×1024×1024 12.6 → 10.0, 10×1024×4096 25.4 → 14.8, 16×4096×4096 66.8 → 51.3; 10×4096×128
/// 6.3 → 6.7 and 10×1024×256 8.7 → 8.8 lost; e7), and the
/// k-contiguous one up to 2²³ (10×1024×4096 x·Wᵀ 25.8 → 21.9; 16×4096×4096 69 → 129 lost: each
/// lane reads its own slice of the narrow operand from shared memory, 16 values per element of
/// G). TF32's tensor-core tiles beat them past width 4 on large products (8×8192×8192 101.7 µs
/// against 121) and on x·Wᵀ with k-contiguous operands (4096×10×1024: 10.3 against 19.5, r2), and
/// BF16's past width 8 (16×4096×4096 18.5 against 35.7). Few rows of a k-contiguous op(B) keep
/// the warp-per-column kernel while it has a block per multiprocessor ([`warpdot_fills`]).
pub const NARROW_AUTO_MIN: usize = 1 << 17;
/// Shortest k for which the narrow kernels run below [`NARROW_AUTO_MIN`] elements: a long k over
/// a tiny output is a chain of dependent steps on the kernels without split-K (f32 1×2×5936 took
/// 13 µs on the warp-per-column kernel, PyTorch 3.7; 7×2×2226 11.3 µs, PyTorch 7.3; H100,
/// docs/runs/2026-11-24-h100-s10/r2); from past the shared-memory tiles' k
/// ([`AUTO_SMEM_MAX_K`]), which start a short k soonest. From k = 1024 before: at k = 100–709
/// the k-contiguous narrow kernel unsplit ran BF16 nn 7×1×222 in 2.9 µs against 6.3 on `Auto`'s
/// padded 64×32 `wgmma` tile, nn 100×1×100 2.4 against 5.9, and TF32 tn 18×2×709 in 6 splits
/// 5.0 against 7.1 on the 32×64 tile (H200, docs/runs/2026-11-28-s33/p2; s27 `h1`). At most 4
/// rows or columns now take the warp-per-column kernel first ([`warpdot_tiny`]).
pub const NARROW_AUTO_LONG_K: usize = AUTO_SMEM_MAX_K + 1;
/// Shortest k from which FP32 `Auto` runs a tiny product of at most 8 rows or columns
/// ([`NARROW_AUTO_MIN`]) on the k-contiguous narrow kernel below [`NARROW_AUTO_LONG_K`] too:
/// there it started sooner than the shared-memory tiles (µs, PyTorch in brackets: nn 6×11×41
/// 2.6 against 3.4 (2.8), tn 5×188×46 2.9 against 3.4 (3.0), tn 1391×8×41 3.3 against 3.8 (3.1),
/// tt 530×7×51 3.2 against 3.9; H200, docs/runs/2026-11-29-s40/x6, x7). At k = 15 and 24 it
/// lost (tn 8×1198×15 2.5 against 2.4, tn 6×267×24 2.5 against 2.3).
pub const NARROW_AUTO_TINY_MIN_K: usize = 32;
/// Fewest elements of the wide operand for the big-contiguous narrow kernel at widths 4 and 8
/// on few columns (op(A) contiguous along m) or a tiny product ([`NARROW_AUTO_MIN`]): below it
/// the k-contiguous one ran faster there in every precision (tt 1130×1×248: 4.4–4.5 µs against
/// 5.4–5.7, tt 5069×5×50 3.5–3.6 against 3.8–3.9, tn 2×6×8114 6.3–6.4 against 7.6–7.9; H200,
/// docs/runs/2026-11-28-s33/p2, s31 `m2`). On few rows (op(B) contiguous along n) the
/// big-contiguous one kept winning below it too (BF16 nn 3×500×900, 0.45 M elements: 5.25 µs
/// against 6.11, `p3`; nn 2×1804×379, 0.68 M, 5.4).
pub const NARROW_MN_MIN_ELEMS: usize = 1 << 19;
/// Fewest elements of the wide operand for a width-16 big-contiguous narrow kernel in `Auto`
/// ([`NARROW_AUTO_MIN`]).
pub const NARROW_AUTO_F32_MN_WIDE_MIN: usize = 1 << 20;
/// Most elements of the wide operand for the narrow kernels that compete with tensor cores or
/// at width 16 with k-contiguous G ([`NARROW_AUTO_MIN`]).
pub const NARROW_AUTO_WIDE_MAX: usize = 1 << 23;
/// Most elements of the wide operand for BF16's width-4 narrow kernels when the `wgmma` tiles
/// need no staging pass ([`NARROW_AUTO_MIN`]). Where they need one, BF16's narrow kernels run
/// at widths 4 and 8 whatever the size: the padding pass alone moves the wide operand twice,
/// where the narrow kernel reads it once (tn 5×8174×2651: 72 µs on the padded 64×32 tile,
/// 33.7 in 4 splits of the big-contiguous narrow kernel, PyTorch 39.1; H100,
/// docs/runs/2026-11-28-s27/h1).
pub const NARROW_AUTO_BF16_MAX: usize = 1 << 25;

/// The grid of the narrow kernels (`mn`: big-contiguous form): a block of its big indices per
/// x, a split per z.
fn narrow_config(op: &'static str, p: &GemmParams, mn: bool) -> Result<LaunchConfig> {
    use kernels::matmul as km;
    let (_, big) = km::narrow_sides(p.m as usize, p.n as usize);
    let per_block = if mn { km::NARROW_MN_BIG } else { km::NARROW_K_BIG };
    let mut cfg = LaunchConfig::for_2d(op, 1, big.div_ceil(per_block), (1, 1))?;
    cfg.block = crate::launch::Dim3::x(km::NARROW_THREADS);
    cfg.grid.z = p.splits;
    Ok(cfg.with_shared_mem(km::NARROW_SHARED))
}

/// The warp-per-column kernels' product on Cᵀ = op(B)ᵀ·op(A)ᵀ (`gemm_warpdot_t_*`: a warp per
/// row of C) where C has fewer columns than rows: m and n swapped, op(A)'s strides given to
/// op(B) and back; C's `ldc`, bias and epilogue stay. `None` where C has at least as many
/// columns as rows (the kernels' own orientation).
fn warpdot_transposed(p: &GemmParams) -> Option<GemmParams> {
    (p.n < p.m).then_some(GemmParams {
        m: p.n,
        n: p.m,
        // One column of C (a matrix-vector product): op(B)'s column stride is never applied, and
        // a k×1 B's (1) would keep the kernel off its 16-byte loads (nn 4096×1×4096 in bf16
        // 20.0 µs, against 10.5 for nt, whose stride is k; H200, docs/runs/2026-11-28-s35/r5).
        a_row_stride: if p.n == 1 { 0 } else { p.b_col_stride },
        a_col_stride: p.b_row_stride,
        b_row_stride: p.a_col_stride,
        b_col_stride: p.a_row_stride,
        ..*p
    })
}

/// The grid of the warp-per-column kernels for an m×n output: a block of
/// `kernels::matmul::WARPDOT_WARPS` columns per x, of `WARPDOT_ROWS` rows per y.
fn warpdot_config(op: &'static str, m: usize, n: usize) -> Result<LaunchConfig> {
    use kernels::matmul as km;
    let cfg = LaunchConfig::for_2d(op, m.div_ceil(km::WARPDOT_ROWS), n.div_ceil(km::WARPDOT_WARPS as usize), (1, 1))?;
    Ok(LaunchConfig { block: crate::launch::Dim3::x(km::WARPDOT_THREADS), ..cfg })
}

/// A block per `tile` of an m×n output (x along n), `threads` threads in x, `shared` bytes.
fn tile_grid(op: &'static str, m: usize, n: usize, (bm, bn): (usize, usize), threads: u32, shared: u32) -> Result<LaunchConfig> {
    let mut cfg = LaunchConfig::for_2d(op, m.div_ceil(bm), n.div_ceil(bn), (1, 1))?;
    cfg.block = crate::launch::Dim3::x(threads);
    Ok(cfg.with_shared_mem(shared))
}

/// C (m×n) = act(α·op(A)·op(B) + bias + β·C), where op(A) is m×k and op(B) is k×n.
///
/// This is what the layers use: forward x·Wᵀ (`tb = Yes`), input gradient dY·W, weight gradient
/// dYᵀ·x (`ta = Yes`).
#[allow(clippy::too_many_arguments)]
pub fn gemm(
    gpu: &Gpu,
    a: &DeviceMatrix,
    ta: Transpose,
    b: &DeviceMatrix,
    tb: Transpose,
    epilogue: Epilogue<'_>,
    c: &mut DeviceMatrix,
    kernel: GemmKernel,
) -> Result<()> {
    let Some(params) = gemm_params("gemm", a.shape(), ta, b.shape(), tb, &epilogue, c.shape())? else {
        return Ok(());
    };
    let info = gpu.info();
    let sms = info.multiprocessor_layout();
    let plan = kernel.plan_for(&params, sms, gpu.supports(&kernels::matmul::GEMM_WGMMA_TF32_KK));
    let plan = match kernel {
        // A bf16 copy of C needs a kernel that writes it: the 64×64 tiles of the same arithmetic.
        GemmKernel::Auto | GemmKernel::Tf32Auto if epilogue.bf16_copy.is_some() && !plan.kernel.writes_bf16_copy() => {
            let (m, n, k) = (params.m as usize, params.n as usize, params.k as usize);
            plan::choose_splits(if kernel == GemmKernel::Auto { GemmKernel::Tile64 } else { GemmKernel::Tf32Tile64 }, m, n, k, sms)
        }
        _ => plan,
    };
    run_plan(gpu, a, b, epilogue, c, params, plan)
}

/// `InvalidArgument` when the epilogue asks for a bf16 copy of C that `kernel` does not write.
fn check_bf16_copy(op: &'static str, epilogue: &Epilogue<'_>, kernel: impl std::fmt::Debug, writes: bool) -> Result<()> {
    if epilogue.bf16_copy.is_some() && !writes {
        return Err(crate::Error::InvalidArgument {
            op,
            reason: format!("{kernel:?} does not write a bf16 copy of C (its epilogue is unrolled per accumulator)"),
        });
    }
    Ok(())
}

/// [`gemm`] with the kernel and split-K count given (for tests and measurements; [`gemm`]
/// picks them with [`GemmKernel::plan_for`]). The plan must name a concrete kernel, and
/// `splits` > 1 only a tile kernel of [`plan::TileModel`] with every split at least 4 slices
/// long (`NarrowMn` 2), at most [`crate::context::SPLIT_COUNTERS`] tiles and partial tiles that
/// fit [`crate::context::SPLIT_WORKSPACE`]; otherwise `InvalidArgument`.
#[allow(clippy::too_many_arguments)]
pub fn gemm_with_plan(
    gpu: &Gpu,
    a: &DeviceMatrix,
    ta: Transpose,
    b: &DeviceMatrix,
    tb: Transpose,
    epilogue: Epilogue<'_>,
    c: &mut DeviceMatrix,
    plan: GemmPlan,
) -> Result<()> {
    let Some(params) = gemm_params("gemm", a.shape(), ta, b.shape(), tb, &epilogue, c.shape())? else {
        return Ok(());
    };
    run_plan(gpu, a, b, epilogue, c, params, plan)
}

/// The padded k of each FP32-on-TF32 segment (a whole number of TF32 `wgmma` slices, at least
/// one) and the k the kernel runs: three segments.
pub fn x3_k(k: usize) -> (usize, usize) {
    let kp = k.max(1).next_multiple_of(kernels::matmul::WG_BK_TF32);
    (kp, 3 * kp)
}

/// `params` as an FP32-on-TF32 kernel runs them: k over three segments.
fn x3_params(params: &GemmParams) -> GemmParams {
    let (kp, k3) = x3_k(params.k as usize);
    GemmParams { k: k3 as u64, x3_slices: (kp / kernels::matmul::WG_BK_TF32) as u32, ..*params }
}

/// Whether `plan` can run `params` (see [`gemm_with_plan`]).
fn check_plan(params: &GemmParams, plan: GemmPlan) -> Result<()> {
    let invalid = |reason: String| Err(crate::Error::InvalidArgument { op: "gemm", reason });
    if matches!(plan.kernel, GemmKernel::Auto | GemmKernel::Tf32Auto) {
        return invalid(format!("{:?} is not a concrete kernel", plan.kernel));
    }
    let swapped = GemmParams { m: params.n, n: params.m, ..*params };
    let model_params = if tiles_swapped(plan.kernel, params) { &swapped } else { params };
    check_splits("gemm", plan.kernel, plan::TileModel::of(plan.kernel), plan.splits, model_params)?;
    if plan.kernel.reads_a_into_registers() && tf32_rega(params).is_none() {
        return invalid(format!(
            "{:?} needs an MN-major operand with 16-byte aligned rows (and the other k-contiguous with 16-byte aligned rows, or MN-major too)",
            plan.kernel
        ));
    }
    match plan.kernel {
        GemmKernel::ColDot => check_coldot_shape("gemm", params)?,
        GemmKernel::RowDot => check_rowdot_shape("gemm", params)?,
        GemmKernel::NarrowMn | GemmKernel::NarrowK => check_narrow_shape("gemm", params)?,
        GemmKernel::ShortK => check_shortk_shape("gemm", params)?,
        _ => {}
    }
    if plan.kernel == GemmKernel::WarpTiledWide && !vec_operands(params) {
        return invalid(format!("{:?} needs operands that allow 16-byte loads", plan.kernel));
    }
    Ok(())
}

/// The shapes the column kernels (f32 and bf16 `ColDot`) take: at most
/// `kernels::matmul::COLDOT_MAX_ROWS` rows and an n-contiguous op(B).
fn check_coldot_shape(op: &'static str, p: &GemmParams) -> Result<()> {
    let max = kernels::matmul::COLDOT_MAX_ROWS;
    if p.m as usize > max || p.b_col_stride != 1 {
        let reason = format!("ColDot takes at most {max} rows and an n-contiguous op(B) ({}×{})", p.m, p.n);
        return Err(crate::Error::InvalidArgument { op, reason });
    }
    Ok(())
}

/// The shapes the narrow kernels (f32 and bf16 `NarrowMn`, `NarrowK`) take: at most
/// `kernels::matmul::NARROW_MAX` rows or columns.
fn check_narrow_shape(op: &'static str, p: &GemmParams) -> Result<()> {
    let max = kernels::matmul::NARROW_MAX;
    if p.m.min(p.n) as usize > max {
        let reason = format!("the narrow kernels take at most {max} rows or columns ({}×{})", p.m, p.n);
        return Err(crate::Error::InvalidArgument { op, reason });
    }
    Ok(())
}

/// The shapes the row-per-warp kernels (f32 and bf16 `RowDot`) take: at most
/// `kernels::matmul::SKINNY_MAX` columns.
fn check_rowdot_shape(op: &'static str, p: &GemmParams) -> Result<()> {
    if p.n as usize > kernels::matmul::SKINNY_MAX {
        let reason = format!("RowDot takes at most {} columns ({}×{})", kernels::matmul::SKINNY_MAX, p.m, p.n);
        return Err(crate::Error::InvalidArgument { op, reason });
    }
    Ok(())
}

/// The split-K part of a plan's check, shared by the f32 and the BF16 plans: 1 to
/// [`plan::MAX_SPLITS`] splits, and more than one only for a kernel with a tile model
/// (`model`) whose splits of k are long enough (4 slices; 2 in a cluster or for `NarrowMn`) and
/// fit the counters and workspace (unless they run as one cluster).
fn check_splits(op: &'static str, kernel: impl std::fmt::Debug, model: Option<plan::TileModel>, splits: u32, params: &GemmParams) -> Result<()> {
    let invalid = |reason: String| Err(crate::Error::InvalidArgument { op, reason });
    if splits == 0 || splits > plan::MAX_SPLITS {
        return invalid(format!("{splits} splits (1..={})", plan::MAX_SPLITS));
    }
    let (m, n, k) = (params.m as usize, params.n as usize, params.k as usize);
    // The narrow kernels' model tile is (narrow side × a block's big indices).
    let (m, n) = if model.is_some_and(|md| md.bm == kernels::matmul::NARROW_MAX) { kernels::matmul::narrow_sides(m, n) } else { (m, n) };
    match model {
        _ if splits == 1 => Ok(()),
        None => invalid(format!("{kernel:?} has no split-K")),
        Some(model) if !model.accepts(m, n, k, splits) => invalid(format!("{splits} splits of k = {k} for {m}×{n} with {kernel:?}")),
        Some(_) => Ok(()),
    }
}

/// Checks a plan ([`check_plan`]) and launches it.
fn run_plan(gpu: &Gpu, a: &DeviceMatrix, b: &DeviceMatrix, epilogue: Epilogue<'_>, c: &mut DeviceMatrix, params: GemmParams, plan: GemmPlan) -> Result<()> {
    let k = params.k as usize;
    // k = 0 has no slice for the copy engine to read: the staged form pads it to one.
    let plan = if plan.kernel == GemmKernel::Tf32x3Split && k == 0 { GemmPlan { kernel: GemmKernel::Tf32x3Wgmma128x128, ..plan } } else { plan };
    let x3 = matches!(plan.kernel, GemmKernel::Tf32x3Wgmma | GemmKernel::Tf32x3Wgmma128x128);
    let params = if x3 { x3_params(&params) } else { params };
    check_plan(&params, plan)?;
    check_bf16_copy("gemm", &epilogue, plan.kernel, plan.kernel.writes_bf16_copy())?;
    let bias_ptr = epilogue.bias.map_or(0u64, |b| b.device_ptr());
    let ptrs = GemmPtrs { a: a.device_ptr(), b: b.device_ptr(), c: c.device_ptr(), bias: bias_ptr };
    let params = match plan::TileModel::of(plan.kernel) {
        Some(model) if plan.splits > 1 => split_params(gpu, params, &model, plan.splits),
        _ => params,
    };
    match plan.kernel {
        GemmKernel::Tf32Wgmma | GemmKernel::Tf32Wgmma128x208 | GemmKernel::Tf32Wgmma64x128 | GemmKernel::Tf32Wgmma64x64 => {
            launch_tf32_wgmma(gpu, plan, ptrs, params)
        }
        GemmKernel::Tf32WgmmaRegA | GemmKernel::Tf32WgmmaRegAWide => launch_tf32_rega(gpu, plan.kernel, ptrs, params),
        GemmKernel::Tf32WgmmaCp | GemmKernel::Tf32WgmmaCp64 => launch_tf32_cp(gpu, plan.kernel, ptrs, params),
        GemmKernel::Tf32x3Wgmma => launch_tf32x3(gpu, kernels::matmul::WG_WIDE, ptrs, k, params),
        GemmKernel::Tf32x3Wgmma128x128 => launch_tf32x3(gpu, kernels::matmul::WG_MID, ptrs, k, params),
        GemmKernel::Tf32x3Split => launch_tf32x3_split(gpu, ptrs, params),
        k => launch_f32(gpu, k, ptrs, params),
    }
}

/// `params` for `splits` > 1 k-ranges of `model`'s slices, with this stream's split-K counters
/// and workspace (the split was checked against the model: every range non-empty, the
/// workspace large enough).
fn split_params(gpu: &Gpu, params: GemmParams, model: &plan::TileModel, splits: u32) -> GemmParams {
    let per = model.slices_per_split(params.k as usize, splits).expect("a checked split") as u32;
    if model.clusters(splits) && splits <= plan::MAX_CLUSTER_SPLITS {
        return GemmParams { splits, slices_per_split: per, cluster: splits, ..params };
    }
    let (sem, ws) = gpu.split_buffers();
    if model.clusters(splits) {
        // Clusters of MAX_CLUSTER_SPLITS splits, their sums added through the workspace.
        return GemmParams { splits, slices_per_split: per, cluster: plan::MAX_CLUSTER_SPLITS, sem, ws, ..params };
    }
    GemmParams { splits, slices_per_split: per, sem, ws, ..params }
}

/// [`GemmKernel::Tf32Wgmma`]: TF32 `wgmma` reads k-contiguous operands with 16-byte aligned rows
/// only. With `transpose`, an MN-major operand the copy engine can read (m or n contiguous, k
/// rows 16-byte aligned) is transposed in shared memory by the kernel; any other operand stored
/// the other way is first staged k-contiguous into this stream's staging buffer
/// (`gemm_stage_kmajor_f32`, rows padded to a multiple of 4); then tensor maps of both, then the
/// TF32 wgmma kernel of `plan` (a `Tf32Wgmma` tile; its transposing form with MN-major
/// operands). Whether to transpose is the cost model's choice for the plan
/// ([`plan::Tf32Staging::transposes`]).
fn launch_tf32_wgmma(gpu: &Gpu, plan: GemmPlan, x: GemmPtrs, params: GemmParams) -> Result<()> {
    use kernels::matmul as km;
    let (m, n, k) = (params.m as usize, params.n as usize, params.k as usize);
    let tile = plan.kernel.wgmma_tile().expect("a TF32 wgmma kernel");
    let staging = tf32_staging(&params);
    let model = plan::TileModel::of(plan.kernel).expect("a wgmma model");
    let sms = gpu.info().multiprocessor_layout();
    let transpose = tf32_transposing_tile(tile, false).is_some() && model.cost(m, n, k, plan.splits, sms).is_some_and(|c| staging.transposes(c, sms.count));
    let ([a, b], mn) = map_tf32_operands(gpu, x, &params, transpose)?;
    let (kernel, tile) = wgmma_tf32_layout(tile, mn[0], mn[1]);
    let wg = WgmmaOperands { a, a_mn: mn[0], b, b_mn: mn[1], bk: km::WG_BK_TF32, split: false, transposes: true, swap: false, a_registers: false };
    launch_wgmma(gpu, "gemm", kernel, tile, wg, x.c, x.bias, params)
}

/// The tensor maps of an f32 product's op(A) and op(B) as a TF32 `wgmma` kernel reads them, and
/// which of them are MN-major: each k-contiguous operand with 16-byte aligned rows as it is;
/// with `transpose`, each MN-major one the copy engine can read as it is (the kernel's producers
/// transpose its tiles in shared memory); any other first staged k-contiguous into this
/// stream's staging buffer (`gemm_stage_kmajor_f32`, rows padded to a multiple of 4).
fn map_tf32_operands(gpu: &Gpu, x: GemmPtrs, params: &GemmParams, transpose: bool) -> Result<([TmaMatrix; 2], [bool; 2])> {
    let (m, n, k) = (params.m as usize, params.n as usize, params.k as usize);
    // op(A) is m×k with strides (a_row_stride, a_col_stride); op(B) n×k with (b_col_stride,
    // b_row_stride) once seen k-major.
    let operands = [(x.a, params.a_row_stride, params.a_col_stride, m), (x.b, params.b_col_stride, params.b_row_stride, n)];
    let padded = k.next_multiple_of(4);
    let staging = tf32_staging(params);
    let staged = if transpose { staging.rest } else { staging.all };
    let mut buffer = if staged > 0 { gpu.staging_buffer(staged)? } else { 0 };
    let mut tma = [None, None];
    let mut mn = [false, false];
    for ((slot, is_mn), &(ptr, os, ks, outer)) in tma.iter_mut().zip(&mut mn).zip(&operands) {
        *is_mn = transpose && !tf32_direct(os, ks) && tf32_transposable(os, ks);
        *slot = Some(if tf32_direct(os, ks) {
            TmaMatrix { ptr, element: TmaElement::F32, rows: outer, cols: k, ld: os as usize }
        } else if *is_mn {
            // Stored k×outer: the kernel's producers transpose its tiles in shared memory.
            TmaMatrix { ptr, element: TmaElement::F32, rows: k, cols: outer, ld: ks as usize }
        } else {
            let staged = stage_kmajor_f32(gpu, (ptr, os, ks), outer, k, buffer)?;
            buffer += (outer * padded * 4) as u64;
            staged
        });
    }
    let [Some(a), Some(b)] = tma else { unreachable!("both operands were mapped") };
    Ok(([a, b], mn))
}

/// Copies an f32 operand (outer×k, strides `os` along outer and `ks` along k) k-contiguous into
/// rows of k padded to a multiple of 4 at `dst` (`gemm_stage_pad_f32` row by row where it is
/// k-contiguous already, else `gemm_stage_kmajor_f32`; `dst` has outer·padded floats of a
/// staging buffer), and returns it as the copy engine sees it.
fn stage_kmajor_f32(gpu: &Gpu, (ptr, os, ks): (u64, u64, u64), outer: usize, k: usize, dst: u64) -> Result<TmaMatrix> {
    use kernels::matmul as km;
    let padded = k.next_multiple_of(4);
    if ks == 1 {
        // Rows already k-contiguous: a plain copy into padded rows, no transposing tile.
        let cfg = LaunchConfig::for_num_elems("gemm_stage_pad_f32", outer * k.div_ceil(km::PAD_CHUNK_F32), km::STAGE_THREADS)?;
        // SAFETY: outer rows of os ≥ k floats at ptr (the caller's checked shapes); dst has
        // outer·padded floats of a 16-byte aligned staging buffer; padded is a multiple of 4.
        unsafe { km::gemm_stage_pad_f32(gpu, cfg, ptr as *const f32, os, outer as u64, k as u64, dst as *mut f32, padded as u64)? };
        return Ok(TmaMatrix { ptr: dst, element: TmaElement::F32, rows: outer, cols: k, ld: padded });
    }
    let (tile, threads) = (km::STAGE_TILE, km::STAGE_THREADS);
    let mut cfg = LaunchConfig::for_2d("gemm_stage_kmajor_f32", outer.div_ceil(tile), k.div_ceil(tile), (1, 1))?;
    cfg.block = crate::launch::Dim3::x(threads);
    let cfg = cfg.with_shared_mem((tile * (tile + 1) * 4) as u32);
    // SAFETY: (src, os, ks, outer, k, dst, ld): the strides address only inside the operand
    // (the caller's checked shapes); dst has outer·padded floats in the staging buffer.
    unsafe { km::gemm_stage_kmajor_f32(gpu, cfg, ptr as *const f32, os, ks, outer as u64, k as u64, dst as *mut f32, padded as u64)? };
    Ok(TmaMatrix { ptr: dst, element: TmaElement::F32, rows: outer, cols: k, ld: padded })
}

/// [`GemmKernel::Tf32WgmmaRegA`] (checked applicable): the MN-major operand is the kernel's
/// register operand; with an MN-major op(B) the kernel computes Cᵀ = op(B)ᵀ·op(A)ᵀ on tiles of
/// Cᵀ and stores them transposed. With both MN-major, the 64×128 tile on a small product reads
/// op(A) into registers and transposes op(B) in shared memory (`gemm_wgmma_tf32_mn_rega_64x128`,
/// no staging pass, tiles over m×n; [`plan::rega_transposes`]); otherwise the other is first
/// staged k-contiguous into this stream's staging buffer (`gemm_stage_kmajor_f32`, rows padded
/// to a multiple of 4).
fn launch_tf32_rega(gpu: &Gpu, which: GemmKernel, x: GemmPtrs, params: GemmParams) -> Result<()> {
    use kernels::matmul as km;
    let (m, n, k) = (params.m as usize, params.n as usize, params.k as usize);
    let tile = which.wgmma_tile().expect("a register-A kernel");
    let form = tf32_rega(&params).ok_or_else(|| crate::Error::InvalidArgument { op: "gemm", reason: format!("{which:?}: no MN-major operand") })?;
    let k_ = WgmmaKernel::alone;
    let wide = which == GemmKernel::Tf32WgmmaRegAWide;
    let mn = |ptr, ks: u64, outer| TmaMatrix { ptr, element: TmaElement::F32, rows: k, cols: outer, ld: ks as usize };
    if rega_transposes(which, form, &params) {
        let kernel = k_(&km::GEMM_WGMMA_TF32_MN_REGA_64X128, km::gemm_wgmma_tf32_mn_rega_64x128);
        kernel.require(gpu)?;
        let (a, b) = (mn(x.a, params.a_col_stride, m), mn(x.b, params.b_row_stride, n));
        let wg = WgmmaOperands { a, a_mn: true, b, b_mn: true, bk: km::WG_BK_TF32, split: false, transposes: true, swap: false, a_registers: true };
        return launch_wgmma(gpu, "gemm", kernel, km::WG_NARROW_T, wg, x.c, x.bias, params);
    }
    let swap = form.swap;
    let kernel = match (swap, wide) {
        (true, false) => k_(&km::GEMM_WGMMA_TF32_KN_REGA_64X128, km::gemm_wgmma_tf32_kn_rega_64x128),
        (false, false) => k_(&km::GEMM_WGMMA_TF32_MK_REGA_64X128, km::gemm_wgmma_tf32_mk_rega_64x128),
        (true, true) => k_(&km::GEMM_WGMMA_TF32_KN_REGA_128X192, km::gemm_wgmma_tf32_kn_rega_128x192),
        (false, true) => k_(&km::GEMM_WGMMA_TF32_MK_REGA_128X192, km::gemm_wgmma_tf32_mk_rega_128x192),
    };
    // Before any staging pass.
    kernel.require(gpu)?;
    // The register operand: MN-major (stored k×outer); the other k-contiguous (outer×k), as it
    // is or staged.
    let kmajor = |ptr, os: u64, ks: u64, outer: usize| -> Result<TmaMatrix> {
        if form.staged == 0 {
            return Ok(TmaMatrix { ptr, element: TmaElement::F32, rows: outer, cols: k, ld: os as usize });
        }
        stage_kmajor_f32(gpu, (ptr, os, ks), outer, k, gpu.staging_buffer(form.staged)?)
    };
    let (a, b) = if swap {
        (mn(x.b, params.b_row_stride, n), kmajor(x.a, params.a_row_stride, params.a_col_stride, m)?)
    } else {
        (mn(x.a, params.a_col_stride, m), kmajor(x.b, params.b_col_stride, params.b_row_stride, n)?)
    };
    let wg = WgmmaOperands { a, a_mn: true, b, b_mn: false, bk: km::WG_BK_TF32, split: false, transposes: false, swap, a_registers: true };
    launch_wgmma(gpu, "gemm", kernel, tile, wg, x.c, x.bias, params)
}

/// [`GemmKernel::Tf32WgmmaCp`] and [`GemmKernel::Tf32WgmmaCp64`]: the kernel of the tile, on
/// Cᵀ where [`wgcp_swaps`], its grid over the tiles of C (or Cᵀ), split-K along z. Its shared
/// operand (op(B), or op(A) when it swaps) is first staged k-contiguous into rows padded to a
/// multiple of 4 where it is not so already ([`wgcp_staged`], `stage_kmajor_f32`): the narrow
/// side, a short pass. The register operand is read as it is.
fn launch_tf32_cp(gpu: &Gpu, which: GemmKernel, x: GemmPtrs, params: GemmParams) -> Result<()> {
    use kernels::matmul as km;
    let swap = wgcp_swaps(&params);
    let (info, launch, bn): (&'static kernels::KernelInfo, F32Gemm, usize) = match (which, swap) {
        (GemmKernel::Tf32WgmmaCp, false) => (&km::GEMM_WGMMA_TF32_CP_64X128, km::gemm_wgmma_tf32_cp_64x128, 128),
        (GemmKernel::Tf32WgmmaCp, true) => (&km::GEMM_WGMMA_TF32_CP_64X128_SWAPPED, km::gemm_wgmma_tf32_cp_64x128_swapped, 128),
        (_, false) => (&km::GEMM_WGMMA_TF32_CP_64X64, km::gemm_wgmma_tf32_cp_64x64, 64),
        (_, true) => (&km::GEMM_WGMMA_TF32_CP_64X64_SWAPPED, km::gemm_wgmma_tf32_cp_64x64_swapped, 64),
    };
    // Before any staging pass.
    if !gpu.supports(info) {
        return Err(crate::Error::MissingKernel { name: info.name, hint: " (it needs sm_90a PTX, i.e. a compute capability 9.0 GPU)" });
    }
    // The register operand is contiguous along k or along its rows (what the kernel reads).
    let (os, ks) = if swap { (params.b_col_stride, params.b_row_stride) } else { (params.a_row_stride, params.a_col_stride) };
    if os != 1 && ks != 1 {
        return Err(crate::Error::InvalidArgument { op: "gemm", reason: format!("{which:?} needs its register operand contiguous along k or its rows") });
    }
    let (m, n, k) = (params.m as usize, params.n as usize, params.k as usize);
    let (mut x, mut params) = (x, params);
    let staged = wgcp_staged(&params);
    if staged > 0 {
        let (os, ks, outer) = wgcp_shared_operand(&params);
        let t = stage_kmajor_f32(gpu, (if swap { x.a } else { x.b }, os, ks), outer, k, gpu.staging_buffer(staged)?)?;
        if swap {
            (x.a, params.a_row_stride, params.a_col_stride) = (t.ptr, t.ld as u64, 1);
        } else {
            (x.b, params.b_col_stride, params.b_row_stride) = (t.ptr, t.ld as u64, 1);
        }
    }
    let (rows, cols) = if swap { (n, m) } else { (m, n) };
    let mut cfg = tile_grid(info.name, rows, cols, (km::WGCP_BM, bn), km::WGCP_THREADS, km::wgcp_shared(bn))?;
    cfg.grid.z = params.splits;
    // SAFETY: (a, b, c, bias, params) as the kernel takes them: the caller checked the shapes,
    // the strides address only inside A and B (device buffers, 16-byte aligned; the shared
    // operand k-contiguous with rows of a multiple of 4 floats, staged so above where it was
    // not), the grid covers C (or Cᵀ) in the kernel's tiles and the shared memory is
    // `wgcp_shared`; split-K plans carry the counters and workspace.
    unsafe { launch(gpu, cfg, x.a as *const f32, x.b as *const f32, x.c as *mut f32, x.bias as *const f32, params) }
}

/// [`GemmKernel::Tf32x3Wgmma`]: both operands staged as [head | tail] rows (`k` their own
/// inner dimension; `params` already counts three segments of `params.x3_slices` slices),
/// then the TF32 `wgmma` kernel `info` on `tile`.
fn launch_tf32x3(gpu: &Gpu, tile: kernels::matmul::WgTile, x: GemmPtrs, k: usize, params: GemmParams) -> Result<()> {
    use kernels::matmul as km;
    let k3 = WgmmaKernel::alone;
    let kernel = match tile {
        t if t == km::WG_MID => k3(&km::GEMM_WGMMA_TF32X3_KK_128X128, km::gemm_wgmma_tf32x3_kk_128x128),
        t => wgmma_tf32(t),
    };
    kernel.require(gpu)?;
    let (m, n) = (params.m as usize, params.n as usize);
    let kp = params.x3_slices as usize * km::WG_BK_TF32;
    let ld = 2 * kp;
    let operands = [(x.a, params.a_row_stride, params.a_col_stride, m), (x.b, params.b_col_stride, params.b_row_stride, n)];
    let mut buffer = gpu.staging_buffer((m + n) * ld)?;
    let mut tma = [None, None];
    for (slot, &(ptr, os, ks, outer)) in tma.iter_mut().zip(&operands) {
        let (tile_k, threads) = (km::STAGE_TILE, km::STAGE_THREADS);
        let mut cfg = LaunchConfig::for_2d("gemm_stage_split_tf32", outer.div_ceil(tile_k), kp.div_ceil(tile_k), (1, 1))?;
        cfg.block = crate::launch::Dim3::x(threads);
        let cfg = cfg.with_shared_mem((tile_k * (tile_k + 1) * 4) as u32);
        let (dst, ld64, outer64, k64, kp64) = (buffer, ld as u64, outer as u64, k as u64, kp as u64);
        // SAFETY: (src, os, ks, outer, k, dst, ld, kp): the strides address only inside the
        // operand (checked shapes); dst has outer·ld floats left in the staging buffer.
        unsafe { km::gemm_stage_split_tf32(gpu, cfg, ptr as *const f32, os, ks, outer64, k64, dst as *mut f32, ld64, kp64)? };
        buffer += (outer * ld * 4) as u64;
        *slot = Some(TmaMatrix { ptr: dst, element: TmaElement::F32, rows: outer, cols: ld, ld });
    }
    let [Some(a), Some(b)] = tma else { unreachable!("both operands were staged") };
    let wg = WgmmaOperands { a, a_mn: false, b, b_mn: false, bk: km::WG_BK_TF32, split: false, transposes: false, swap: false, a_registers: false };
    launch_wgmma(gpu, "gemm", kernel, tile, wg, x.c, x.bias, params)
}

/// [`GemmKernel::Tf32x3Split`]: each operand read as it is stored (k-contiguous or, transposed
/// in shared memory, MN-major), or first staged k-contiguous where the copy engine cannot read
/// it (`gemm_stage_kmajor_f32`, rows padded to a multiple of 4); then the kernel of its layout.
fn launch_tf32x3_split(gpu: &Gpu, x: GemmPtrs, params: GemmParams) -> Result<()> {
    use kernels::matmul as km;
    let mn_major = |os, ks| !tf32_direct(os, ks) && tf32_transposable(os, ks);
    let mn = [mn_major(params.a_row_stride, params.a_col_stride), mn_major(params.b_col_stride, params.b_row_stride)];
    let k_ = WgmmaKernel::alone;
    let kernel = match (mn[0], mn[1]) {
        (false, false) => k_(&km::GEMM_WGMMA_TF32X3S_KK_128X128, km::gemm_wgmma_tf32x3s_kk_128x128),
        (false, true) => k_(&km::GEMM_WGMMA_TF32X3S_KN_128X128, km::gemm_wgmma_tf32x3s_kn_128x128),
        (true, false) => k_(&km::GEMM_WGMMA_TF32X3S_MK_128X128, km::gemm_wgmma_tf32x3s_mk_128x128),
        (true, true) => k_(&km::GEMM_WGMMA_TF32X3S_MN_128X128, km::gemm_wgmma_tf32x3s_mn_128x128),
    };
    // Before any staging pass.
    kernel.require(gpu)?;
    let ([a, b], mapped_mn) = map_tf32_operands(gpu, x, &params, true)?;
    debug_assert_eq!(mapped_mn, mn, "the kernel's layout is the maps'");
    let wg = WgmmaOperands { a, a_mn: mn[0], b, b_mn: mn[1], bk: km::WG_BK_TF32, split: true, transposes: true, swap: false, a_registers: false };
    launch_wgmma(gpu, "gemm", kernel, km::WG_MID_S, wg, x.c, x.bias, params)
}

/// How [`GemmKernel::Tf32x3Split`] reads `p`'s operands ([`plan::X3SplitReads`]): the MN-major
/// ones the copy engine reads it transposes as it splits; the rest, rows that break 16-byte
/// alignment, it stages k-contiguous first ([`map_tf32_operands`]).
fn x3_split_reads(p: &GemmParams) -> plan::X3SplitReads {
    let ops = [(p.a_row_stride, p.a_col_stride), (p.b_col_stride, p.b_row_stride)];
    let transposed = ops.iter().filter(|&&(os, ks)| !tf32_direct(os, ks) && tf32_transposable(os, ks)).count() as u32;
    plan::X3SplitReads { transposed, staged: tf32_staging(p).rest }
}

/// Which BF16 kernel [`gemm_bf16_with`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Bf16Kernel {
    /// The fastest kernel for the shape and device: the cost model of [`plan`] picks among
    /// [`Bf16Kernel::Wgmma`], [`Bf16Kernel::Wgmma128x208`], [`Bf16Kernel::Wgmma128x192`], [`Bf16Kernel::Wgmma64x128`] and
    /// [`Bf16Kernel::Wgmma64x64`], and for at most 32 rows or columns [`Bf16Kernel::Wgmma64x32`]
    /// and [`Bf16Kernel::Wgmma64x32Swapped`] (sm_90a only; an operand whose row
    /// stride is not a multiple of 8 elements is first copied into padded rows),
    /// [`Bf16Kernel::MmaLdmatrix`] and
    /// [`Bf16Kernel::MmaTile64`], and their split-K counts; short-k products (up to
    /// [`AUTO_SMEM_MAX_K_BF16`]) run [`Bf16Kernel::SmemTiled`].
    #[default]
    Auto,
    /// The 32×32 shared-memory tiles on CUDA cores (bf16 widened to f32 exactly), one output
    /// per thread: its launch costs least, so it serves tiny products and short k.
    SmemTiled,
    /// 32 k per stage, fragments loaded one 32-bit word at a time.
    Mma,
    /// 64 k per stage, fragments loaded with `ldmatrix`, 128×128 tiles, split-K.
    MmaLdmatrix,
    /// `MmaLdmatrix` on 64×64 tiles of 4 warps, three blocks per multiprocessor, split-K: outputs
    /// with few 128×128 tiles.
    MmaTile64,
    /// Hopper (sm_90a only): TMA copies and `wgmma.mma_async`, warp-specialized, 128×256 tiles,
    /// split-K. Needs A's and B's row strides to be multiples of 8 elements (16 bytes); any m,
    /// n, k and any transposes otherwise.
    Wgmma,
    /// `Wgmma` on 128×208 tiles: products whose n the 256-wide tile covers badly (n = 784 takes
    /// four 208-wide tiles, 832 columns, where 256-wide ones compute 1024).
    Wgmma128x208,
    /// `Wgmma` on 128×192 tiles: a third more tiles than the 128×256 one, for mid-sized
    /// products that leave multiprocessors idle on it (1536³: 96 tiles against 72).
    Wgmma128x192,
    /// `Wgmma` on 64×128 tiles of one consumer warpgroup, two blocks per multiprocessor: four
    /// times the tiles of the 128×256 kernel for mid-sized outputs.
    Wgmma64x128,
    /// `Wgmma` on 64×64 tiles of one consumer warpgroup, two blocks per multiprocessor:
    /// products with few rows or columns, split along k over more blocks.
    Wgmma64x64,
    /// `Wgmma` (128×256 tiles) on Cᵀ = op(B)ᵀ·op(A)ᵀ: tiles over n×m, each stored transposed.
    /// For products whose n the tiles cover worse than their m (split-K counted over n×m).
    WgmmaSwapped,
    /// `Wgmma` on 64×32 tiles, eight stages deep (two blocks per multiprocessor): products with
    /// few columns and long k, which stream op(A).
    Wgmma64x32,
    /// `Wgmma64x32` on Cᵀ = op(B)ᵀ·op(A)ᵀ (tiles over n×m): products with few rows.
    Wgmma64x32Swapped,
    /// A few rows of C on the CUDA cores (a batch-few layer): one warp per output column,
    /// lanes splitting k, 8-byte loads of four bf16 when both operands are k-contiguous, so
    /// the weights stream once; on Cᵀ (a warp per row of C) where C has fewer columns than
    /// rows, such as a matrix-vector product. Correct for any shape; fast for m ≤ 4 or n ≤ 4.
    WarpDot,
    /// At most 16 rows of C with an n-contiguous op(B), as [`GemmKernel::ColDot`]. Other shapes
    /// are an `InvalidArgument`. `Auto` does not choose it: at 1×4096×4096 and 4×7337×2921 it
    /// took 28 and 92 µs against the tensor-core tiles' 19 and 87 (H100, gemm_sweep).
    ColDot,
    /// k ≤ 32 on the CUDA cores, as [`GemmKernel::ShortK`].
    ShortK,
    /// Short k on the tensor cores: `mma.sync` on 64×64 tiles (32×32 where a 64×64 grid would
    /// hold fewer than one and a half blocks per multiprocessor), op(A) and op(B) loaded element
    /// by element in chunks of 32 k (k ≤ 32) or 64 (any layout and row alignment), a few hundred
    /// instructions per warp, so a block starts and finishes sooner than the pipelined tiles'.
    /// Correct for any k; no split-K.
    ShortKMma,
    /// At most 16 rows or columns of C, as [`GemmKernel::NarrowMn`] (f32 accumulation on the
    /// CUDA cores).
    NarrowMn,
    /// As [`GemmKernel::NarrowK`].
    NarrowK,
    /// n ≤ 16 on the CUDA cores (a narrow output layer's x·Wᵀ): one warp per row of C, lanes
    /// splitting k, split-K. Other shapes are an `InvalidArgument`. `Auto` does not choose it:
    /// widening bf16 costs an ALU instruction per element beside each FMA, and the tensor-core
    /// tiles beat it at every n ≤ 16 shape of the sweep but one (m×10×1024: 10.5-35 µs against
    /// 7.8-9.7 from m = 32 to 2048; H100).
    RowDot,
}

impl Bf16Kernel {
    /// Every concrete kernel (`Auto` excluded).
    pub const ALL: [Bf16Kernel; 19] = [
        Bf16Kernel::SmemTiled,
        Bf16Kernel::Mma,
        Bf16Kernel::MmaLdmatrix,
        Bf16Kernel::MmaTile64,
        Bf16Kernel::Wgmma,
        Bf16Kernel::Wgmma128x208,
        Bf16Kernel::Wgmma128x192,
        Bf16Kernel::Wgmma64x128,
        Bf16Kernel::Wgmma64x64,
        Bf16Kernel::WgmmaSwapped,
        Bf16Kernel::Wgmma64x32,
        Bf16Kernel::Wgmma64x32Swapped,
        Bf16Kernel::WarpDot,
        Bf16Kernel::RowDot,
        Bf16Kernel::ColDot,
        Bf16Kernel::NarrowMn,
        Bf16Kernel::NarrowK,
        Bf16Kernel::ShortK,
        Bf16Kernel::ShortKMma,
    ];

    /// Whether the kernel writes an [`Epilogue::bf16_copy`] (as [`GemmKernel::writes_bf16_copy`]):
    /// the tensor-core tiles and `RowDot`. [`gemm_bf16`] runs `Auto` with a copy on one of them.
    pub fn writes_bf16_copy(self) -> bool {
        matches!(
            self,
            Bf16Kernel::Mma
                | Bf16Kernel::MmaLdmatrix
                | Bf16Kernel::MmaTile64
                | Bf16Kernel::ShortKMma
                | Bf16Kernel::RowDot
                | Bf16Kernel::NarrowMn
                | Bf16Kernel::NarrowK
        ) || self.is_wgmma()
    }

    /// Whether the kernel is one of the Hopper `wgmma` tiles (sm_90a only; the copy engine
    /// needs 16-byte row strides).
    pub fn is_wgmma(self) -> bool {
        self.wgmma_tile().is_some()
    }

    /// Whether the kernel computes Cᵀ = op(B)ᵀ·op(A)ᵀ: [`Bf16Kernel::WgmmaSwapped`] and
    /// [`Bf16Kernel::Wgmma64x32Swapped`].
    pub fn swaps(self) -> bool {
        matches!(self, Bf16Kernel::WgmmaSwapped | Bf16Kernel::Wgmma64x32Swapped)
    }

    /// The (rows, columns) its tiles and split-K plans cover for an m×n product: n×m for the
    /// kernels that compute Cᵀ ([`Bf16Kernel::swaps`]).
    pub fn tile_space(self, m: usize, n: usize) -> (usize, usize) {
        if self.swaps() { (n, m) } else { (m, n) }
    }

    /// The `wgmma` tile of a Hopper kernel.
    fn wgmma_tile(self) -> Option<kernels::matmul::WgTile> {
        match self {
            Bf16Kernel::Wgmma => Some(kernels::matmul::WG_WIDE),
            Bf16Kernel::Wgmma128x208 => Some(kernels::matmul::WG_WIDE_208),
            Bf16Kernel::Wgmma128x192 => Some(kernels::matmul::WG_WIDE_192),
            Bf16Kernel::Wgmma64x128 => Some(kernels::matmul::WG_NARROW),
            Bf16Kernel::Wgmma64x64 => Some(kernels::matmul::WG_SMALL),
            Bf16Kernel::WgmmaSwapped => Some(kernels::matmul::WG_WIDE),
            Bf16Kernel::Wgmma64x32 | Bf16Kernel::Wgmma64x32Swapped => Some(kernels::matmul::WG_SLIM),
            _ => None,
        }
    }
}

/// How [`gemm_bf16_with_plan`] runs one product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bf16Plan {
    /// A concrete kernel (not `Auto`).
    pub kernel: Bf16Kernel,
    /// Blocks along k per output tile (1: no split-K; more only for the kernels of
    /// [`plan::TileModel::of_bf16`]).
    pub splits: u32,
    /// The `wgmma` tiles only: operands whose rows are off the 32-byte sectors
    /// ([`plan::rows_off_sectors`]) are first copied into rows of a multiple of 256 bytes in this
    /// stream's staging buffer (`Auto`: where [`plan::align_rows_pays`]).
    pub align_rows: bool,
    /// The 64×128 and 128×192 `wgmma` tiles only: blocks run in clusters of tiles that share
    /// their operand tiles through TMA multicast ([`Multicast`]: kernels compiled for the cluster;
    /// `Auto`: where [`plan::choose_bf16_multicast`] prices them cheaper).
    pub multicast: Multicast,
}

/// Clusters of `along_m` × `along_n` output tiles whose blocks share their operand tiles: the
/// tiles of one column share op(B), those of one row op(A), and each block copies its share of
/// the pieces of both into all the blocks that read them (TMA multicast), so L2 serves op(B)
/// once per `along_m` tiles and op(A) once per `along_n`. The kernels exist for pairs along m
/// and 2 × 2 ([`Bf16Plan::multicast_fits`]); the cluster, times the plan's splits, holds at
/// most 8 blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Multicast {
    pub along_m: u8,
    pub along_n: u8,
}

impl Multicast {
    /// Every block alone.
    pub const OFF: Multicast = Multicast { along_m: 1, along_n: 1 };
    /// Pairs of tiles along m sharing op(B).
    pub const PAIRS: Multicast = Multicast { along_m: 2, along_n: 1 };
    /// 2 × 2 tiles, sharing both operands.
    pub const QUADS: Multicast = Multicast { along_m: 2, along_n: 2 };

    /// Whether blocks run in clusters at all.
    pub fn is_on(self) -> bool {
        self.blocks() > 1
    }

    /// Blocks per cluster.
    pub fn blocks(self) -> u32 {
        u32::from(self.along_m) * u32::from(self.along_n)
    }

    /// The plan-label suffix: `+mc` for pairs, `+mc2x2` and the like for the others.
    fn suffix(self) -> String {
        match self {
            _ if !self.is_on() => String::new(),
            Multicast::PAIRS => "+mc".into(),
            Multicast { along_m, along_n } => format!("+mc{along_m}x{along_n}"),
        }
    }
}

impl Bf16Plan {
    /// `kernel` in `splits` splits, its operands read as they are stored, one block per tile.
    pub fn new(kernel: Bf16Kernel, splits: u32) -> Bf16Plan {
        Bf16Plan { kernel, splits, align_rows: false, multicast: Multicast::OFF }
    }

    /// The kernel's name, with `+aligned` where the operands are copied first and `+mc` where
    /// blocks share operand tiles (`+mc`: pairs along m, `+mc2x2`: clusters of 2 × 2 tiles; the
    /// plan column of `gemm_plans` and `auto_plan`).
    pub fn label(&self) -> String {
        format!("{:?}{}{}", self.kernel, if self.align_rows { "+aligned" } else { "" }, self.multicast.suffix())
    }

    /// Whether [`Bf16Plan::multicast`] can run this plan: a tile and cluster with a cluster
    /// kernel (pairs and 2 × 2 on the 64×128 and 128×192 tiles), at most
    /// [`plan::MAX_MULTICAST_SPLITS`] splits, and the splits of a tile in one cluster with its
    /// multicast blocks (at most 8 blocks in all). The tile grid is padded to whole clusters,
    /// so the product's shape does not matter.
    pub fn multicast_fits(&self) -> bool {
        // The layout does not decide which tiles have cluster kernels.
        let clustered =
            |&tile: &kernels::matmul::WgTile| !self.kernel.swaps() && wgmma_bf16_clustered(Transpose::No, Transpose::No, tile, self.multicast).is_some();
        if self.kernel.wgmma_tile().filter(clustered).is_none() {
            return false;
        }
        let clustered = self.splits == 1 || plan::TileModel::of_bf16(self.kernel).is_some_and(|md| md.clusters(self.splits));
        self.splits <= plan::MAX_MULTICAST_SPLITS && clustered && self.multicast.blocks() * self.splits <= kernels::matmul::MAX_CLUSTER_SPLITS as u32
    }
}

/// [`gemm`] with bf16 A and B on the BF16 tensor cores, f32 accumulation, f32 C and bias. Any
/// shape and layout; the fastest kernel the device and layout allow ([`Bf16Kernel::Auto`]).
#[allow(clippy::too_many_arguments)]
pub fn gemm_bf16(
    gpu: &Gpu,
    a: &DeviceMatrixBf16,
    ta: Transpose,
    b: &DeviceMatrixBf16,
    tb: Transpose,
    epilogue: Epilogue<'_>,
    c: &mut DeviceMatrix,
) -> Result<()> {
    gemm_bf16_with(gpu, a, ta, b, tb, epilogue, c, Bf16Kernel::default())
}

/// [`gemm_bf16`] with a chosen kernel (split-K by the cost model). A forced
/// [`Bf16Kernel::Wgmma`] fails with `MissingKernel` on a GPU without sm_90a PTX and
/// `InvalidArgument` for row strides the copy engine cannot read.
#[allow(clippy::too_many_arguments)]
pub fn gemm_bf16_with(
    gpu: &Gpu,
    a: &DeviceMatrixBf16,
    ta: Transpose,
    b: &DeviceMatrixBf16,
    tb: Transpose,
    epilogue: Epilogue<'_>,
    c: &mut DeviceMatrix,
    kernel: Bf16Kernel,
) -> Result<()> {
    let Some(params) = gemm_params("gemm_bf16", a.shape(), ta, b.shape(), tb, &epilogue, c.shape())? else {
        return Ok(());
    };
    let sms = gpu.info().multiprocessor_layout();
    // Elements `Auto`'s `wgmma` path would pad first (only `Auto` asks).
    let pad = if kernel == Bf16Kernel::Auto { bf16_pad(a, b) } else { 0 };
    let wgmma = gpu.supports(wgmma_bf16(ta, tb, kernels::matmul::WG_WIDE).info);
    let plan = bf16_plan(&params, (ta, tb), kernel, pad, wgmma, sms, epilogue.bf16_copy.is_some());
    run_bf16_plan(gpu, (a, ta), (b, tb), epilogue, c, params, plan, kernel == Bf16Kernel::Auto)
}

/// The plan [`gemm_bf16_with`] runs: `Auto`'s rules, or a fixed kernel's split count. `pad`:
/// elements `Auto`'s `wgmma` path would copy into padded rows first; `wgmma`: the device runs
/// the `wgmma` kernels; `copy`: the epilogue writes a bf16 copy of C.
pub(crate) fn bf16_plan(
    params: &GemmParams,
    (ta, tb): (Transpose, Transpose),
    kernel: Bf16Kernel,
    pad: usize,
    wgmma: bool,
    sms: plan::Multiprocessors,
    copy: bool,
) -> Bf16Plan {
    let (m, n, k) = (params.m as usize, params.n as usize, params.k as usize);
    let direct = params.a_col_stride == 1 && params.b_row_stride == 1 && pad == 0;
    let tiles_first = direct && wgmma_takes_narrow(m, n) && wgmma;
    let narrow = if kernel == Bf16Kernel::Auto && !tiles_first { narrow_auto(params, Precision::Bf16, pad > 0) } else { None };
    let plan = match kernel {
        Bf16Kernel::Auto if shortk_mma_few_rows(m, n, k) => Bf16Plan::new(Bf16Kernel::ShortKMma, 1),
        // As f32 `Auto` (`GemmKernel::plan_for`): a few rows with a k-contiguous op(B) read it
        // once (1×5099×6665: 123 µs on the `wgmma` tiles against cuBLAS's 36; H100).
        Bf16Kernel::Auto if warpdot_picked(params, narrow, Precision::Bf16, sms.count) => Bf16Plan::new(Bf16Kernel::WarpDot, 1),
        Bf16Kernel::Auto if let Some(mn) = narrow => {
            let (kernel, gk) = if mn { (Bf16Kernel::NarrowMn, GemmKernel::NarrowMn) } else { (Bf16Kernel::NarrowK, GemmKernel::NarrowK) };
            Bf16Plan::new(kernel, narrow_plan(gk, narrow_bf16(mn, m, n).0, m, n, k, sms).splits)
        }
        Bf16Kernel::Auto if shortk_mma_auto(m, n, k, pad) => Bf16Plan::new(Bf16Kernel::ShortKMma, 1),
        Bf16Kernel::Auto if shortk_auto(params, Precision::Bf16, sms.count) => Bf16Plan::new(Bf16Kernel::ShortK, 1),
        Bf16Kernel::Auto if smem_tiles_fit_below(AUTO_SMEM_MAX_K_BF16, AUTO_SMEM_MAX_BLOCKS_PER_SM_BF16, m, n, k, sms.count) => {
            Bf16Plan::new(Bf16Kernel::SmemTiled, 1)
        }
        Bf16Kernel::Auto => {
            let wgmma = wgmma && k > 0 && !mma_instead_of_padding(m, n, k, pad);
            // An operand row stride off 8-byte alignment: the `mma.sync` tiles would load it an
            // element at a time (their 8-byte copies need rows of a multiple of 4 elements).
            let strides = [(params.a_row_stride, params.a_col_stride), (params.b_row_stride, params.b_col_stride)];
            let element_loads = strides.iter().any(|&(r, c)| r.max(c) % 4 != 0);
            // The stored row strides in bytes, and whether the copy engine reads them.
            let operands = strides.map(|(r, c)| 2 * r.max(c) as usize).map(|bytes| (bytes, bytes.is_multiple_of(16)));
            let aligned = plan::align_rows_pays(m, n, k, operands);
            // op(B)'s rows as the copy engine reads them (copies get 256-byte rows).
            let (b_bytes, b_read) = operands[1];
            let b_copied = !b_read || (aligned && plan::rows_off_sectors(b_bytes));
            let b_off_lines = !b_copied && !b_bytes.is_multiple_of(128);
            let (ta_mn, tb_mn) = (ta == Transpose::Yes, tb == Transpose::No);
            let (kernel, splits, multicast) = plan::choose_bf16_multicast(wgmma, (ta_mn, tb_mn), b_off_lines, (pad, element_loads), m, n, k, sms);
            Bf16Plan { align_rows: kernel.is_wgmma() && aligned, multicast, ..Bf16Plan::new(kernel, splits) }
        }
        Bf16Kernel::RowDot => Bf16Plan::new(kernel, plan::rowdot(m, k, sms).splits),
        Bf16Kernel::ColDot => Bf16Plan::new(kernel, plan::coldot(m, n, k, sms).splits),
        Bf16Kernel::NarrowMn => Bf16Plan::new(kernel, narrow_plan(GemmKernel::NarrowMn, narrow_bf16(true, m, n).0, m, n, k, sms).splits),
        Bf16Kernel::NarrowK => Bf16Plan::new(kernel, narrow_plan(GemmKernel::NarrowK, narrow_bf16(false, m, n).0, m, n, k, sms).splits),
        kernel => Bf16Plan::new(kernel, bf16_splits(kernel, m, n, k, sms)),
    };
    match plan.kernel {
        // `Auto` picked a kernel that writes no bf16 copy of C: the 64×64 `mma.sync` tiles do.
        picked if kernel == Bf16Kernel::Auto && copy && !picked.writes_bf16_copy() => {
            Bf16Plan::new(Bf16Kernel::MmaTile64, bf16_splits(Bf16Kernel::MmaTile64, m, n, k, sms))
        }
        _ => plan,
    }
}

/// [`gemm_bf16`] with the kernel and split-K count given (for tests and measurements). The
/// plan must name a concrete kernel, and `splits` > 1 a kernel of [`plan::TileModel::of_bf16`]
/// with every split at least 4 slices long (`NarrowMn` 2) and partial tiles that fit the
/// workspace; otherwise `InvalidArgument`.
#[allow(clippy::too_many_arguments)]
pub fn gemm_bf16_with_plan(
    gpu: &Gpu,
    a: &DeviceMatrixBf16,
    ta: Transpose,
    b: &DeviceMatrixBf16,
    tb: Transpose,
    epilogue: Epilogue<'_>,
    c: &mut DeviceMatrix,
    plan: Bf16Plan,
) -> Result<()> {
    let Some(params) = gemm_params("gemm_bf16", a.shape(), ta, b.shape(), tb, &epilogue, c.shape())? else {
        return Ok(());
    };
    run_bf16_plan(gpu, (a, ta), (b, tb), epilogue, c, params, plan, false)
}

/// Elements BF16 `Auto`'s `wgmma` path copies into padded rows first (operands whose row
/// stride the copy engine cannot read).
fn bf16_pad(a: &DeviceMatrixBf16, b: &DeviceMatrixBf16) -> usize {
    bf16_padded(bf16_tma(a)) + bf16_padded(bf16_tma(b))
}

/// Elements `Auto`'s `wgmma` path copies a bf16 operand into (rows of a multiple of 8): none if
/// the copy engine reads it as it is.
fn bf16_padded(x: TmaMatrix) -> usize {
    if x.is_supported() { 0 } else { x.rows * x.cols.next_multiple_of(8) }
}

/// The plan `Auto` of `precision` picks for an m×n×k product of packed matrices (device buffers,
/// 16-byte aligned) with op(A) = Aᵀ if `ta`, op(B) = Bᵀ if `tb`, on `sms` multiprocessors
/// (`wgmma`: the device runs the sm_90a kernels): the kernel's name and split count, `None` for an
/// empty C. What [`gemm`] and [`gemm_bf16`] would run, worked out without a device, so that the
/// rules can be scored offline against timed plans (`cargo bench -p benches --bench
/// plan_replay`).
pub fn auto_plan(
    precision: Precision,
    (m, n, k): (usize, usize, usize),
    (ta, tb): (Transpose, Transpose),
    sms: plan::Multiprocessors,
    wgmma: bool,
) -> Result<Option<(String, u32)>> {
    let a = if ta == Transpose::Yes { (k, m) } else { (m, k) };
    let b = if tb == Transpose::Yes { (n, k) } else { (k, n) };
    let Some(p) = gemm_params("auto_plan", a, ta, b, tb, &Epilogue::default(), (m, n))? else {
        return Ok(None);
    };
    Ok(Some(match precision {
        Precision::F32 | Precision::Tf32 => {
            let auto = if precision == Precision::F32 { GemmKernel::Auto } else { GemmKernel::Tf32Auto };
            let plan = auto.plan_for(&p, sms, wgmma);
            (format!("{:?}", plan.kernel), plan.splits)
        }
        Precision::Bf16 => {
            // What `bf16_pad` finds on packed, aligned device matrices of these shapes.
            let packed = |(rows, cols): (usize, usize)| TmaMatrix { ptr: 0, element: TmaElement::Bf16, rows, cols, ld: cols };
            let pad = bf16_padded(packed(a)) + bf16_padded(packed(b));
            let plan = bf16_plan(&p, (ta, tb), Bf16Kernel::Auto, pad, wgmma, sms, false);
            (plan.label(), plan.splits)
        }
    }))
}

/// The split-K count of the cost model for a BF16 tile kernel (1 for the others).
fn bf16_splits(kernel: Bf16Kernel, m: usize, n: usize, k: usize, sms: plan::Multiprocessors) -> u32 {
    let (m, n) = kernel.tile_space(m, n);
    plan::TileModel::of_bf16(kernel).map_or(1, |model| model.best_splits(m, n, k, sms).0)
}

/// The `wgmma` kernel of a BF16 layout and tile.
fn wgmma_bf16(ta: Transpose, tb: Transpose, tile: kernels::matmul::WgTile) -> WgmmaKernel {
    use kernels::matmul as km;
    let k = WgmmaKernel::alone;
    let wide = tile == km::WG_WIDE;
    let small = tile == km::WG_SMALL;
    let w208 = tile == km::WG_WIDE_208;
    let w192 = tile == km::WG_WIDE_192;
    let slim = tile == km::WG_SLIM;
    let deep = tile == km::WG_NARROW_DEEP;
    match (ta, tb) {
        (Transpose::No, Transpose::Yes) if deep => k(&km::GEMM_WGMMA_BF16_KK_64X128_DEEP, km::gemm_wgmma_bf16_kk_64x128_deep),
        (Transpose::No, Transpose::No) if deep => k(&km::GEMM_WGMMA_BF16_KN_64X128_DEEP, km::gemm_wgmma_bf16_kn_64x128_deep),
        (Transpose::Yes, Transpose::Yes) if deep => k(&km::GEMM_WGMMA_BF16_MK_64X128_DEEP, km::gemm_wgmma_bf16_mk_64x128_deep),
        (Transpose::Yes, Transpose::No) if deep => k(&km::GEMM_WGMMA_BF16_MN_64X128_DEEP, km::gemm_wgmma_bf16_mn_64x128_deep),
        (Transpose::No, Transpose::Yes) if slim => k(&km::GEMM_WGMMA_BF16_KK_64X32, km::gemm_wgmma_bf16_kk_64x32),
        (Transpose::No, Transpose::No) if slim => k(&km::GEMM_WGMMA_BF16_KN_64X32, km::gemm_wgmma_bf16_kn_64x32),
        (Transpose::Yes, Transpose::Yes) if slim => k(&km::GEMM_WGMMA_BF16_MK_64X32, km::gemm_wgmma_bf16_mk_64x32),
        (Transpose::Yes, Transpose::No) if slim => k(&km::GEMM_WGMMA_BF16_MN_64X32, km::gemm_wgmma_bf16_mn_64x32),
        (Transpose::No, Transpose::Yes) if w208 => k(&km::GEMM_WGMMA_BF16_KK_128X208, km::gemm_wgmma_bf16_kk_128x208),
        (Transpose::No, Transpose::No) if w208 => k(&km::GEMM_WGMMA_BF16_KN_128X208, km::gemm_wgmma_bf16_kn_128x208),
        (Transpose::Yes, Transpose::Yes) if w208 => k(&km::GEMM_WGMMA_BF16_MK_128X208, km::gemm_wgmma_bf16_mk_128x208),
        (Transpose::Yes, Transpose::No) if w208 => k(&km::GEMM_WGMMA_BF16_MN_128X208, km::gemm_wgmma_bf16_mn_128x208),
        (Transpose::No, Transpose::Yes) if w192 => k(&km::GEMM_WGMMA_BF16_KK_128X192, km::gemm_wgmma_bf16_kk_128x192),
        (Transpose::No, Transpose::No) if w192 => k(&km::GEMM_WGMMA_BF16_KN_128X192, km::gemm_wgmma_bf16_kn_128x192),
        (Transpose::Yes, Transpose::Yes) if w192 => k(&km::GEMM_WGMMA_BF16_MK_128X192, km::gemm_wgmma_bf16_mk_128x192),
        (Transpose::Yes, Transpose::No) if w192 => k(&km::GEMM_WGMMA_BF16_MN_128X192, km::gemm_wgmma_bf16_mn_128x192),
        (Transpose::No, Transpose::Yes) if wide => k(&km::GEMM_WGMMA_BF16_KK, km::gemm_wgmma_bf16_kk),
        (Transpose::No, Transpose::Yes) if small => k(&km::GEMM_WGMMA_BF16_KK_64X64, km::gemm_wgmma_bf16_kk_64x64),
        (Transpose::No, Transpose::No) if small => k(&km::GEMM_WGMMA_BF16_KN_64X64, km::gemm_wgmma_bf16_kn_64x64),
        (Transpose::Yes, Transpose::Yes) if small => k(&km::GEMM_WGMMA_BF16_MK_64X64, km::gemm_wgmma_bf16_mk_64x64),
        (Transpose::Yes, Transpose::No) if small => k(&km::GEMM_WGMMA_BF16_MN_64X64, km::gemm_wgmma_bf16_mn_64x64),
        (Transpose::No, Transpose::Yes) => k(&km::GEMM_WGMMA_BF16_KK_64X128, km::gemm_wgmma_bf16_kk_64x128),
        (Transpose::No, Transpose::No) if wide => k(&km::GEMM_WGMMA_BF16_KN, km::gemm_wgmma_bf16_kn),
        (Transpose::No, Transpose::No) => k(&km::GEMM_WGMMA_BF16_KN_64X128, km::gemm_wgmma_bf16_kn_64x128),
        (Transpose::Yes, Transpose::Yes) if wide => k(&km::GEMM_WGMMA_BF16_MK, km::gemm_wgmma_bf16_mk),
        (Transpose::Yes, Transpose::Yes) => k(&km::GEMM_WGMMA_BF16_MK_64X128, km::gemm_wgmma_bf16_mk_64x128),
        (Transpose::Yes, Transpose::No) if wide => k(&km::GEMM_WGMMA_BF16_MN, km::gemm_wgmma_bf16_mn),
        (Transpose::Yes, Transpose::No) => k(&km::GEMM_WGMMA_BF16_MN_64X128, km::gemm_wgmma_bf16_mn_64x128),
    }
}

/// Least k per split for [`deepen_lone_tile`]: eight stages against four, one block per
/// multiprocessor, ran nn 256×4096×4096 in 20.2 µs (21.8; in pairs 19.4 against 23.6), nt
/// 4096×64×4096 in 2 splits 19.3 (22.6), tn 1024×1024×2048 11.4 (11.7), and the other long-k
/// products within 2 % (1024×784×4096 in every layout); at k ≤ 1024 they ran 0.97–1.07 of the
/// old time (pairs at 1000³ 9.8 against 9.2 µs; H200, docs/runs/2026-11-28-s32/n5).
pub const DEEP_MIN_K: usize = 2048;

/// The 64×128 tile with eight stages ([`kernels::matmul::WG_NARROW_DEEP`]) where a plan on
/// `tile` runs at most one block per multiprocessor (its tiles, padded to whole multicast
/// clusters, times its splits) and each split is at least [`DEEP_MIN_K`] long: there a block
/// has only its own stages in flight, where the tile was sized for two per multiprocessor. The
/// swapped and 2 × 2 plans keep `tile`. The 64×64 tile with twelve stages instead of six gained
/// nothing (nt 4096×64×4096 in 2 splits 12.75 against 12.62 µs, unsplit 19.9 against 20.1;
/// H200, docs/runs/2026-11-28-s32/n7), so it keeps its six.
fn deepen_lone_tile(tile: kernels::matmul::WgTile, plan: Bf16Plan, (m, n, k): (usize, usize, usize), sms: usize) -> kernels::matmul::WgTile {
    use kernels::matmul as km;
    let multicast = matches!(plan.multicast, Multicast::OFF | Multicast::PAIRS);
    if tile != km::WG_NARROW || plan.kernel.swaps() || !multicast || k / (plan.splits as usize) < DEEP_MIN_K {
        return tile;
    }
    let (along_m, along_n) = (usize::from(plan.multicast.along_m), usize::from(plan.multicast.along_n));
    let rows = m.div_ceil(tile.bm()).next_multiple_of(along_m);
    let cols = n.div_ceil(tile.bn).next_multiple_of(along_n);
    if rows * cols * plan.splits as usize <= sms { km::WG_NARROW_DEEP } else { tile }
}

/// The BF16 `wgmma` kernel of a layout and tile in multicast clusters ([`Bf16Plan::multicast`]):
/// the 64×128 and 128×192 tiles have one for pairs and one for 2 × 2 clusters (the cluster is
/// a constant of the kernel).
fn wgmma_bf16_clustered(ta: Transpose, tb: Transpose, tile: kernels::matmul::WgTile, multicast: Multicast) -> Option<WgmmaKernel> {
    use kernels::matmul as km;
    let k = |info, launch: WgmmaGemm| Some(WgmmaKernel { info, launch, cluster: multicast });
    let narrow = tile == km::WG_NARROW;
    let deep = tile == km::WG_NARROW_DEEP;
    if !narrow && !deep && tile != km::WG_WIDE_192 {
        return None;
    }
    match (multicast, ta, tb) {
        (Multicast::PAIRS, Transpose::No, Transpose::Yes) if deep => k(&km::GEMM_WGMMA_BF16_KK_64X128_DEEP_PAIRS, km::gemm_wgmma_bf16_kk_64x128_deep_pairs),
        (Multicast::PAIRS, Transpose::No, Transpose::No) if deep => k(&km::GEMM_WGMMA_BF16_KN_64X128_DEEP_PAIRS, km::gemm_wgmma_bf16_kn_64x128_deep_pairs),
        (Multicast::PAIRS, Transpose::Yes, Transpose::Yes) if deep => k(&km::GEMM_WGMMA_BF16_MK_64X128_DEEP_PAIRS, km::gemm_wgmma_bf16_mk_64x128_deep_pairs),
        (Multicast::PAIRS, Transpose::Yes, Transpose::No) if deep => k(&km::GEMM_WGMMA_BF16_MN_64X128_DEEP_PAIRS, km::gemm_wgmma_bf16_mn_64x128_deep_pairs),
        (_, _, _) if deep => None,
        (Multicast::PAIRS, Transpose::No, Transpose::Yes) if narrow => k(&km::GEMM_WGMMA_BF16_KK_64X128_PAIRS, km::gemm_wgmma_bf16_kk_64x128_pairs),
        (Multicast::PAIRS, Transpose::No, Transpose::No) if narrow => k(&km::GEMM_WGMMA_BF16_KN_64X128_PAIRS, km::gemm_wgmma_bf16_kn_64x128_pairs),
        (Multicast::PAIRS, Transpose::Yes, Transpose::Yes) if narrow => k(&km::GEMM_WGMMA_BF16_MK_64X128_PAIRS, km::gemm_wgmma_bf16_mk_64x128_pairs),
        (Multicast::PAIRS, Transpose::Yes, Transpose::No) if narrow => k(&km::GEMM_WGMMA_BF16_MN_64X128_PAIRS, km::gemm_wgmma_bf16_mn_64x128_pairs),
        (Multicast::PAIRS, Transpose::No, Transpose::Yes) => k(&km::GEMM_WGMMA_BF16_KK_128X192_PAIRS, km::gemm_wgmma_bf16_kk_128x192_pairs),
        (Multicast::PAIRS, Transpose::No, Transpose::No) => k(&km::GEMM_WGMMA_BF16_KN_128X192_PAIRS, km::gemm_wgmma_bf16_kn_128x192_pairs),
        (Multicast::PAIRS, Transpose::Yes, Transpose::Yes) => k(&km::GEMM_WGMMA_BF16_MK_128X192_PAIRS, km::gemm_wgmma_bf16_mk_128x192_pairs),
        (Multicast::PAIRS, Transpose::Yes, Transpose::No) => k(&km::GEMM_WGMMA_BF16_MN_128X192_PAIRS, km::gemm_wgmma_bf16_mn_128x192_pairs),
        (Multicast::QUADS, Transpose::No, Transpose::Yes) if narrow => k(&km::GEMM_WGMMA_BF16_KK_64X128_QUADS, km::gemm_wgmma_bf16_kk_64x128_quads),
        (Multicast::QUADS, Transpose::No, Transpose::No) if narrow => k(&km::GEMM_WGMMA_BF16_KN_64X128_QUADS, km::gemm_wgmma_bf16_kn_64x128_quads),
        (Multicast::QUADS, Transpose::Yes, Transpose::Yes) if narrow => k(&km::GEMM_WGMMA_BF16_MK_64X128_QUADS, km::gemm_wgmma_bf16_mk_64x128_quads),
        (Multicast::QUADS, Transpose::Yes, Transpose::No) if narrow => k(&km::GEMM_WGMMA_BF16_MN_64X128_QUADS, km::gemm_wgmma_bf16_mn_64x128_quads),
        (Multicast::QUADS, Transpose::No, Transpose::Yes) => k(&km::GEMM_WGMMA_BF16_KK_128X192_QUADS, km::gemm_wgmma_bf16_kk_128x192_quads),
        (Multicast::QUADS, Transpose::No, Transpose::No) => k(&km::GEMM_WGMMA_BF16_KN_128X192_QUADS, km::gemm_wgmma_bf16_kn_128x192_quads),
        (Multicast::QUADS, Transpose::Yes, Transpose::Yes) => k(&km::GEMM_WGMMA_BF16_MK_128X192_QUADS, km::gemm_wgmma_bf16_mk_128x192_quads),
        (Multicast::QUADS, Transpose::Yes, Transpose::No) => k(&km::GEMM_WGMMA_BF16_MN_128X192_QUADS, km::gemm_wgmma_bf16_mn_128x192_quads),
        _ => None,
    }
}

/// The swapped BF16 `wgmma` kernel of a layout and tile ([`Bf16Kernel::WgmmaSwapped`],
/// [`Bf16Kernel::Wgmma64x32Swapped`]).
fn wgmma_bf16_swapped(ta: Transpose, tb: Transpose, tile: kernels::matmul::WgTile) -> WgmmaKernel {
    use kernels::matmul as km;
    let k = WgmmaKernel::alone;
    let slim = tile == km::WG_SLIM;
    match (ta, tb) {
        (Transpose::No, Transpose::Yes) if slim => k(&km::GEMM_WGMMA_BF16_KK_64X32_SWAPPED, km::gemm_wgmma_bf16_kk_64x32_swapped),
        (Transpose::No, Transpose::No) if slim => k(&km::GEMM_WGMMA_BF16_KN_64X32_SWAPPED, km::gemm_wgmma_bf16_kn_64x32_swapped),
        (Transpose::Yes, Transpose::Yes) if slim => k(&km::GEMM_WGMMA_BF16_MK_64X32_SWAPPED, km::gemm_wgmma_bf16_mk_64x32_swapped),
        (Transpose::Yes, Transpose::No) if slim => k(&km::GEMM_WGMMA_BF16_MN_64X32_SWAPPED, km::gemm_wgmma_bf16_mn_64x32_swapped),
        (Transpose::No, Transpose::Yes) => k(&km::GEMM_WGMMA_BF16_KK_SWAPPED, km::gemm_wgmma_bf16_kk_swapped),
        (Transpose::No, Transpose::No) => k(&km::GEMM_WGMMA_BF16_KN_SWAPPED, km::gemm_wgmma_bf16_kn_swapped),
        (Transpose::Yes, Transpose::Yes) => k(&km::GEMM_WGMMA_BF16_MK_SWAPPED, km::gemm_wgmma_bf16_mk_swapped),
        (Transpose::Yes, Transpose::No) => k(&km::GEMM_WGMMA_BF16_MN_SWAPPED, km::gemm_wgmma_bf16_mn_swapped),
    }
}

/// A bf16 matrix as the copy engine sees it.
fn bf16_tma(x: &DeviceMatrixBf16) -> TmaMatrix {
    TmaMatrix { ptr: x.device_ptr(), element: TmaElement::Bf16, rows: x.rows(), cols: x.cols(), ld: x.cols() }
}

/// Checks a BF16 plan and launches it; `pad`: copy operands the copy engine cannot read into
/// padded rows first (`Auto`'s path to `wgmma`).
#[allow(clippy::too_many_arguments)]
fn run_bf16_plan(
    gpu: &Gpu,
    (a, ta): (&DeviceMatrixBf16, Transpose),
    (b, tb): (&DeviceMatrixBf16, Transpose),
    epilogue: Epilogue<'_>,
    c: &mut DeviceMatrix,
    params: GemmParams,
    plan: Bf16Plan,
    pad: bool,
) -> Result<()> {
    use kernels::matmul as km;
    let invalid = |reason: String| Err(crate::Error::InvalidArgument { op: "gemm_bf16", reason });
    let (m, n) = (params.m as usize, params.n as usize);
    if plan.kernel == Bf16Kernel::Auto {
        return invalid("Auto is not a concrete kernel".into());
    }
    if plan.align_rows && !plan.kernel.is_wgmma() {
        return invalid(format!("aligned rows are for the wgmma tiles, not {:?}", plan.kernel));
    }
    if plan.multicast.is_on() && !plan.multicast_fits() {
        return invalid(format!(
            "multicast clusters need the 64×128 or 128×192 tile, pairs or 2×2 clusters, and at most {} splits, all in one cluster of at most 8 blocks: {:?} in {} splits in clusters of {}×{}",
            plan::MAX_MULTICAST_SPLITS,
            plan.kernel,
            plan.splits,
            plan.multicast.along_m,
            plan.multicast.along_n
        ));
    }
    let model = plan::TileModel::of_bf16(plan.kernel);
    let swapped = plan.kernel.swaps();
    let (tm, tn) = plan.kernel.tile_space(m, n);
    let checked = GemmParams { m: tm as u64, n: tn as u64, ..params };
    check_splits("gemm_bf16", plan.kernel, model, plan.splits, &checked)?;
    check_bf16_copy("gemm_bf16", &epilogue, plan.kernel, plan.kernel.writes_bf16_copy())?;
    let params = match model {
        Some(model) if plan.splits > 1 => split_params(gpu, params, &model, plan.splits),
        _ => params,
    };
    let bias_ptr = epilogue.bias.map_or(0u64, |b| b.device_ptr());
    // A tile kernel's grid: a block per tile, a split per z.
    let tiles = |info: &'static kernels::KernelInfo, tile, threads, shared| -> Result<LaunchConfig> {
        let mut cfg = tile_grid(info.name, m, n, (tile, tile), threads, shared)?;
        cfg.grid.z = params.splits;
        Ok(cfg)
    };
    if plan.kernel == Bf16Kernel::WarpDot
        && let Some(t) = warpdot_transposed(&params)
    {
        let cfg = warpdot_config("gemm_warpdot_t_bf16", t.m as usize, t.n as usize)?;
        let (b, a, c): (*const u16, *const u16, *mut f32) = (KernelArg::into_kernel_arg(b), KernelArg::into_kernel_arg(a), KernelArg::into_kernel_arg(c));
        // SAFETY: as below, for the transposed product: B is its first operand and A its second,
        // their strides swapped with them; the kernel stores every sum at C's own (row, column).
        return unsafe { km::gemm_warpdot_t_bf16(gpu, cfg, b, a, c, bias_ptr as *const f32, t) };
    }
    let (launch, cfg): (Bf16Gemm, LaunchConfig) = match plan.kernel {
        Bf16Kernel::SmemTiled => {
            let t = km::SMEM_TILE as u32;
            (km::gemm_smem_bf16, LaunchConfig::for_2d("gemm_smem_bf16", m, n, (t, t))?.with_shared_mem(km::SMEM_TILED_SHARED))
        }
        Bf16Kernel::ColDot => {
            check_coldot_shape("gemm_bf16", &params)?;
            (km::gemm_coldot_bf16, coldot_config("gemm_coldot_bf16", &params)?)
        }
        Bf16Kernel::RowDot => {
            check_rowdot_shape("gemm_bf16", &params)?;
            (km::gemm_rowdot_bf16, rowdot_config("gemm_rowdot_bf16", &params)?)
        }
        Bf16Kernel::WarpDot => (km::gemm_warpdot_bf16, warpdot_config("gemm_warpdot_bf16", m, n)?),
        Bf16Kernel::ShortK => {
            check_shortk_shape("gemm_bf16", &params)?;
            let sms = gpu.info().multiprocessors as usize;
            shortk_launch(m, n, sms, (&km::GEMM_SHORTK_BF16, km::gemm_shortk_bf16 as Bf16Gemm), (&km::GEMM_SHORTK_SMALL_BF16, km::gemm_shortk_small_bf16))?
        }
        Bf16Kernel::NarrowMn | Bf16Kernel::NarrowK => {
            check_narrow_shape("gemm_bf16", &params)?;
            let mn = plan.kernel == Bf16Kernel::NarrowMn;
            let (info, launch) = narrow_bf16(mn, m, n);
            (launch, narrow_config(info.name, &params, mn)?)
        }
        Bf16Kernel::Mma => (km::gemm_mma_bf16, tiles(&km::GEMM_MMA_BF16, km::BF16_BM, km::BF16_THREADS, km::BF16_SHARED)?),
        Bf16Kernel::MmaLdmatrix => (km::gemm_mma_bf16_ldm, tiles(&km::GEMM_MMA_BF16_LDM, km::BF16_BM, km::BF16_THREADS, km::BF16_LDM_SHARED)?),
        Bf16Kernel::MmaTile64 => (km::gemm_mma_bf16_64, tiles(&km::GEMM_MMA_BF16_64, km::BF16_64_TILE, km::BF16_64_THREADS, km::BF16_64_SHARED)?),
        Bf16Kernel::ShortKMma if shortk_mma_small(m, n, gpu.info().multiprocessors as usize) => {
            (km::gemm_shortk_mma_small_bf16, tiles(&km::GEMM_SHORTK_MMA_SMALL_BF16, km::SHORTK_MMA_SMALL_TILE, km::SHORTK_MMA_THREADS, km::SHORTK_MMA_SHARED)?)
        }
        Bf16Kernel::ShortKMma => {
            (km::gemm_shortk_mma_bf16, tiles(&km::GEMM_SHORTK_MMA_BF16, km::SHORTK_MMA_TILE, km::SHORTK_MMA_THREADS, km::SHORTK_MMA_SHARED)?)
        }
        // The `wgmma` tiles (`Bf16Kernel::is_wgmma`; Auto was refused above).
        _ => {
            let tile = plan.kernel.wgmma_tile().expect("a wgmma kernel (Auto was refused above)");
            let tile = deepen_lone_tile(tile, plan, (m, n, params.k as usize), gpu.info().multiprocessors as usize);
            let (ta_m, tb_m) = (bf16_tma(a), bf16_tma(b));
            let (ta_m, tb_m) = if pad || plan.align_rows { stage_padded_bf16(gpu, [ta_m, tb_m], plan.align_rows)? } else { (ta_m, tb_m) };
            let (a_mn, b_mn) = (ta == Transpose::Yes, tb == Transpose::No);
            let (kernel, wg) = if swapped {
                // Cᵀ = op(B)ᵀ·op(A)ᵀ: B (stored k×n: MN-major) is its first operand, A (stored
                // k×m: MN-major) its second.
                let wg = WgmmaOperands {
                    a: tb_m,
                    a_mn: b_mn,
                    b: ta_m,
                    b_mn: a_mn,
                    bk: km::WG_BK_BF16,
                    split: false,
                    transposes: false,
                    swap: true,
                    a_registers: false,
                };
                (wgmma_bf16_swapped(ta, tb, tile), wg)
            } else {
                let kernel = if plan.multicast.is_on() {
                    wgmma_bf16_clustered(ta, tb, tile, plan.multicast).expect("checked by multicast_fits")
                } else {
                    wgmma_bf16(ta, tb, tile)
                };
                (kernel, WgmmaOperands { a: ta_m, a_mn, b: tb_m, b_mn, bk: km::WG_BK_BF16, split: false, transposes: false, swap: false, a_registers: false })
            };
            return launch_wgmma(gpu, "gemm_bf16", kernel, tile, wg, c.device_ptr(), bias_ptr, params);
        }
    };
    let (a, b, c) = (KernelArg::into_kernel_arg(a), KernelArg::into_kernel_arg(b), KernelArg::into_kernel_arg(c));
    // SAFETY: these BF16 kernels take (bf16 a, bf16 b, f32 c, f32 bias, GemmParams); shapes were
    // checked (RowDot's n ≤ 16, ColDot's m ≤ 16 and n-contiguous op(B) above) and the strides
    // address only inside A and B; the kernels bounds-check C (RowDot's rows past m read row
    // m − 1 and are not stored), and split-K plans carry this stream's counters and a workspace
    // they fit (checked above).
    unsafe { launch(gpu, cfg, a, b, c, bias_ptr as *const f32, params) }
}

/// Row length (elements) of the bf16 operands [`stage_padded_bf16`] copies: 256 bytes.
const ALIGNED_ROW_ELEMENTS: usize = 128;

/// `Bf16Kernel::Auto`'s path to `wgmma` for row strides the copy engine cannot read (not a
/// multiple of 8 elements): such an operand is copied into padded rows in this stream's staging
/// buffer (one pass over it; `mma.sync`, the alternative, ran at 26 % of cuBLAS at 4096³). With `align_rows` ([`Bf16Plan::align_rows`]) so is every operand whose rows
/// are off the 32-byte sectors ([`plan::rows_off_sectors`]). The copies' rows are a
/// multiple of [`ALIGNED_ROW_ELEMENTS`] long: on the sectors, with the larger L2 promotion of
/// [`TmaMatrix::tiled`]. (Rows of a multiple of 8 only, off the sectors, ran bf16 nn
/// 8000×4500×4000, B's rows of 9000 bytes copied, in 555 µs; rows of 256 bytes in 446; H100,
/// docs/runs/2026-11-28-s28/i3.)
fn stage_padded_bf16(gpu: &Gpu, ops: [TmaMatrix; 2], align_rows: bool) -> Result<(TmaMatrix, TmaMatrix)> {
    use kernels::matmul as km;
    let copies = |m: &TmaMatrix| !m.is_supported() || (align_rows && (plan::rows_off_sectors(m.ld * 2) || plan::rows_off_sectors(m.ptr as usize)));
    let padded = |m: &TmaMatrix| m.cols.next_multiple_of(ALIGNED_ROW_ELEMENTS);
    let halves: usize = ops.iter().filter(|m| copies(m)).map(|m| m.rows * padded(m)).sum();
    // Floats, and room to start on a 256-byte boundary.
    let buffer = if halves > 0 { gpu.staging_buffer(halves.div_ceil(2) + 64)? } else { 0 };
    let mut buffer = buffer.next_multiple_of(256);
    let mut out = ops;
    for m in out.iter_mut().filter(|m| copies(m)) {
        let ld = padded(m);
        let cfg = LaunchConfig::for_num_elems("gemm_stage_pad_bf16", m.rows * m.cols.div_ceil(km::PAD_CHUNK), km::STAGE_THREADS)?;
        let (src, ld_src, rows, cols, dst, ld_dst) = (m.ptr as *const u16, m.ld as u64, m.rows as u64, m.cols as u64, buffer as *mut u16, ld as u64);
        // SAFETY: (src, ld_src, rows, cols, dst, ld_dst): src is the operand as stored; dst has
        // rows·ld halves left in the staging buffer (16-byte aligned: the buffer is, and every
        // operand before it takes a multiple of 8 halves).
        unsafe { km::gemm_stage_pad_bf16(gpu, cfg, src, ld_src, rows, cols, dst, ld_dst)? };
        buffer += (m.rows * ld * 2) as u64;
        *m = TmaMatrix { ptr: dst as u64, ld, ..*m };
    }
    let [a, b] = out;
    Ok((a, b))
}

/// The stored operands of a wgmma GEMM: `a_mn` when A is stored k×m (m contiguous), `b_mn` when
/// B is stored k×n; otherwise k is the contiguous dimension. `bk`: k per pipeline stage.
struct WgmmaOperands {
    a: TmaMatrix,
    a_mn: bool,
    b: TmaMatrix,
    b_mn: bool,
    bk: usize,
    /// The kernel transposes its MN-major operands in shared memory (the TF32 tiles'
    /// producers; their scratch slots count in its shared memory).
    transposes: bool,
    /// op(A) is read into registers as it landed (the TF32 register-A kernels): MN-major but
    /// never transposed.
    a_registers: bool,
    /// The kernel splits both operands into TF32 heads and tails in shared memory
    /// ([`GemmKernel::Tf32x3Split`]; its shared memory is `WgTile::shared_split`).
    split: bool,
    /// The kernel computes tiles of Cᵀ = op(B)ᵀ·op(A)ᵀ (`a` and `b` are op(B)ᵀ's and op(A)ᵀ's
    /// maps): its grid covers n×m.
    swap: bool,
}

/// Builds the tensor maps (boxes of one stage's tile: 64 elements of m or n by `bk` of k for an
/// MN-major operand, `bk` by the tile's rows for a K-major one) and launches the wgmma kernel
/// `info` on `tile`.
#[allow(clippy::too_many_arguments)]
fn launch_wgmma(
    gpu: &Gpu,
    op: &'static str,
    kernel: WgmmaKernel,
    tile: kernels::matmul::WgTile,
    x: WgmmaOperands,
    c: u64,
    bias: u64,
    params: GemmParams,
) -> Result<()> {
    use kernels::matmul as km;
    kernel.require(gpu)?;
    let WgmmaKernel { info, launch, cluster } = kernel;
    // An MN-major box is one 128-byte swizzle row wide (64 bf16, 32 f32), or a narrower tile's
    // width (`km::mn_box`: 64-byte rows), and a stage's k deep.
    let map = |m: &TmaMatrix, mn: bool, tile_rows: usize| {
        let mn_cols = (km::WG_ROW_BYTES / m.element.bytes()).min(tile_rows);
        if mn { m.tiled(op, mn_cols as u32, x.bk as u32) } else { m.tiled(op, x.bk as u32, tile_rows as u32) }
    };
    let map_a = map(&x.a, x.a_mn, tile.bm())?;
    let map_b = map(&x.b, x.b_mn, tile.bn)?;
    // The K-major tiles that reach past C in boxes of `kmajor_box_rows` (the kernels that copy
    // without transposing; the others never read these). Where that box is the whole tile's, or
    // the operand is MN-major, the kernel never reads it: the main map stands in, not encoded
    // twice.
    let edge = |m: &TmaMatrix, mn: bool, rows: usize, main: kernels::matmul::TensorMap| {
        if mn || km::kmajor_box_rows(rows) == rows { Ok(main) } else { map(m, mn, km::kmajor_box_rows(rows)) }
    };
    // An operand shared by the blocks of a multicast cluster: the map of its pieces
    // (`km::multicast_pieces`) in the edge slot (K-major: the tile's rows cut in `pieces`;
    // MN-major: the stage's k cut in `pieces`, the main map where it is whole).
    let (along_m, along_n) = (u32::from(cluster.along_m), u32::from(cluster.along_n));
    let pieces = |m: &TmaMatrix, mn: bool, rows: usize, group: u32, main| {
        let pieces = km::multicast_pieces(mn, rows, group as usize);
        match (mn, pieces) {
            (true, 1) => Ok(main),
            (true, _) => m.tiled(op, (km::WG_ROW_BYTES / m.element.bytes()).min(rows) as u32, (x.bk / pieces) as u32),
            (false, _) => map(m, false, rows / pieces),
        }
    };
    let edge_a = if along_n > 1 { pieces(&x.a, x.a_mn, tile.bm(), along_n, map_a)? } else { edge(&x.a, x.a_mn, tile.bm(), map_a)? };
    let edge_b = if along_m > 1 { pieces(&x.b, x.b_mn, tile.bn, along_m, map_b)? } else { edge(&x.b, x.b_mn, tile.bn, map_b)? };
    let shared = if x.split {
        tile.shared_split()
    } else if x.transposes {
        tile.shared_transposing(x.a_mn && !x.a_registers, x.b_mn)
    } else {
        tile.shared()
    };
    let (m, n) = (params.m as usize, params.n as usize);
    let (rows, cols) = if x.swap { (n, m) } else { (m, n) };
    let mut cfg = tile_grid(info.name, rows, cols, (tile.bm(), tile.bn), tile.threads(), shared)?;
    cfg.grid.z = params.splits;
    // The wgmma kernels wait for the previous grid after their prologue
    // (`grid_dependency_wait`), so they may start while it finishes.
    cfg = cfg.with_overlap();
    if cluster.is_on() {
        // Clusters of along_m × along_n tiles (`clustered_tile_of`'s order) in a 1-D grid padded
        // to whole clusters, each cluster along x, by the tile's splits along z.
        let (rows, cols) = (cfg.grid.y.next_multiple_of(along_m), cfg.grid.x.next_multiple_of(along_n));
        cfg.grid.x = rows * cols;
        cfg.grid.y = 1;
        cfg = cfg.with_cluster(crate::launch::Dim3::xyz(along_m * along_n, 1, params.cluster.max(1)));
    } else if params.cluster != 0 {
        // A tile's splits are clusters of `params.cluster` along z (rank = split index modulo
        // the cluster size).
        cfg = cfg.with_cluster(crate::launch::Dim3::xyz(1, 1, params.cluster));
    }
    // SAFETY: the wgmma kernels take (TensorMap a, TensorMap b, f32 c, f32 bias, GemmParams); the
    // maps describe A and B exactly (the copy engine zero-fills outside them), the shapes were
    // checked, and the kernel bounds-checks C.
    unsafe { launch(gpu, cfg, map_a, map_b, edge_a, edge_b, c as *mut f32, bias as *const f32, params) }
}

/// Checks the shapes of a GEMM and builds its parameters; `None` when C is empty (nothing to
/// launch).
fn gemm_params(
    op: &'static str,
    a: (usize, usize),
    ta: Transpose,
    b: (usize, usize),
    tb: Transpose,
    epilogue: &Epilogue<'_>,
    c: (usize, usize),
) -> Result<Option<GemmParams>> {
    let (m, ka) = if ta == Transpose::Yes { (a.1, a.0) } else { a };
    let (kb, n) = if tb == Transpose::Yes { (b.1, b.0) } else { b };
    expect_shape(op, "inner dimension of op(B) (= that of op(A))", ka, kb)?;
    expect_shape(op, "output shape", (m, n), c)?;
    if let Some(bias) = epilogue.bias {
        expect_shape(op, "bias length (= n)", n, bias.len())?;
    }
    if let Some(copy) = epilogue.bf16_copy {
        expect_shape(op, "bf16 copy of C shape", (m, n), copy.shape())?;
    }
    if m == 0 || n == 0 {
        return Ok(None);
    }
    let strides = |t: Transpose, cols: usize| if t == Transpose::Yes { (1u64, cols as u64) } else { (cols as u64, 1u64) };
    let (a_row_stride, a_col_stride) = strides(ta, a.1);
    let (b_row_stride, b_col_stride) = strides(tb, b.1);
    Ok(Some(GemmParams {
        m: m as u64,
        n: n as u64,
        k: ka as u64,
        a_row_stride,
        a_col_stride,
        b_row_stride,
        b_col_stride,
        ldc: n as u64,
        alpha: epilogue.alpha,
        beta: epilogue.beta,
        act: epilogue.act as u32,
        has_bias: u32::from(epilogue.bias.is_some()),
        splits: 1,
        slices_per_split: 0,
        sem: 0,
        ws: 0,
        x3_slices: 0,
        cluster: 0,
        c_bf16: epilogue.bf16_copy.map_or(0, |c| c.device_ptr()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parameters of an m×n×k product with op(A) = Aᵀ if `ta`, op(B) = Bᵀ if `tb`.
    fn params(m: usize, n: usize, k: usize, ta: bool, tb: bool) -> GemmParams {
        let t = |x: bool| if x { Transpose::Yes } else { Transpose::No };
        let (a, b) = (if ta { (k, m) } else { (m, k) }, if tb { (n, k) } else { (k, n) });
        gemm_params("test", a, t(ta), b, t(tb), &Epilogue::default(), (m, n)).unwrap().unwrap()
    }

    fn auto(m: usize, n: usize, k: usize, ta: bool, tb: bool) -> GemmKernel {
        GemmKernel::Auto.plan_for(&params(m, n, k, ta, tb), plan::Multiprocessors::H100, true).kernel
    }

    #[test]
    fn fp32_shared_memory_tiles_only_below_one_block_per_multiprocessor() {
        // 64 and 132 tiles of 32×32: the shared-memory tiles; 256 (about two per SM): the 64×64 tiles.
        // (Up to k = 12 the short-k kernel's 16-row blocks take such outputs first.)
        assert_eq!(auto(64, 1024, 16, false, false), GemmKernel::SmemTiled);
        assert_eq!(auto(64, 1024, 10, false, false), GemmKernel::ShortK);
        assert_eq!(auto(128, 1056, 64, true, true), GemmKernel::SmemTiled);
        assert_ne!(auto(256, 1024, 10, false, false), GemmKernel::SmemTiled);
        assert_ne!(auto(256, 1024, 128, false, true), GemmKernel::SmemTiled);
        // TF32 runs FP32's plan there: the same tiles, one block per multiprocessor or fewer.
        let tf32 = |m, n, k, ta, tb| GemmKernel::Tf32Auto.plan_for(&params(m, n, k, ta, tb), plan::Multiprocessors::H100, true);
        let f32 = |m, n, k, ta, tb| GemmKernel::Auto.plan_for(&params(m, n, k, ta, tb), plan::Multiprocessors::H100, true);
        assert_eq!(tf32(128, 1056, 64, true, true).kernel, GemmKernel::SmemTiled);
        assert_eq!(tf32(6308, 37, 20, true, true), f32(6308, 37, 20, true, true));
        assert_ne!(tf32(6308, 37, 20, true, true).kernel, GemmKernel::SmemTiled);
    }

    #[test]
    fn tiny_narrow_products_start_on_the_narrow_kernel_and_short_k_grids_on_the_short_k_kernel() {
        // Tiny products of at most 8 rows or columns from k = 32: the k-contiguous narrow kernel,
        // unsplit, in any layout, where the shared-memory tiles ran before (s40 `x7`).
        for (m, n, k, ta, tb) in [(6, 11, 41, false, false), (5, 188, 46, true, false), (1391, 8, 41, true, false), (530, 7, 51, true, true)] {
            let plan = GemmKernel::Auto.plan_for(&params(m, n, k, ta, tb), plan::Multiprocessors::H100, true);
            assert_eq!((plan.kernel, plan.splits), (GemmKernel::NarrowK, 1), "{m}x{n}x{k}");
        }
        // At k = 24 the shared-memory tiles keep it.
        assert_eq!(auto(6, 267, 24, true, false), GemmKernel::SmemTiled);
        // A warp per column where its grid fills the device with k ≤ 12: the short-k kernel.
        assert_eq!(auto(3, 6269, 3, false, true), GemmKernel::ShortK);
        // Short of a full grid, the warp-per-column kernel starts soonest.
        assert_eq!(auto(4, 850, 3, true, true), GemmKernel::WarpDot);
        // Below a quad per lane, past 3 of its blocks per multiprocessor: the narrow kernel.
        assert_eq!(auto(1, 3861, 67, false, true), GemmKernel::NarrowK);
        assert_eq!(auto(3, 2500, 120, false, true), GemmKernel::WarpDot);
        // Short of a full grid, up to k = 1023, in either layout of op(A) (s41 `a4`); past it the
        // narrow kernel's split k.
        for (m, n, k, ta) in [(1, 1004, 325, false), (4, 500, 700, true), (1, 300, 1023, false)] {
            assert_eq!(auto(m, n, k, ta, true), GemmKernel::WarpDot, "{m}x{n}x{k}");
        }
        assert_ne!(auto(4, 500, 2000, true, true), GemmKernel::WarpDot);
    }

    #[test]
    fn short_k_runs_as_far_as_it_wins_per_precision() {
        let tf32 = |m, n, k| GemmKernel::Tf32Auto.plan_for(&params(m, n, k, false, false), plan::Multiprocessors::H100, true).kernel;
        let short = GemmKernel::ShortK;
        // FP32: up to k = 31 from 2^19 outputs (k = 32 on C rows it stores by quads: the
        // tiles); below them the tiles past k = 4, whatever n.
        for k in [4, 10, 16, 31] {
            assert_eq!(auto(4096, 4096, k, false, false), short, "k {k}");
        }
        assert_ne!(auto(4096, 4096, 32, false, false), short);
        assert_eq!(auto(4096, 1026, 32, false, true), short);
        assert_eq!(auto(1024, 1024, 10, true, false), short);
        assert_ne!(auto(6308, 37, 20, true, true), short);
        // Up to k = 12 wherever it runs on 16-row blocks, any size and alignment; past k = 12,
        // or where its grid needs 64-row blocks (nt 7527×39×10: 118), the tiles.
        for (m, n, k) in [(1024, 256, 10), (797, 346, 9), (162, 1, 1), (463, 292, 6), (5600, 13, 8)] {
            assert_eq!(auto(m, n, k, true, true), short, "{m}x{n}x{k}");
        }
        assert_ne!(auto(797, 346, 13, false, false), short);
        assert_ne!(auto(7527, 39, 10, false, true), short);
        assert_eq!(auto(2236, 588, 4, true, false), short);
        assert_ne!(auto(4096, 4096, 33, false, false), short);
        // TF32: up to k = 16, FP32's pick there.
        assert_eq!(tf32(4096, 4096, 16), short);
        for (m, n, k) in [(797, 346, 9), (800, 344, 9), (256, 1024, 10), (2236, 588, 4)] {
            assert_eq!(tf32(m, n, k), auto(m, n, k, false, false), "{m}x{n}x{k}");
        }
        assert_ne!(tf32(4096, 4096, 24), short);
    }

    #[test]
    fn auto_plan_reports_what_gemm_would_run() {
        let (no, yes) = (Transpose::No, Transpose::Yes);
        let h100 = plan::Multiprocessors::H100;
        let plan = |precision, mnk, t| auto_plan(precision, mnk, t, h100, true).unwrap();
        // As `plan_for`: the 64×32 tile at equal cost, unsplit.
        assert_eq!(plan(Precision::F32, (4785, 26, 49), (yes, yes)), Some(("Tile64x32".to_string(), 1)));
        let tf32 = GemmKernel::Tf32Auto.plan_for(&params(2196, 144, 2205, true, false), h100, true);
        assert_eq!(plan(Precision::Tf32, (2196, 144, 2205), (yes, no)), Some((format!("{:?}", tf32.kernel), tf32.splits)));
        // BF16 with rows the copy engine cannot read (5 and 2651 elements): the narrow kernel.
        assert_eq!(plan(Precision::Bf16, (5, 8174, 2651), (yes, no)).map(|p| p.0), Some("NarrowMn".to_string()));
        // An empty C: nothing to run; a k of 0 still writes C.
        assert_eq!(plan(Precision::F32, (0, 16, 16), (no, no)), None);
        assert!(plan(Precision::F32, (16, 16, 0), (no, no)).is_some());
    }

    #[test]
    fn equal_costs_go_to_the_plan_that_computes_fewer_outputs() {
        // 150 tiles of 32×64 or 75 of 64×32, which the model prices alike: 32 columns for 26.
        assert_eq!(auto(4785, 26, 49, true, true), GemmKernel::Tile64x32);
        assert_eq!(auto(4813, 14, 65, true, false), GemmKernel::Tile64x32);
        // 16 rows: the 32-row tile.
        assert_eq!(auto(16, 4785, 49, false, false), GemmKernel::Tile32x64);
    }

    #[test]
    fn short_k_takes_16_row_blocks_only_well_short_of_a_wave() {
        let sms = 132;
        // 39, 27, 64 and 73 blocks of 64 rows: 16-row blocks.
        for (m, n) in [(797, 346), (566, 339), (128, 4096), (4670, 94)] {
            assert!(shortk_small(m, n, sms), "{m}x{n}");
        }
        // 99, 112, 128 and 153 blocks of 64 rows: 64-row blocks.
        for (m, n) in [(6308, 37), (1024, 784), (1024, 1024), (134, 6482)] {
            assert!(!shortk_small(m, n, sms), "{m}x{n}");
        }
    }

    #[test]
    fn short_k_tensor_core_tile_takes_32_wide_tiles_below_one_and_a_half_waves() {
        let sms = 132;
        // 64×64 grids of 99 and 144 blocks: 32×32 tiles; of 208 and 304: 64×64 ones.
        for (m, n) in [(6308, 37), (1484, 340), (388, 236), (1, 1)] {
            assert!(shortk_mma_small(m, n, sms), "{m}x{n}");
        }
        for (m, n) in [(1024, 784), (193, 4861), (2753, 975)] {
            assert!(!shortk_mma_small(m, n, sms), "{m}x{n}");
        }
    }

    #[test]
    fn bf16_auto_runs_the_short_k_tensor_core_tile_on_padded_short_products() {
        let bf16 = |m: usize, n: usize, k: usize| {
            let p = params(m, n, k, false, true);
            // Rows of k elements: padded when k is not a multiple of 8.
            let pad = if k.is_multiple_of(8) { 0 } else { (m + n) * k.next_multiple_of(8) };
            bf16_plan(&p, (Transpose::No, Transpose::Yes), Bf16Kernel::Auto, pad, true, plan::Multiprocessors::H100, false).kernel
        };
        let tile = Bf16Kernel::ShortKMma;
        for (m, n, k) in [(6308, 37, 20), (1484, 340, 20), (387, 4330, 23), (300, 5000, 17), (2753, 975, 31), (1964, 126, 67), (884, 189, 92), (322, 4203, 11)]
        {
            assert_eq!(bf16(m, n, k), tile, "{m}x{n}x{k}");
        }
        // Aligned rows (no padding pass): the tiles.
        assert_ne!(bf16(387, 4330, 24), tile);
        assert_ne!(bf16(1024, 784, 32), tile);
        // k past the band: the CUDA-core short-k kernel below it, the padded tiles above.
        assert_eq!(bf16(4096, 1024, 10), Bf16Kernel::ShortK);
        assert_ne!(bf16(719, 4288, 123), tile);
        // Two chunks (k past 64) only below 2²⁰ outputs.
        assert_ne!(bf16(143, 13368, 81), tile);
        assert_eq!(bf16(372, 1355, 79), tile);
        // Few outputs (the 32×32 tiles run them), and past the band.
        assert_eq!(bf16(673, 159, 57), tile);
        assert_eq!(bf16(125, 22, 91), tile);
        assert_ne!(bf16(6756, 5013, 42), tile);
        // Few outputs and k ≤ SHORTK_AUTO_SMALL_MAX_K: the 16-row short-k blocks, not the
        // shared-memory tiles; past it the tiles.
        assert_eq!(bf16(659, 33, 10), Bf16Kernel::ShortK);
        assert_eq!(bf16(337, 48, 2), Bf16Kernel::ShortK);
        // Tiny products with at most 16 rows or columns (below NARROW_AUTO_MIN) up to k = 256.
        assert_eq!(bf16(356, 11, 19), tile);
        assert_eq!(bf16(780, 13, 167), tile);
        assert_ne!(bf16(780, 13, 300), tile);
        assert_ne!(bf16(6, 30_000, 80), tile);
        // 3 to 16 rows or columns, k within one chunk, up to 2¹⁹ elements of the wide operand:
        // first, in any layout and alignment (s41 `a6`, `a7`).
        for (ta, tb) in [(Transpose::No, Transpose::No), (Transpose::No, Transpose::Yes), (Transpose::Yes, Transpose::No), (Transpose::Yes, Transpose::Yes)] {
            let few = |m: usize, n: usize, k: usize| {
                let p = params(m, n, k, ta == Transpose::Yes, tb == Transpose::Yes);
                bf16_plan(&p, (ta, tb), Bf16Kernel::Auto, 0, true, plan::Multiprocessors::H100, false).kernel
            };
            for (m, n, k) in [(9, 5173, 39), (6, 3177, 48), (16, 3000, 60), (5721, 3, 17)] {
                assert_eq!(few(m, n, k), tile, "{m}x{n}x{k} {ta:?} {tb:?}");
            }
            for (m, n, k) in [(6, 3177, 80), (3, 12000, 48), (2, 600, 48)] {
                assert_ne!(few(m, n, k), tile, "{m}x{n}x{k} {ta:?} {tb:?}");
            }
        }
    }

    #[test]
    fn tf32_auto_reads_one_mn_major_operand_into_registers() {
        let tf32 = |m, n, k, ta, tb| GemmKernel::Tf32Auto.plan_for(&params(m, n, k, ta, tb), plan::Multiprocessors::H100, true).kernel;
        let rega = GemmKernel::Tf32WgmmaRegA;
        // A few hundred rows times a large MN-major op(B) (nn).
        assert_eq!(tf32(256, 4096, 4096, false, false), rega);
        assert_eq!(tf32(512, 4096, 4096, false, false), rega);
        // Both MN-major (tn): the smaller operand (256 rows of A) staged, B in registers.
        assert_eq!(tf32(256, 4096, 4096, true, false), rega);
        // Small products with an MN-major operand, in every such layout (TF32_REGA_ALWAYS_FLOPS).
        for (ta, tb) in [(false, false), (true, false), (true, true)] {
            assert_eq!(tf32(4096, 784, 64, ta, tb), rega);
            assert_eq!(tf32(1024, 784, 128, ta, tb), rega);
        }
        // Below TF32_STAGED_MIN_FLOPS only where it reads both operands as they are: tn stages
        // one, and runs FP32's plan (tf32_stages_first).
        for (ta, tb) in [(false, false), (true, true)] {
            assert_eq!(tf32(256, 256, 256, ta, tb), rega);
        }
        assert_eq!(tf32(256, 256, 256, true, false), auto(256, 256, 256, true, false));
        // Narrow products whose long operand the wgmma tiles would stage: FP32's plan, at any
        // size (TF32_STAGED_NARROW_MAX), up to 32 rows or columns; from 33 the `cp.async`-fed
        // tiles, which read that operand as it is (plan::cp_stream_plan); not where only the
        // narrow one is staged.
        assert_eq!(tf32(6609, 12, 2773, true, true), auto(6609, 12, 2773, true, true));
        assert_eq!(tf32(2447, 29, 1049, true, false), auto(2447, 29, 1049, true, false));
        let cp = [GemmKernel::Tf32WgmmaCp, GemmKernel::Tf32WgmmaCp64];
        assert!(cp.contains(&tf32(1186, 47, 7488, true, false)));
        assert!(cp.contains(&tf32(6998, 40, 3170, false, false)));
        assert_ne!(tf32(10, 4096, 4096, true, false), auto(10, 4096, 4096, true, false));
        // Large products stage the operand once and run the 128×256 tile; both k-contiguous
        // (nt) never takes it; nor does a GPU without wgmma.
        assert_ne!(tf32(4096, 4096, 4096, false, false), rega);
        assert_ne!(tf32(3000, 3000, 3000, true, true), rega);
        assert_ne!(tf32(256, 256, 256, false, true), rega);
        // Not on few rows (its 64×128 tile idles). Small tn products from k = 32: op(B)
        // transposed in shared memory, no staging pass, tiles over m×n.
        assert_ne!(tf32(8, 8192, 8192, false, false), rega);
        assert_eq!(tf32(1024, 784, 32, true, false), rega);
        let tn = params(1024, 784, 32, true, false);
        assert_eq!(GemmKernel::Tf32WgmmaRegA.plan_for(&tn, plan::Multiprocessors::H100, true).splits, 1);
        assert!(rega_transposes(rega, tf32_rega(&tn).unwrap(), &tn));
        // Past 2³⁰ FLOPs or k = 384 it stages one as before.
        for (m, n, k) in [(256, 4096, 4096), (1024, 784, 512)] {
            let p = params(m, n, k, true, false);
            assert!(!rega_transposes(rega, tf32_rega(&p).unwrap(), &p), "{m}x{n}x{k}");
        }
        assert_ne!(tf32(256, 4096, 4096, false, true), rega);
        assert_ne!(GemmKernel::Tf32Auto.plan_for(&params(256, 4096, 4096, false, false), plan::Multiprocessors::H100, false).kernel, rega);
    }

    #[test]
    fn fp32_auto_runs_fp32_on_tf32_where_it_pays() {
        let split = GemmKernel::Tf32x3Split;
        // The MLP's layers from batch 256 and squares from 512³ on Hopper, operands split in the
        // kernel (no staging pass, so past X3_AUTO_MAX_STAGED too), in every layout.
        for (ta, tb) in [(false, true), (false, false), (true, false), (true, true)] {
            assert_eq!(auto(4096, 1024, 784, ta, tb), split);
            assert_eq!(auto(256, 1024, 1024, ta, tb), split);
            assert_eq!(auto(512, 512, 512, ta, tb), split);
            assert_eq!(auto(8192, 8192, 8192, ta, tb), split);
        }
        // Operands the copy engine cannot read (a k of 1001 breaks 16-byte rows): staged first
        // where it pays, not past X3_AUTO_MAX_STAGED floats of staging; neither on small
        // products or without wgmma.
        assert!(matches!(auto(4096, 1024, 1001, false, true), GemmKernel::Tf32x3Split | GemmKernel::Tf32x3Wgmma128x128));
        assert!(!matches!(auto(8192, 8192, 8193, false, true), GemmKernel::Tf32x3Split | GemmKernel::Tf32x3Wgmma128x128));
        assert!(!matches!(auto(128, 128, 128, false, false), GemmKernel::Tf32x3Split | GemmKernel::Tf32x3Wgmma128x128));
        let hopperless = GemmKernel::Auto.plan_for(&params(4096, 1024, 784, false, true), plan::Multiprocessors::H100, false).kernel;
        assert!(!matches!(hopperless, GemmKernel::Tf32x3Split | GemmKernel::Tf32x3Wgmma128x128));
    }

    #[test]
    fn narrow_products_stream_the_wide_operand() {
        // A few rows times an n-contiguous B, and a few columns of an m-contiguous A.
        assert_eq!(auto(1, 4096, 4096, false, false), GemmKernel::NarrowMn);
        assert_eq!(auto(4096, 10, 1024, true, false), GemmKernel::NarrowMn);
        // A few columns of a k-contiguous A with an n-contiguous B.
        assert_eq!(auto(4096, 10, 1024, false, false), GemmKernel::NarrowK);
        // x·Wᵀ keeps the warp-per-column (few rows) and row-per-warp (few columns) kernels.
        assert_eq!(auto(1, 4096, 4096, false, true), GemmKernel::WarpDot);
        assert_eq!(auto(2048, 10, 1024, false, true), GemmKernel::RowDot);
        assert_ne!(auto(4096, 10, 1024, false, true), GemmKernel::RowDot);
        // Its scalar path (k-rows of 314 floats, off 16 bytes) up to 8 rows per multiprocessor,
        // past the tiny products of at most 4 columns (the warp-per-column kernel).
        assert_eq!(auto(367, 5, 329, false, true), GemmKernel::RowDot);
        assert_eq!(auto(367, 2, 329, false, true), GemmKernel::WarpDot);
        for (m, n, k, ta, tb) in [(64, 2, 34, true, false), (3, 133, 306, false, false), (10, 3, 513, false, false), (5, 4, 156, true, true)] {
            assert_eq!(auto(m, n, k, ta, tb), GemmKernel::WarpDot, "{m}x{n}x{k}");
        }
        assert_ne!(auto(291, 1, 7, false, false), GemmKernel::WarpDot);
        assert_ne!(auto(2193, 10, 314, false, true), GemmKernel::RowDot);
        assert_ne!(auto(2193, 10, 314, false, false), GemmKernel::RowDot);
        // Width 16 with k-rows that break 16-byte loads along G.
        assert!(!matches!(auto(6609, 12, 2773, true, true), GemmKernel::NarrowMn | GemmKernel::NarrowK));
        assert_eq!(auto(4, 7337, 2921, false, false), GemmKernel::NarrowMn);
        // Width 16 with k-contiguous G past 2²³ elements, and small launch-bound products.
        assert_ne!(auto(16, 4096, 4096, false, true), GemmKernel::NarrowK);
        assert!(!matches!(auto(326, 6, 8, false, false), GemmKernel::NarrowMn | GemmKernel::NarrowK));
        // A long k over a tiny output, and few rows of x·Wᵀ too few for a block per
        // multiprocessor on the warp-per-column kernel.
        assert_eq!(auto(1, 2, 5936, true, true), GemmKernel::NarrowK);
        assert_eq!(auto(1, 165, 7552, false, true), GemmKernel::NarrowK);
        // Tiny products past the shared-memory tiles' k (`NARROW_AUTO_LONG_K`): the narrow
        // kernel, but at most 4 rows or columns the warp-per-column kernel up to
        // `WARPDOT_TINY_MAX_K` (`warpdot_tiny`, `warpdot_auto`).
        assert_eq!(auto(18, 2, 709, true, false), GemmKernel::WarpDot);
        assert_eq!(auto(7, 2, 2226, true, false), GemmKernel::NarrowK);
        assert_eq!(auto(1, 14, 412, false, true), GemmKernel::WarpDot);
        assert!(!matches!(auto(356, 11, 19, true, true), GemmKernel::NarrowMn | GemmKernel::NarrowK));
        // Below `NARROW_MN_MIN_ELEMS` at widths 4 and 8, the k-contiguous form on an operand
        // contiguous along m or n too (one column of an m-contiguous op(A) runs the
        // warp-per-column kernel on Cᵀ there: `warpdot_t_auto`).
        assert_eq!(auto(5069, 5, 50, true, true), GemmKernel::NarrowK);
        assert_eq!(auto(2, 6, 8114, true, false), GemmKernel::NarrowK);
        assert_eq!(auto(2, 1804, 379, false, false), GemmKernel::NarrowMn);
        let bf16 = |m, n, k| narrow_auto(&params(m, n, k, false, false), Precision::Bf16, true);
        assert_eq!(bf16(7, 1, 222), Some(false));
        assert_eq!(bf16(100, 1, 100), Some(false));
        // Few rows of an n-contiguous op(B) keep the big-contiguous form.
        assert_eq!(bf16(3, 500, 900), Some(true));
    }

    #[test]
    fn few_columns_run_the_warp_per_column_kernel_on_c_transposed() {
        let warpdot = GemmKernel::WarpDot;
        let bf16 = |m, n, k, ta: bool, tb: bool| {
            let t = |x: bool| if x { Transpose::Yes } else { Transpose::No };
            auto_plan(Precision::Bf16, (m, n, k), (t(ta), t(tb)), plan::Multiprocessors::H100, true).unwrap().unwrap().0
        };
        // Matrix-vector products and up to 4 columns, op(A) k-contiguous, in every precision.
        for (m, n, k, tb) in [(454, 1, 1813, false), (3000, 1, 2000, true), (2000, 4, 3000, true), (7, 1, 222, false), (100, 1, 100, true)] {
            assert_eq!(auto(m, n, k, false, tb), warpdot, "{m}x{n}x{k}");
            assert_eq!(bf16(m, n, k, false, tb), "WarpDot", "{m}x{n}x{k}");
        }
        // One column of an m-contiguous op(A) up to 2¹⁹ elements.
        assert_eq!(auto(1130, 1, 248, true, true), warpdot);
        assert_ne!(auto(454, 1, 1813, true, false), warpdot);
        // Not: each warp's k too long for the rows, a short k on many rows, f32 past 2²³
        // elements (bf16 keeps it), op(B) not k-contiguous, as many columns as rows.
        assert_ne!(auto(50, 2, 7000, false, true), warpdot);
        assert_ne!(auto(10000, 2, 100, false, true), warpdot);
        assert_ne!(auto(16384, 1, 1024, false, true), warpdot);
        assert_eq!(bf16(16384, 1, 1024, false, true), "WarpDot");
        assert_ne!(auto(2000, 4, 3000, false, false), warpdot);
        assert!(warpdot_transposed(&params(4, 4, 512, false, true)).is_none());
        // Past 4 k per row, a few columns leave the row-per-warp kernel for the narrow one;
        // a narrow output layer's x·Wᵀ (10 columns) keeps it.
        for (m, n, k) in [(1024, 1, 16384), (768, 1, 12288), (256, 2, 65536), (1024, 4, 16384), (50, 2, 7000)] {
            for kernel in [GemmKernel::Auto, GemmKernel::Tf32Auto] {
                let plan = kernel.plan_for(&params(m, n, k, false, true), plan::Multiprocessors::H100, true);
                assert_eq!(plan.kernel, GemmKernel::NarrowK, "{kernel:?} {m}x{n}x{k}");
            }
        }
        assert_eq!(auto(256, 10, 1024, false, true), GemmKernel::RowDot);
        // The transposed product: m and n swapped, op(B)ᵀ's strides first, C's own ldc.
        let p = params(300, 3, 128, false, true);
        let t = warpdot_transposed(&p).unwrap();
        assert_eq!((t.m, t.n, t.k, t.ldc), (3, 300, 128, p.ldc));
        assert_eq!((t.a_row_stride, t.a_col_stride, t.b_row_stride, t.b_col_stride), (p.b_col_stride, p.b_row_stride, p.a_col_stride, p.a_row_stride));
    }

    #[test]
    fn tensor_core_precisions_keep_their_tiles_on_large_wide_products() {
        let tf32 = |m, n, k| GemmKernel::Tf32Auto.plan_for(&params(m, n, k, false, false), plan::Multiprocessors::H100, true).kernel;
        assert_eq!(tf32(4, 7337, 2921), GemmKernel::NarrowMn);
        assert!(!matches!(tf32(8, 8192, 8192), GemmKernel::NarrowMn | GemmKernel::NarrowK));
        let tf32_xwt = GemmKernel::Tf32Auto.plan_for(&params(4096, 10, 1024, false, true), plan::Multiprocessors::H100, true).kernel;
        assert!(!matches!(tf32_xwt, GemmKernel::NarrowMn | GemmKernel::NarrowK), "{tf32_xwt:?}");
        let bf16 = |m, n, k, staged| narrow_auto(&params(m, n, k, false, false), Precision::Bf16, staged);
        assert_eq!(bf16(1, 4096, 4096, false), Some(true));
        assert_eq!(bf16(8, 8192, 8192, false), None);
        assert_eq!(bf16(16, 4096, 4096, false), None);
        assert_eq!(bf16(1, 5099, 6665, true), Some(true));
        assert_eq!(bf16(3, 8192, 8192, false), None);
        // Width 8 with a padding pass ahead of the tiles: the narrow kernel, whatever the size.
        assert_eq!(bf16(8, 8192, 8192, true), Some(true));
        assert_eq!(bf16(16, 8192, 8192, true), None);
    }

    #[test]
    fn k_contiguous_operands_off_16_bytes_are_staged_at_the_row_copy_price() {
        // nt: both operands k-contiguous, rows of 5637 floats (off 16 bytes): all their
        // elements are staged by the padded-row copy, priced below the transposing pass.
        let nt = tf32_staging(&params(89, 4118, 5637, false, true));
        let padded = 5640;
        assert_eq!((nt.all, nt.rest, nt.rows), ((89 + 4118) * padded, (89 + 4118) * padded, (89 + 4118) * padded));
        let sms = plan::Multiprocessors::H100.count;
        assert!(nt.cost_of(nt.all, sms) < 0.7 * plan::staging_cost(nt.all, sms));
        // tn: both MN-major, transposed when staged; nn: only op(A) (k-contiguous) is a row copy.
        assert_eq!(tf32_staging(&params(89, 4118, 5637, true, false)).rows, 0);
        assert_eq!(tf32_staging(&params(89, 4118, 5637, false, false)).rows, 89 * padded);
        // Priced so, the staged `wgmma` plan beats the 4-byte-load `mma.sync` tile there (97.2 µs
        // against 140.7; H200, docs/runs/2026-11-29-s37/t7); the `cp.async`-fed tile, which
        // stages only the 89-row operand, beats both (73.2 µs against 85.9 for the best staged
        // plan; docs/runs/2026-11-29-s42/b4).
        let tf32 = GemmKernel::Tf32Auto.plan_for(&params(89, 4118, 5637, false, true), plan::Multiprocessors::H100, true).kernel;
        assert_eq!(tf32, GemmKernel::Tf32WgmmaCp);
        // Past the cp.async rule's rows the cost model weighs both: a wide square stays on the
        // staged `wgmma` tiles.
        let big = GemmKernel::Tf32Auto.plan_for(&params(2047, 2047, 2047, false, false), plan::Multiprocessors::H100, true).kernel;
        let staged_wgmma = [GemmKernel::Tf32Wgmma, GemmKernel::Tf32Wgmma128x208, GemmKernel::Tf32Wgmma64x128, GemmKernel::Tf32Wgmma64x64];
        assert!(staged_wgmma.contains(&big), "{big:?}");
    }
}

use host::DeviceVector;
use host::buffer_bf16::{DeviceMatrixBf16, bf16_to_f32, f32_to_bf16};
use host::ops::matmul::plan::TileModel;
use host::ops::matmul::{
    Activation, Bf16Kernel, Bf16Plan, Epilogue, GemmKernel, GemmPlan, MatmulKernel, Multicast, Transpose, gemm, gemm_bf16_with, gemm_bf16_with_plan,
    gemm_with_plan, matmul, matmul_into,
};
use host::{DeviceMatrix, Error, reference};
use integration_tests::assert_close;
use integration_tests::{Suite, assert_close_scaled, expect_err, gpu, matmul_magnitude, uniform};

/// (m, k, n): vectors, odd sizes, around the 16×16 block, one large.
const SHAPES: &[(usize, usize, usize)] =
    &[(1, 1, 1), (1, 1000, 1), (1, 64, 1000), (1000, 64, 1), (7, 13, 5), (17, 31, 33), (65, 129, 63), (255, 257, 129), (1024, 1024, 1024)];

/// (m, k, n) for every GEMM rung: a single element; odd sizes below one tile; sizes just past
/// the 32/64/128 tiles with k not a multiple of 16 (and strides not multiples of 4, so the
/// one-element load paths run); multiples of 4 with ragged tiles (16-byte load paths with
/// tails); an exact 128 multiple; a long k; for the 128×256 tiles of `WarpTiledWide`, one
/// whole tile with only a ragged k-slice (k = 4), and whole tiles with strips of 4 rows and 4
/// columns left over and a ragged last slice (every stride a multiple of 4, so the wide kernel
/// runs in every layout).
const GEMM_SHAPES: &[(usize, usize, usize)] =
    &[(1, 1, 1), (17, 33, 9), (129, 65, 257), (130, 67, 131), (200, 96, 136), (256, 64, 128), (33, 1000, 7), (128, 4, 256), (260, 36, 516)];

/// Extra shapes for the 128×256 wgmma tiles, every dimension a multiple of 8 (what the copy
/// engine needs) so the Hopper kernels run: a ragged tile past one in every dimension, several
/// tiles with more k-slices than pipeline stages (the barrier ring wraps), one row, and a long k
/// (65 slices).
const WGMMA_SHAPES: &[(usize, usize, usize)] = &[(136, 72, 264), (520, 1048, 776), (8, 8, 8), (1, 256, 8), (264, 4160, 520)];

/// TF32 rounds each input to 11 significant bits (relative error ≤ 2⁻¹¹), so each product is
/// off by up to ~1e-3 of |a||b|; with f32 accumulation the sum's error stays well under
/// 2e-3·Σ|a||b|.
pub const TF32_TOL: f64 = 2e-3;

/// f32 with a different summation order than the reference: the error of a dot product of
/// length k is about √k·2⁻²⁴ of Σ|a||b| (random signs); 1e-5 of it holds to k ≈ 10⁵.
pub const F32_TOL: f64 = 1e-5;

/// Runs `kernel` on fresh random A (m×k), B (k×n) into a NaN-poisoned C and checks it.
pub fn check_matmul(g: &host::Gpu, rng: &mut rand::rngs::StdRng, kernel: MatmulKernel, (m, k, n): (usize, usize, usize), tol: f64) -> Result<(), String> {
    let a = uniform(rng, m * k, -1.0, 1.0);
    let b = uniform(rng, k * n, -1.0, 1.0);
    let da = gpu(DeviceMatrix::from_host(g, m, k, &a))?;
    let db = gpu(DeviceMatrix::from_host(g, k, n, &b))?;
    let mut dc = gpu(DeviceMatrix::filled(g, m, n, f32::NAN))?;
    gpu(matmul_into(g, &da, &db, &mut dc, kernel))?;
    let want = reference::matmul_f64(&a, &b, m, k, n);
    assert_close_scaled(&format!("matmul {kernel:?} {m}x{k}x{n}"), &gpu(dc.to_host(g))?, &want, &matmul_magnitude(&a, &b, m, k, n), tol)
}

/// The clusters the device reports resident at once (what the cost model places clustered
/// split-K plans by): one block of a size-1 cluster per multiprocessor, and no size placing more
/// blocks than there are multiprocessors or fewer than one cluster.
fn check_resident_clusters(g: &host::Gpu) -> Result<(), String> {
    let info = g.info();
    let sms = info.multiprocessors as usize;
    let got = info.resident_clusters;
    if got[1] != sms {
        return Err(format!("{got:?}: {} clusters of 1 on {sms} multiprocessors", got[1]));
    }
    for size in 2..got.len() {
        if got[size] == 0 || got[size] * size > sms || got[size] > got[size - 1] {
            return Err(format!("{got:?}: {} clusters of {size} on {sms} multiprocessors", got[size]));
        }
    }
    Ok(())
}

pub fn register(s: &mut Suite) {
    s.gpu("matmul::resident_clusters", |g, _| check_resident_clusters(g));
    for &shape in SHAPES {
        s.gpu(format!("matmul::Naive::{}x{}x{}", shape.0, shape.1, shape.2), move |g, rng| check_matmul(g, rng, MatmulKernel::Naive, shape, F32_TOL));
    }
    for kernel in GemmKernel::LADDER.into_iter().chain([GemmKernel::Auto]) {
        let tol = GemmTol::of(kernel);
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            for &(m, k, n) in GEMM_SHAPES {
                s.gpu(format!("gemm::{kernel:?}::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                    check_gemm(g, rng, kernel, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)
                });
            }
        }
        // Overwrite (β = 0, output poisoned with NaN) with bias and ReLU: the dense layer's
        // forward x·Wᵀ, and the two backward products dY·W and dYᵀ·x, at MLP-like shapes
        // (n = 10 and k = 10 are not multiples of 4: the one-element load paths).
        for &((m, k, n), (ta, tb), act, bias) in &[
            ((256, 784, 1024), (false, true), Activation::Relu, true),
            ((256, 1024, 10), (false, true), Activation::Identity, true),
            ((256, 10, 1024), (false, false), Activation::Identity, false),
            ((10, 256, 1024), (true, false), Activation::Identity, false),
            ((1024, 256, 784), (true, false), Activation::Sigmoid, false),
        ] {
            s.gpu(format!("gemm::{kernel:?}::mlp::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                check_gemm(g, rng, kernel, (m, k, n), (ta, tb), act, bias, 1.0, 0.0, tol)
            });
        }
    }
    // The warp-per-column kernel on a few rows with a long, odd k in every layout: its scalar
    // path (strides that rule out 16-byte loads) over many k-steps per lane, and fewer rows than
    // a warp's four. The same shapes transposed (a few columns: the kernel on Cᵀ, each sum
    // stored back at C's row and column, the bias per column of C) and matrix-vector products.
    for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
        for &(m, k, n) in &[
            (1, 921, 786),
            (4, 1426, 394),
            (3, 4099, 65),
            (2, 130, 9),
            (786, 921, 1),
            (394, 1426, 4),
            (65, 4099, 3),
            (9, 130, 2),
            (7, 222, 1),
            (454, 1813, 1),
            (1130, 248, 1),
        ] {
            let tol = GemmTol::of(GemmKernel::WarpDot);
            s.gpu(format!("gemm::WarpDot::long_k::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                check_gemm(g, rng, GemmKernel::WarpDot, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)
            });
            s.gpu(format!("gemm_bf16::WarpDot::long_k::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                check_gemm_bf16(g, rng, Bf16Kernel::WarpDot, None, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0)
            });
        }
    }
    for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
        // 34×70×18 and 66×230×130: rows of 4-byte but not 8-byte alignment in every layout (the
        // `mma.sync` tiles' 4-byte copies), over one and several k-slices.
        for &(m, k, n) in GEMM_SHAPES.iter().chain(&[(256, 784, 1024), (256, 10, 1024), (10, 256, 1024), (34, 70, 18), (66, 230, 130)]).chain(WGMMA_SHAPES) {
            for kernel in Bf16Kernel::ALL.into_iter().chain([Bf16Kernel::Auto]) {
                s.gpu(format!("gemm_bf16::{kernel:?}::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                    check_gemm_bf16(g, rng, kernel, None, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0)?;
                    check_gemm_bf16(g, rng, kernel, None, (m, k, n), (ta, tb), Activation::Identity, false, 1.0, 0.0)
                });
            }
        }
    }
    // Hopper TF32 in every layout and for any k: x·Wᵀ with k a multiple of 4 runs as is, other
    // operands are staged k-contiguous first (k = 33, 67, 1000: padded rows). Without sm_90a PTX
    // a forced Tf32Wgmma (either tile) is a MissingKernel error.
    // TF32 with op(A) from registers (the 64×128 and 128×192 tiles): an MN-major op(A) with a k-contiguous op(B) (tt), an
    // MN-major op(B) with a k-contiguous op(A) (nn, as Cᵀ = op(B)ᵀ·op(A)ᵀ), both MN-major (tn:
    // the 64×128 tile on products up to 2³⁰ FLOPs and k = 384 transposes op(B) in shared memory,
    // 264×136×320 in splits too; else the smaller staged first, 264×520×4096), edge tiles,
    // ragged k, every epilogue; forced and planned splits
    // (a second run the same bits). Both k-contiguous (nt), or an MN-major row or a
    // k-contiguous one not 16-byte aligned, is an InvalidArgument; without sm_90a PTX a
    // MissingKernel.
    for (ta, tb, kernel) in [(false, false), (false, true), (true, false), (true, true)]
        .into_iter()
        .flat_map(|(ta, tb)| [GemmKernel::Tf32WgmmaRegA, GemmKernel::Tf32WgmmaRegAWide].map(|kernel| (ta, tb, kernel)))
    {
        for &(m, k, n) in GEMM_SHAPES.iter().chain(WGMMA_SHAPES).chain(&[(256, 784, 1024), (256, 1024, 12), (12, 256, 1024), (264, 4096, 520), (264, 320, 136)])
        {
            s.gpu(format!("gemm::{kernel:?}::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                if !g.supports(&kernels::matmul::GEMM_WGMMA_TF32_KK) {
                    return expect_missing_wgmma(g, kernel, (m, k, n));
                }
                // op(A) MN-major: stored k×m (ta); its rows (m floats) 16-byte aligned. op(B)
                // k-contiguous: stored n×k (tb) with k a multiple of 4; and the other way round.
                // Both MN-major (tn): op(B) transposed in shared memory, or the one with fewer
                // rows or columns staged first.
                let fits = match (ta, tb) {
                    (true, true) => m % 4 == 0 && k % 4 == 0,
                    (false, false) => n % 4 == 0 && k % 4 == 0,
                    (true, false) => m % 4 == 0 && n % 4 == 0,
                    (false, true) => false,
                };
                if !fits {
                    let (ashape, bshape) = (if ta { (k, m) } else { (m, k) }, if tb { (n, k) } else { (k, n) });
                    let a = gpu(DeviceMatrix::zeros(g, ashape.0, ashape.1))?;
                    let b = gpu(DeviceMatrix::zeros(g, bshape.0, bshape.1))?;
                    let mut c = gpu(DeviceMatrix::zeros(g, m, n))?;
                    let t = |x: bool| if x { Transpose::Yes } else { Transpose::No };
                    let got = gemm(g, &a, t(ta), &b, t(tb), Epilogue::default(), &mut c, kernel);
                    return expect_err(&format!("{kernel:?} ta={ta} tb={tb} {m}x{k}x{n}"), got, |e| matches!(e, Error::InvalidArgument { .. }));
                }
                let tol = GemmTol::of(kernel);
                check_gemm(g, rng, kernel, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)?;
                check_gemm(g, rng, kernel, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0, tol)?;
                for splits in [2, 3] {
                    if TileModel::of(kernel).is_some_and(|md| md.slices_per_split(k, splits).is_some()) && k >= 256 {
                        check_gemm_split(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Identity, false, 1.0, 0.0, tol)?;
                    }
                }
                Ok(())
            });
        }
    }
    // TF32 `wgmma` fed by `cp.async` (the 64×128 and 64×64 tiles), every layout: rows off 16
    // bytes by 4 and by 8 (odd and even strides), on op(A) or op(B) as the register operand
    // (m ≥ n, or n > m as Cᵀ, and the 16-byte shared-operand path where only one operand is
    // k-contiguous and aligned), edge tiles in every direction, ragged k, k = 1, one row or
    // column, every epilogue; forced splits (the second run the same bits). Without sm_90a PTX
    // a MissingKernel.
    for kernel in [GemmKernel::Tf32WgmmaCp, GemmKernel::Tf32WgmmaCp64] {
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            for &(m, k, n) in GEMM_SHAPES.iter().chain(WGMMA_SHAPES).chain(&[
                (66, 230, 130),
                (130, 230, 66),
                (301, 1030, 77),
                (77, 1030, 301),
                (1, 517, 70),
                (70, 517, 1),
                (200, 96, 137),
                (137, 96, 200),
            ]) {
                let tol = GemmTol::of(kernel);
                s.gpu(format!("gemm::{kernel:?}::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                    if !g.supports(&kernels::matmul::GEMM_WGMMA_TF32_KK) {
                        return expect_missing_wgmma(g, kernel, (m, k, n));
                    }
                    check_gemm(g, rng, kernel, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)?;
                    check_gemm(g, rng, kernel, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0, tol)?;
                    for splits in [2, 3, 5] {
                        if TileModel::of(kernel).is_some_and(|md| md.slices_per_split(k, splits).is_some()) {
                            check_gemm_split(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Identity, false, 1.0, 0.0, tol)?;
                        }
                    }
                    Ok(())
                });
            }
        }
    }
    for kernel in [GemmKernel::Tf32Wgmma, GemmKernel::Tf32Wgmma128x208, GemmKernel::Tf32Wgmma64x128, GemmKernel::Tf32Wgmma64x64] {
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            for &(m, k, n) in GEMM_SHAPES.iter().chain(WGMMA_SHAPES).chain(&[(256, 784, 1024), (256, 1024, 10), (10, 256, 1024)]) {
                let tol = GemmTol::of(kernel);
                s.gpu(format!("gemm::{kernel:?}::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                    if !g.supports(&kernels::matmul::GEMM_WGMMA_TF32_KK) {
                        return expect_missing_wgmma(g, kernel, (m, k, n));
                    }
                    check_gemm(g, rng, kernel, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)?;
                    check_gemm(g, rng, kernel, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0, tol)?;
                    check_gemm(g, rng, GemmKernel::Tf32Auto, (m, k, n), (ta, tb), Activation::Identity, false, 1.0, 0.0, tol)
                });
            }
        }
    }
    // FP32 on TF32 tensor cores, every layout, odd shapes and ragged k (k = 1, 33, 1000: the
    // segments padded to whole slices), held to the f32 tolerance; without sm_90a PTX a forced
    // kernel is a MissingKernel error.
    for kernel in [GemmKernel::Tf32x3Wgmma, GemmKernel::Tf32x3Wgmma128x128, GemmKernel::Tf32x3Split] {
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            for &(m, k, n) in GEMM_SHAPES.iter().chain(WGMMA_SHAPES).chain(&[(256, 784, 1024), (256, 1024, 10), (10, 256, 1024), (37, 1, 45)]) {
                s.gpu(format!("gemm::{kernel:?}::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                    if !g.supports(&kernels::matmul::GEMM_WGMMA_TF32_KK) {
                        return expect_missing_wgmma(g, kernel, (m, k, n));
                    }
                    let tol = GemmTol::of(GemmKernel::Auto);
                    check_gemm(g, rng, kernel, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)?;
                    check_gemm(g, rng, kernel, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0, tol)
                });
            }
        }
        // The split form's four layouts are four kernels.
        let layouts: &[(bool, bool)] =
            if kernel == GemmKernel::Tf32x3Split { &[(false, false), (false, true), (true, false), (true, true)] } else { &[(false, true), (true, false)] };
        for &(ta, tb) in layouts {
            s.gpu(format!("gemm::{kernel:?}::split::ta{}_tb{}", ta as u8, tb as u8), move |g, rng| {
                if !g.supports(&kernels::matmul::GEMM_WGMMA_TF32_KK) {
                    return Ok(()); // checked by the MissingKernel test above on GPUs without sm_90a
                }
                for &(m, k, n, splits) in &[(264, 1032, 520, 3), (8, 4096, 256, 16), (136, 777, 72, 2)] {
                    let tol = GemmTol::of(GemmKernel::Auto);
                    check_gemm_split(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)?;
                    check_gemm_split(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Identity, false, 1.0, 0.0, tol)?;
                }
                Ok(())
            });
        }
    }
    // Their accuracy against the f64 reference. The 128×256 kernel sums all of k in the tensor
    // cores, whose accumulation is not f32's: within 32× the CUDA-core kernel's largest error
    // (9–17× measured on an H100) and under a quarter of plain TF32's. The 128×128 kernel, which
    // FP32 `Auto` runs, adds each 32-deep slice's sum in f32: within 2× the CUDA-core kernel's
    // (0.4–0.9× measured on four shapes, docs/runs/2026-11-24-h100-s11/e1).
    for &(m, k, n) in &[(256, 4096, 512), (512, 784, 1024)] {
        s.gpu(format!("gemm::Tf32x3Wgmma::accuracy::{m}x{k}x{n}"), move |g, rng| {
            let ha = uniform(rng, m * k, -1.0, 1.0);
            let hb = uniform(rng, k * n, -1.0, 1.0);
            let a = gpu(DeviceMatrix::from_host(g, m, k, &ha))?;
            let b = gpu(DeviceMatrix::from_host(g, k, n, &hb))?;
            if !g.supports(&kernels::matmul::GEMM_WGMMA_TF32_KK) {
                let mut c = gpu(DeviceMatrix::zeros(g, m, n))?;
                let got = gemm(g, &a, Transpose::No, &b, Transpose::No, Epilogue::default(), &mut c, GemmKernel::Tf32x3Wgmma128x128);
                return expect_err("Tf32x3Wgmma128x128 without sm_90a", got, |e| matches!(e, Error::MissingKernel { .. }));
            }
            let want = reference::gemm_f64(&ha, (m, k), false, &hb, (k, n), false, 1.0, 0.0, &vec![0.0; m * n], None, Activation::Identity);
            let mut worst = [0.0f64; 5];
            let kernels = [GemmKernel::WarpTiledWide, GemmKernel::Tf32x3Wgmma, GemmKernel::Tf32x3Wgmma128x128, GemmKernel::Tf32Wgmma, GemmKernel::Tf32x3Split];
            for (i, kernel) in kernels.into_iter().enumerate() {
                let mut c = gpu(DeviceMatrix::zeros(g, m, n))?;
                gpu(c.fill(g, f32::NAN))?;
                gpu(gemm(g, &a, Transpose::No, &b, Transpose::No, Epilogue::default(), &mut c, kernel))?;
                let got = gpu(c.to_host(g))?;
                worst[i] = got.iter().zip(&want).map(|(x, y)| if x.is_finite() { (f64::from(*x) - y).abs() } else { f64::INFINITY }).fold(0.0, f64::max);
            }
            let [f32_err, wide_err, x3_err, tf32_err, split_err] = worst;
            if wide_err > 32.0 * f32_err || wide_err > tf32_err / 4.0 || x3_err > 2.0 * f32_err || split_err > 2.0 * f32_err {
                return Err(format!(
                    "max errors: f32 {f32_err:.3e}, Tf32x3Wgmma {wide_err:.3e}, Tf32x3Wgmma128x128 {x3_err:.3e}, TF32 {tf32_err:.3e}, Tf32x3Split {split_err:.3e}"
                ));
            }
            Ok(())
        });
    }
    for kernel in [GemmKernel::Auto, GemmKernel::Tf32] {
        s.gpu(format!("matmul::Gemm({kernel:?})::odd_and_large"), move |g, rng| {
            for &shape in &[(7, 13, 5), (255, 257, 129), (1024, 1024, 1024)] {
                let tol = if kernel.is_reduced_precision() { TF32_TOL } else { F32_TOL };
                check_matmul(g, rng, MatmulKernel::Gemm(kernel), shape, tol)?;
            }
            Ok(())
        });
    }
    // Large enough that `Auto` runs the wide kernel: whole 128×256 tiles plus a 52-row and a
    // 4-column edge (run by the same launch), and a ragged last k-slice, in every layout, with
    // the epilogue.
    for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
        s.gpu(format!("gemm::Auto::wide_with_strips::ta{}_tb{}::2100x36x4100", ta as u8, tb as u8), move |g, rng| {
            check_gemm(g, rng, GemmKernel::Auto, (2100, 36, 4100), (ta, tb), Activation::Tanh, true, 0.5, 1.0, GemmTol::of(GemmKernel::Auto))
        });
    }
    // Split-K in every tile kernel and layout: edge tiles in m and n, a ragged last k-slice
    // (k = 1004: 62 full 16-deep slices and 12 left, 125 8-deep slices and 4 left), split 2, 3
    // and 7 ways; with α, β·C, bias and tanh (only the last block applies them) and overwriting
    // a poisoned C; a tiny m (the weight gradient of a 10-wide layer), an exact tile, and odd
    // sizes whose strides rule out 16-byte loads (the guarded main loop; the wide kernel
    // refuses them with `InvalidArgument`).
    for kernel in [
        GemmKernel::Tile64,
        GemmKernel::Tile64Fine,
        GemmKernel::Tile32x64,
        GemmKernel::Tile64x32,
        GemmKernel::Tile128x64,
        GemmKernel::Tile64x128,
        GemmKernel::WarpTiledFast,
        GemmKernel::WarpTiledWide,
        GemmKernel::Pipelined,
        GemmKernel::Tf32,
        GemmKernel::Tf32Tile64,
    ] {
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            for &(m, k, n) in &[(132, 1004, 260), (12, 1024, 516), (128, 512, 256), (10, 1001, 130), (131, 250, 9)] {
                for splits in [1, 2, 3, 7] {
                    s.gpu(format!("gemm::{kernel:?}::split{splits}::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                        let tol = GemmTol::of(kernel);
                        if TileModel::of(kernel).is_some_and(|t| !t.accepts(m, n, k, splits)) {
                            let a = gpu(DeviceMatrix::zeros(g, if ta { k } else { m }, if ta { m } else { k }))?;
                            let b = gpu(DeviceMatrix::zeros(g, if tb { n } else { k }, if tb { k } else { n }))?;
                            let mut c = gpu(DeviceMatrix::zeros(g, m, n))?;
                            let t = |x: bool| if x { Transpose::Yes } else { Transpose::No };
                            let got = gemm_with_plan(g, &a, t(ta), &b, t(tb), Epilogue::default(), &mut c, GemmPlan { kernel, splits });
                            return expect_err("splits shorter than 4 slices", got, |e| matches!(e, Error::InvalidArgument { .. }));
                        }
                        let strides = [if ta { m } else { k }, if tb { k } else { n }];
                        if kernel == GemmKernel::WarpTiledWide && strides.iter().chain([&m, &n]).any(|d| d % 4 != 0) {
                            let a = gpu(DeviceMatrix::zeros(g, if ta { k } else { m }, if ta { m } else { k }))?;
                            let b = gpu(DeviceMatrix::zeros(g, if tb { n } else { k }, if tb { k } else { n }))?;
                            let mut c = gpu(DeviceMatrix::zeros(g, m, n))?;
                            let t = |x: bool| if x { Transpose::Yes } else { Transpose::No };
                            let got = gemm_with_plan(g, &a, t(ta), &b, t(tb), Epilogue::default(), &mut c, GemmPlan { kernel, splits });
                            return expect_err("wide kernel without 16-byte loads", got, |e| matches!(e, Error::InvalidArgument { .. }));
                        }
                        check_gemm_split(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)?;
                        check_gemm_split(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0, tol)
                    });
                }
            }
        }
    }
    // The skinny kernel in every layout: n ≤ 16, one warp per row (split as planned, and
    // forced to 2 and 5 splits).
    for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
        // k = 1000: vector passes of 256 and 128 k, then the scalar tail; k = 1001: rows that
        // rule out vector loads.
        for &(m, k, n) in &[(300, 1000, 10), (33, 7, 16), (1, 5, 1), (1029, 4096, 3), (65, 1001, 10)] {
            s.gpu(format!("gemm::RowDot::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                let tol = GemmTol::of(GemmKernel::RowDot);
                check_gemm(g, rng, GemmKernel::RowDot, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)?;
                check_gemm(g, rng, GemmKernel::RowDot, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0, tol)
            });
            s.gpu(format!("gemm_bf16::RowDot::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                check_gemm_bf16(g, rng, Bf16Kernel::RowDot, None, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0)?;
                check_gemm_bf16(g, rng, Bf16Kernel::RowDot, Some(1), (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0)
            });
        }
        s.gpu(format!("gemm_bf16::RowDot::split5::ta{}_tb{}::40x5000x10", ta as u8, tb as u8), move |g, rng| {
            check_gemm_bf16(g, rng, Bf16Kernel::RowDot, Some(5), (40, 5000, 10), (ta, tb), Activation::Tanh, true, 0.5, 1.0)?;
            check_gemm_bf16(g, rng, Bf16Kernel::RowDot, Some(5), (40, 5000, 10), (ta, tb), Activation::Relu, true, 1.0, 0.0)
        });
        for splits in [Some(2), Some(5)] {
            s.gpu(format!("gemm::RowDot::split{}::ta{}_tb{}::40x5000x10", splits.unwrap_or(1), ta as u8, tb as u8), move |g, rng| {
                let tol = GemmTol::of(GemmKernel::RowDot);
                check_gemm_split(g, rng, GemmKernel::RowDot, splits, (40, 5000, 10), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)?;
                check_gemm_split(g, rng, GemmKernel::RowDot, splits, (40, 5000, 10), (ta, tb), Activation::Relu, true, 1.0, 0.0, tol)
            });
        }
    }
    // The column kernels (m ≤ 16, n-contiguous op(B): tb = false): odd n (a partial last quad
    // and block), k from 1 to past a split's slices, one to four block rows (m = 5, 10, 16: a
    // partial last row group), planned and forced splits (z-ordered sums: a second run gives
    // the same bits), f32 and bf16.
    for ta in [false, true] {
        for &(m, k, n) in &[(1, 1, 1), (3, 5, 1025), (4, 1000, 4100), (2, 2921, 7), (1, 4096, 4096), (5, 77, 1030), (10, 4096, 1024), (16, 1000, 2052)] {
            // Forced splits only where each is at least 4 slices long (shorter ones are refused:
            // `gemm::plan_errors`).
            let valid = |sp: u32| TileModel::of(GemmKernel::ColDot).is_some_and(|t| t.accepts(m, n, k, sp));
            for splits in [None, Some(1), Some(3)].into_iter().filter(|s| s.is_none_or(valid)) {
                let tag = splits.map_or("planned".to_string(), |s| format!("split{s}"));
                s.gpu(format!("gemm::ColDot::{tag}::ta{}_tb0::{m}x{k}x{n}", ta as u8), move |g, rng| {
                    let tol = GemmTol::of(GemmKernel::ColDot);
                    check_gemm_split(g, rng, GemmKernel::ColDot, splits, (m, k, n), (ta, false), Activation::Tanh, true, 0.5, 1.0, tol)?;
                    check_gemm_split(g, rng, GemmKernel::ColDot, splits, (m, k, n), (ta, false), Activation::Relu, true, 1.0, 0.0, tol)
                });
                s.gpu(format!("gemm_bf16::ColDot::{tag}::ta{}_tb0::{m}x{k}x{n}", ta as u8), move |g, rng| {
                    check_gemm_bf16(g, rng, Bf16Kernel::ColDot, splits, (m, k, n), (ta, false), Activation::Tanh, true, 0.5, 1.0)?;
                    check_gemm_bf16(g, rng, Bf16Kernel::ColDot, splits, (m, k, n), (ta, false), Activation::Identity, false, 1.0, 0.0)
                });
            }
        }
    }
    // The narrow kernels (at most 16 rows or columns), both forms, f32 and bf16, every layout:
    // widths 4, 8 and 16 (narrow sides 1, 3, 4, 5, 8, 9, 16), few rows and few columns, big sides
    // of a partial block or quad (1, 33, 130, 257, 1029), k from 1 through ragged chunks of 512
    // and splits (7, 300, 520, 1029, 2100), planned and forced splits (z-ordered sums: a second
    // run gives the same bits).
    for kernel in [GemmKernel::NarrowMn, GemmKernel::NarrowK] {
        let bf16 = if kernel == GemmKernel::NarrowMn { Bf16Kernel::NarrowMn } else { Bf16Kernel::NarrowK };
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            let shapes = [
                (1, 300, 130),
                (3, 1029, 1029),
                (5, 7, 64),
                (8, 2100, 257),
                (9, 1000, 33),
                (16, 520, 300),
                (130, 1029, 1),
                (1029, 300, 4),
                (257, 2100, 9),
                (33, 64, 16),
                (16, 16, 16),
                (4, 1, 5),
            ];
            for (m, k, n) in shapes {
                let (small, big) = kernels::matmul::narrow_sides(m, n);
                let valid = |sp: u32| TileModel::of(kernel).is_some_and(|t| t.accepts(small, big, k, sp));
                // 5 splits: of 2 slices (64 k) at k = 300, which only `NarrowMn` takes.
                for splits in [None, Some(1), Some(3), Some(5)].into_iter().filter(|s| s.is_none_or(valid)) {
                    let tag = splits.map_or("planned".to_string(), |s| format!("split{s}"));
                    s.gpu(format!("gemm::{kernel:?}::{tag}::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                        let tol = GemmTol::of(kernel);
                        check_gemm_split(g, rng, kernel, splits, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)?;
                        check_gemm_split(g, rng, kernel, splits, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0, tol)
                    });
                    s.gpu(format!("gemm_bf16::{bf16:?}::{tag}::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                        check_gemm_bf16(g, rng, bf16, splits, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0)?;
                        check_gemm_bf16(g, rng, bf16, splits, (m, k, n), (ta, tb), Activation::Identity, false, 1.0, 0.0)
                    });
                }
            }
        }
    }
    // What `Auto` runs on narrow and short-k products (the narrow kernels in both forms and at
    // each width, long k over a tiny output, the short-k kernel, and their neighbours' rules), in
    // every precision and layout.
    for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
        for (m, k, n) in
            [(1, 4096, 700), (6, 548, 2000), (12, 1024, 4100), (4100, 700, 3), (2, 5936, 2), (2236, 4, 588), (4670, 6, 94), (300, 10, 1024), (2193, 314, 10)]
        {
            for kernel in [GemmKernel::Auto, GemmKernel::Tf32Auto] {
                s.gpu(format!("gemm::{kernel:?}::routes::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                    let tol = GemmTol::of(kernel);
                    check_gemm(g, rng, kernel, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0, tol)
                });
            }
            s.gpu(format!("gemm_bf16::Auto::routes::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                check_gemm_bf16(g, rng, Bf16Kernel::Auto, None, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0)
            });
        }
    }
    // What `Auto` runs on few tiles with a short k: BF16 the 64×32 tile unsplit in either
    // orientation (130×1000: over n×m; 1000×100: over m×n, whose rows nn pads first), TF32
    // FP32's plan past one block of 32×32 tiles per multiprocessor (3001×45×20), every layout.
    for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
        for (m, k, n) in [(130, 700, 1000), (1000, 512, 100), (3001, 20, 45)] {
            s.gpu(format!("gemm::Tf32Auto::few_tiles::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                check_gemm(g, rng, GemmKernel::Tf32Auto, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0, GemmTol::of(GemmKernel::Tf32Auto))
            });
            s.gpu(format!("gemm_bf16::Auto::few_tiles::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                check_gemm_bf16(g, rng, Bf16Kernel::Auto, None, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0)
            });
        }
    }
    // What TF32 `Auto` runs on few rows or columns with a long k where one round of clusters
    // is too few blocks: the 128×192 register-A tile in workspace splits (32×1024×4096 nn and tn
    // in 12, tt in 16; tt 16×1536×4096 in 12), and its neighbours' plans, every layout.
    for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
        for (m, k, n) in [(32, 4096, 1024), (16, 4096, 1536)] {
            s.gpu(format!("gemm::Tf32Auto::streaming::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                check_gemm(g, rng, GemmKernel::Tf32Auto, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0, GemmTol::of(GemmKernel::Tf32Auto))
            });
        }
    }
    // What BF16 `Auto` runs in multicast pairs from k = 896 (1000³), and on the padded `wgmma`
    // tiles past the short-k kernel's k (777×27×1555, rows of 27 elements), every layout.
    for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
        for (m, k, n) in [(1000, 1000, 1000), (777, 27, 1555)] {
            s.gpu(format!("gemm_bf16::Auto::pairs_and_padding::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                check_gemm_bf16(g, rng, Bf16Kernel::Auto, None, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0)
            });
        }
    }
    // The short-k kernels (k ≤ 32), f32 and bf16, every layout: k from 1 to 32, odd m and n (a
    // partial block and quad), one block and many, C rows of a multiple of 4 floats (16-byte
    // quads) and not, grids of 16-row blocks (64-row blocks would leave multiprocessors idle:
    // 4670×6×94, 130×10×1024) and of 64-row ones (322×12×4203, 1000×9×2048).
    for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
        for (m, k, n) in
            [(1, 1, 1), (33, 7, 129), (4670, 6, 94), (322, 12, 4203), (31, 32, 5), (64, 17, 257), (5, 3, 2000), (130, 10, 1024), (71, 31, 516), (1000, 9, 2048)]
        {
            s.gpu(format!("gemm::ShortK::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                let tol = GemmTol::of(GemmKernel::ShortK);
                check_gemm(g, rng, GemmKernel::ShortK, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)?;
                check_gemm(g, rng, GemmKernel::ShortK, (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0, tol)
            });
            s.gpu(format!("gemm_bf16::ShortK::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                check_gemm_bf16(g, rng, Bf16Kernel::ShortK, None, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0)?;
                check_gemm_bf16(g, rng, Bf16Kernel::ShortK, None, (m, k, n), (ta, tb), Activation::Identity, false, 1.0, 0.0)
            });
        }
    }
    // The short-k BF16 tensor-core tile, every layout: one chunk of 32 k and several (ragged:
    // 33, 84, 1000), k of 1, odd m and n (partial tiles, C rows off 16 bytes), operand rows of
    // an odd number of elements (element loads at any alignment), one block and many (32×32
    // tiles on grids short of a wave, 64×64 ones past it: 1000×2003, 999×2049); split-K is
    // refused.
    for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
        for (m, k, n) in [
            (1, 1, 1),
            (33, 7, 129),
            (65, 32, 63),
            (130, 33, 70),
            (71, 84, 516),
            (6308, 20, 37),
            (5, 3, 2000),
            (200, 1000, 3),
            (128, 64, 128),
            (1000, 20, 2003),
            (999, 77, 2049),
        ] {
            s.gpu(format!("gemm_bf16::ShortKMma::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                check_gemm_bf16(g, rng, Bf16Kernel::ShortKMma, None, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0)?;
                check_gemm_bf16(g, rng, Bf16Kernel::ShortKMma, None, (m, k, n), (ta, tb), Activation::Identity, false, 1.0, 0.0)?;
                expect_refused_bf16_plan(g, Bf16Plan::new(Bf16Kernel::ShortKMma, 2), (m, k, n), (ta, tb), "no split-K")
            });
        }
    }
    // Split-K in the BF16 mma.sync kernels, every layout: edge tiles, a ragged last 64-deep
    // slice (k = 1000: 15 full slices and 40 left), splits of 2 and 3 (and a refused 5: splits
    // shorter than 4 slices), odd strides (guarded copies), a tiny m.
    for kernel in [Bf16Kernel::MmaLdmatrix, Bf16Kernel::MmaTile64] {
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            for &(m, k, n) in &[(132, 1000, 260), (10, 1024, 130), (131, 777, 9)] {
                for splits in [1, 2, 3, 5] {
                    s.gpu(format!("gemm_bf16::{kernel:?}::split{splits}::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                        if TileModel::of_bf16(kernel).is_some_and(|t| !t.accepts(m, n, k, splits)) {
                            return expect_refused_bf16_plan(g, Bf16Plan::new(kernel, splits), (m, k, n), (ta, tb), "splits shorter than 4 slices");
                        }
                        check_gemm_bf16(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0)?;
                        check_gemm_bf16(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0)
                    });
                }
            }
        }
    }
    // Split-K in the TF32 wgmma kernels, in every layout: MN-major operands (m and n multiples
    // of 4) are transposed in shared memory by the producers. Up to 8 splits run as one
    // cluster (7 and 8 of 2-slice ranges; 3 rows for 8 splits: blocks with no rows to finish),
    // 16, 24 and 64 as clusters of 8 whose sums meet in the workspace (several tiles, edge
    // tiles).
    for kernel in [GemmKernel::Tf32Wgmma, GemmKernel::Tf32Wgmma128x208, GemmKernel::Tf32Wgmma64x128, GemmKernel::Tf32Wgmma64x64] {
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            s.gpu(format!("gemm::{kernel:?}::split::ta{}_tb{}", ta as u8, tb as u8), move |g, rng| {
                if !g.supports(&kernels::matmul::GEMM_WGMMA_TF32_KK) {
                    return Ok(()); // checked by the MissingKernel test above on GPUs without sm_90a
                }
                for &(m, k, n, splits) in &[
                    (264, 1032, 520, 3),
                    (8, 4096, 256, 16),
                    (136, 776, 72, 2),
                    (200, 2048, 136, 5),
                    (3, 512, 200, 8),
                    (72, 448, 132, 7),
                    (136, 3072, 200, 24),
                    (72, 8192, 136, 64),
                ] {
                    let tol = GemmTol::of(kernel);
                    check_gemm_split(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0, tol)?;
                    check_gemm_split(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Identity, false, 1.0, 0.0, tol)?;
                }
                Ok(())
            });
        }
    }
    // Split-K in the BF16 wgmma kernels, every layout (row strides multiples of 8, as the copy
    // engine needs): edge tiles, a ragged last 64-deep slice (k = 776), 2, 3, 5, 7 and 8 splits
    // in a cluster (8 rows for 8 splits: one row each), 16, 24 and 64 as clusters of 8 whose
    // sums meet in the workspace (several tiles, edge tiles, a ragged last slice). The swapped
    // kernels' tiles and splits are over n×m.
    for kernel in BF16_WGMMA {
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            s.gpu(format!("gemm_bf16::{kernel:?}::split::ta{}_tb{}", ta as u8, tb as u8), move |g, rng| {
                for &(m, k, n, splits) in &[
                    (136, 1024, 264, 3),
                    (8, 4096, 256, 5),
                    (200, 776, 72, 2),
                    (8, 1024, 200, 8),
                    (104, 896, 136, 7),
                    (8, 4096, 256, 16),
                    (136, 6100, 200, 24),
                    (72, 16384, 136, 64),
                    // More 64×128 tiles than an H100 or H200 has multiprocessors: the four-stage
                    // kernel.
                    (1160, 264, 1032, 1),
                    // Few tiles and at least `DEEP_MIN_K` per split: the 64×128 tile with eight
                    // stages (`deepen_lone_tile`), a ragged last slice.
                    (200, 4100, 264, 1),
                    (136, 4200, 200, 2),
                ] {
                    check_gemm_bf16(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0)?;
                    check_gemm_bf16(g, rng, kernel, Some(splits), (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0)?;
                }
                Ok(())
            });
        }
    }
    // The BF16 wgmma tiles with operands copied into 256-byte rows first, every layout: rows off
    // the 32-byte sectors (776 and 200 columns), one operand on them and one not (1024 and 72),
    // strides the copy engine cannot read at all (777, 130), unsplit and split.
    for kernel in [Bf16Kernel::Wgmma, Bf16Kernel::Wgmma64x128, Bf16Kernel::Wgmma64x64, Bf16Kernel::WgmmaSwapped, Bf16Kernel::Wgmma64x32] {
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            s.gpu(format!("gemm_bf16::{kernel:?}::aligned_rows::ta{}_tb{}", ta as u8, tb as u8), move |g, rng| {
                for &(m, k, n, splits) in &[(136, 776, 200, 1), (136, 776, 200, 3), (128, 1024, 72, 2), (100, 777, 130, 1), (24, 1000, 8, 1)] {
                    let plan = Bf16Plan { align_rows: true, ..Bf16Plan::new(kernel, splits) };
                    check_bf16_plan(g, rng, kernel, Some(plan), (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0)?;
                    check_bf16_plan(g, rng, kernel, Some(plan), (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0)?;
                }
                Ok(())
            });
        }
    }
    // The BF16 wgmma tiles in multicast clusters (tiles of a column sharing op(B), of a row
    // op(A)), every layout and cluster shape: edge tiles, a ragged last slice (k = 776), K-major
    // tiles past C in some pieces (n = 72, 200), tile grids padded to whole clusters (odd tile
    // rows and columns, a single tile), 1–4 splits in one cluster with the multicast blocks,
    // copied rows. The 64×128 and 128×192 tiles have kernels for pairs and 2 × 2 clusters; the
    // other tiles and clusters, 5 splits and clusters of more than 8 blocks are refused
    // (`Bf16Plan::multicast_fits`).
    let shapes = [(2, 1), (2, 2), (1, 2), (4, 2)];
    for kernel in BF16_WGMMA {
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            s.gpu(format!("gemm_bf16::{kernel:?}::multicast::ta{}_tb{}", ta as u8, tb as u8), move |g, rng| {
                let cases = [
                    (200, 776, 200, 1, false),
                    (256, 1024, 136, 3, false),
                    (392, 2048, 520, 4, false),
                    (128, 512, 264, 2, false),
                    (256, 776, 72, 2, true),
                    (40, 136, 50, 1, false),
                    (328, 520, 904, 1, false),
                    (1160, 264, 1032, 1, false),
                    (200, 4100, 200, 1, false),
                    (256, 4160, 136, 2, false),
                    (256, 1024, 256, 5, false),
                ];
                for (along_m, along_n) in shapes {
                    let multicast = Multicast { along_m, along_n };
                    for &(m, k, n, splits, align_rows) in &cases {
                        let plan = Bf16Plan { align_rows, multicast, ..Bf16Plan::new(kernel, splits) };
                        if !plan.multicast_fits() {
                            let what = format!("multicast {along_m}×{along_n} {kernel:?} in {splits} splits for {m}×{n}");
                            expect_refused_bf16_plan(g, plan, (m, k, n), (ta, tb), &what)?;
                            continue;
                        }
                        check_bf16_plan(g, rng, kernel, Some(plan), (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0)?;
                        check_bf16_plan(g, rng, kernel, Some(plan), (m, k, n), (ta, tb), Activation::Relu, true, 1.0, 0.0)?;
                    }
                }
                Ok(())
            });
        }
    }
    s.gpu("gemm::plan_errors", |g, _| {
        let a = gpu(DeviceMatrix::zeros(g, 64, 64))?;
        let mut c = gpu(DeviceMatrix::zeros(g, 64, 64))?;
        let odd = gpu(DeviceMatrix::zeros(g, 64, 63))?;
        let mut c63 = gpu(DeviceMatrix::zeros(g, 64, 63))?;
        let e = Epilogue::default();
        let (no, yes) = (Transpose::No, Transpose::Yes);
        let bad = |what: &str, r| expect_err(what, r, |e| matches!(e, Error::InvalidArgument { .. }));
        bad("Auto is not a plan", gemm_with_plan(g, &a, no, &a, no, e, &mut c, GemmPlan { kernel: GemmKernel::Auto, splits: 1 }))?;
        bad("0 splits", gemm_with_plan(g, &a, no, &a, no, e, &mut c, GemmPlan { kernel: GemmKernel::Tile64, splits: 0 }))?;
        bad("65 splits", gemm_with_plan(g, &a, no, &a, no, e, &mut c, GemmPlan { kernel: GemmKernel::Tile64, splits: 65 }))?;
        bad("splits shorter than 4 slices", gemm_with_plan(g, &a, no, &a, no, e, &mut c, GemmPlan { kernel: GemmKernel::Tile64, splits: 2 }))?;
        bad("a kernel without split-K", gemm_with_plan(g, &a, no, &a, no, e, &mut c, GemmPlan { kernel: GemmKernel::WarpTiled, splits: 2 }))?;
        bad(
            "the wide kernel without 16-byte loads",
            gemm_with_plan(g, &a, no, &odd, no, e, &mut c63, GemmPlan { kernel: GemmKernel::WarpTiledWide, splits: 1 }),
        )?;
        let wide = gpu(DeviceMatrix::zeros(g, 64, 17))?;
        let mut c17 = gpu(DeviceMatrix::zeros(g, 64, 17))?;
        bad("RowDot with 17 columns", gemm(g, &a, no, &wide, no, e, &mut c17, GemmKernel::RowDot))?;
        let tall = gpu(DeviceMatrix::zeros(g, 17, 64))?;
        let mut c17x17 = gpu(DeviceMatrix::zeros(g, 17, 17))?;
        bad("ColDot on more than 16 rows", gemm(g, &tall, no, &wide, no, e, &mut c17x17, GemmKernel::ColDot))?;
        bad("ShortK with k = 64", gemm(g, &a, no, &a, no, e, &mut c, GemmKernel::ShortK))?;
        let a16 = gpu(DeviceMatrixBf16::from_f32(g, 64, 64, &[0.0; 64 * 64]))?;
        let plan = Bf16Plan { align_rows: true, ..Bf16Plan::new(Bf16Kernel::MmaTile64, 1) };
        bad("aligned rows for an mma.sync tile", gemm_bf16_with_plan(g, &a16, no, &a16, no, e, &mut c, plan))?;
        let plan = Bf16Plan { multicast: Multicast::PAIRS, ..Bf16Plan::new(Bf16Kernel::MmaTile64, 1) };
        bad("multicast pairs for an mma.sync tile", gemm_bf16_with_plan(g, &a16, no, &a16, no, e, &mut c, plan))?;
        let plan = Bf16Plan { multicast: Multicast { along_m: 2, along_n: 8 }, ..Bf16Plan::new(Bf16Kernel::Wgmma64x128, 1) };
        bad("a multicast cluster of 16 blocks", gemm_bf16_with_plan(g, &a16, no, &a16, no, e, &mut c, plan))?;
        for kernel in [GemmKernel::NarrowMn, GemmKernel::NarrowK] {
            bad("a narrow kernel on 17 rows and 17 columns", gemm(g, &tall, no, &wide, no, e, &mut c17x17, kernel))?;
            let (tall16, wide16) = (gpu(DeviceMatrixBf16::from_f32(g, 17, 64, &[0.0; 17 * 64]))?, gpu(DeviceMatrixBf16::from_f32(g, 64, 17, &[0.0; 64 * 17]))?);
            let bf16 = if kernel == GemmKernel::NarrowMn { Bf16Kernel::NarrowMn } else { Bf16Kernel::NarrowK };
            bad("a bf16 narrow kernel on 17 rows and 17 columns", gemm_bf16_with(g, &tall16, no, &wide16, no, e, &mut c17x17, bf16))?;
            bad(
                "a narrow kernel split 2 ways over 64 k (one slice)",
                gemm_with_plan(
                    g,
                    &tall,
                    no,
                    &gpu(DeviceMatrix::zeros(g, 64, 4))?,
                    no,
                    e,
                    &mut gpu(DeviceMatrix::zeros(g, 17, 4))?,
                    GemmPlan { kernel, splits: 2 },
                ),
            )?;
        }
        let w10 = gpu(DeviceMatrix::zeros(g, 10, 64))?;
        let mut c10 = gpu(DeviceMatrix::zeros(g, 64, 10))?;
        bad(
            "RowDot split 2 ways over one 128-deep slice",
            gemm_with_plan(g, &a, no, &w10, yes, e, &mut c10, GemmPlan { kernel: GemmKernel::RowDot, splits: 2 }),
        )?;
        Ok(())
    });
    s.gpu("gemm::shape_errors", |g, _| {
        let a = gpu(DeviceMatrix::zeros(g, 4, 3))?;
        let b = gpu(DeviceMatrix::zeros(g, 5, 3))?;
        let mut c = gpu(DeviceMatrix::zeros(g, 4, 5))?;
        expect_err("4x3 · 5x3", gemm(g, &a, Transpose::No, &b, Transpose::No, Epilogue::default(), &mut c, GemmKernel::Auto), |e| {
            matches!(e, Error::ShapeMismatch { .. })
        })?;
        gpu(gemm(g, &a, Transpose::No, &b, Transpose::Yes, Epilogue::default(), &mut c, GemmKernel::Auto))?;
        let bias = gpu(DeviceVector::zeros(g, 4))?;
        expect_err(
            "bias 4 for n=5",
            gemm(g, &a, Transpose::No, &b, Transpose::Yes, Epilogue::bias_act(&bias, Activation::Relu), &mut c, GemmKernel::Auto),
            |e| matches!(e, Error::ShapeMismatch { .. }),
        )
    });
    s.gpu("matmul::empty_and_k0", |g, _| {
        let a = gpu(DeviceMatrix::from_host(g, 0, 3, &[]))?;
        let b = gpu(DeviceMatrix::zeros(g, 3, 4))?;
        if gpu(matmul(g, &a, &b))?.shape() != (0, 4) {
            return Err("0x3 · 3x4 must be 0x4".into());
        }
        let a = gpu(DeviceMatrix::from_host(g, 2, 0, &[]))?;
        let b = gpu(DeviceMatrix::from_host(g, 0, 3, &[]))?;
        let mut c = gpu(DeviceMatrix::filled(g, 2, 3, f32::NAN))?;
        gpu(matmul_into(g, &a, &b, &mut c, MatmulKernel::Naive))?;
        if gpu(c.to_host(g))? != vec![0.0; 6] {
            return Err("2x0 · 0x3 must be zeros".into());
        }
        Ok(())
    });
    s.gpu("matmul::shape_mismatch", |g, _| {
        let a = gpu(DeviceMatrix::zeros(g, 2, 3))?;
        expect_err("2x3 · 2x3", matmul(g, &a, &a), |e| matches!(e, Error::ShapeMismatch { .. }))?;
        let b = gpu(DeviceMatrix::zeros(g, 3, 5))?;
        let mut c = gpu(DeviceMatrix::zeros(g, 2, 4))?;
        expect_err("output 2x4 for 2x5", matmul_into(g, &a, &b, &mut c, MatmulKernel::Naive), |e| matches!(e, Error::ShapeMismatch { .. }))
    });
    s.cpu("matmul::nalgebra_reference_matches_f64", |rng| {
        let (m, k, n) = (37, 53, 29);
        let a = uniform(rng, m * k, -1.0, 1.0);
        let b = uniform(rng, k * n, -1.0, 1.0);
        let want = reference::matmul_f64(&a, &b, m, k, n);
        let mag = matmul_magnitude(&a, &b, m, k, n);
        assert_close_scaled("nalgebra", &reference::matmul_nalgebra(&a, &b, m, k, n), &want, &mag, F32_TOL)?;
        assert_close_scaled("naive loops", &reference::matmul_naive(&a, &b, m, k, n), &want, &mag, F32_TOL)
    });
}

/// Checks a BF16 kernel: inputs drawn in f32, rounded to bf16 (so the f64 reference sees exactly
/// what the tensor cores multiply); products of bf16 are exact in f32, so what remains is f32
/// accumulation error, bounded as for the f32 kernels (with a looser 1e-4·√k absolute term for the
/// tensor cores' internal accumulation order). C is poisoned with NaN when β = 0.
#[allow(clippy::too_many_arguments)]
pub fn check_gemm_bf16(
    g: &host::Gpu,
    rng: &mut rand::rngs::StdRng,
    kernel: Bf16Kernel,
    splits: Option<u32>,
    mkn: (usize, usize, usize),
    layout: (bool, bool),
    act: Activation,
    with_bias: bool,
    alpha: f32,
    beta: f32,
) -> Result<(), String> {
    check_bf16_plan(g, rng, kernel, splits.map(|s| Bf16Plan::new(kernel, s)), mkn, layout, act, with_bias, alpha, beta)
}

/// [`check_gemm_bf16`] with a whole plan of `kernel` (its copies into aligned rows and its
/// multicast pairs as well as its splits).
#[allow(clippy::too_many_arguments)]
pub fn check_bf16_plan(
    g: &host::Gpu,
    rng: &mut rand::rngs::StdRng,
    kernel: Bf16Kernel,
    plan: Option<Bf16Plan>,
    (m, k, n): (usize, usize, usize),
    (ta, tb): (bool, bool),
    act: Activation,
    with_bias: bool,
    alpha: f32,
    beta: f32,
) -> Result<(), String> {
    let (splits, align_rows, multicast) = (plan.map(|p| p.splits), plan.is_some_and(|p| p.align_rows), plan.map_or(Multicast::OFF, |p| p.multicast));
    let round = |v: Vec<f32>| v.into_iter().map(|x| bf16_to_f32(f32_to_bf16(x))).collect::<Vec<f32>>();
    let (ashape, bshape) = (if ta { (k, m) } else { (m, k) }, if tb { (n, k) } else { (k, n) });
    let a = round(uniform(rng, m * k, -1.0, 1.0));
    let b = round(uniform(rng, k * n, -1.0, 1.0));
    let c0 = uniform(rng, m * n, -1.0, 1.0);
    let bias = uniform(rng, n, -1.0, 1.0);
    let da = gpu(DeviceMatrixBf16::from_f32(g, ashape.0, ashape.1, &a))?;
    let db = gpu(DeviceMatrixBf16::from_f32(g, bshape.0, bshape.1, &b))?;
    if gpu(da.to_f32(g))? != a {
        return Err("bf16 upload does not round-trip already-rounded values".into());
    }
    let dbias = gpu(DeviceVector::from_host(g, &bias))?;
    let mut dc = gpu(DeviceMatrix::from_host(g, m, n, &c0))?;
    if beta == 0.0 {
        dc.fill(g, f32::NAN).map_err(|e| e.to_string())?;
    }
    let t = |x: bool| if x { Transpose::Yes } else { Transpose::No };
    let epi = Epilogue { alpha, beta, bias: with_bias.then_some(&dbias), act, bf16_copy: None };
    let r = match splits {
        None => gemm_bf16_with(g, &da, t(ta), &db, t(tb), epi, &mut dc, kernel),
        Some(_) => gemm_bf16_with_plan(g, &da, t(ta), &db, t(tb), epi, &mut dc, plan.expect("a plan")),
    };
    // op(B) is n-contiguous unless B is transposed with more than one column (k > 1).
    if kernel == Bf16Kernel::ColDot && (m > kernels::matmul::COLDOT_MAX_ROWS || (tb && k > 1)) {
        return expect_err(&format!("bf16 ColDot on {m} rows, tb={tb}"), r, |e| matches!(e, Error::InvalidArgument { .. }));
    }
    if kernel == Bf16Kernel::ShortK && k > kernels::matmul::SHORTK_MAX {
        return expect_err(&format!("bf16 ShortK with k = {k}"), r, |e| matches!(e, Error::InvalidArgument { .. }));
    }
    if matches!(kernel, Bf16Kernel::NarrowMn | Bf16Kernel::NarrowK) && m.min(n) > kernels::matmul::NARROW_MAX {
        return expect_err(&format!("bf16 {kernel:?} on {m}×{n}"), r, |e| matches!(e, Error::InvalidArgument { .. }));
    }
    if kernel == Bf16Kernel::RowDot && n > kernels::matmul::SKINNY_MAX {
        return expect_err(&format!("bf16 RowDot with {n} columns"), r, |e| matches!(e, Error::InvalidArgument { .. }));
    }
    if kernel.is_wgmma() {
        // The copy engine needs 16-byte row strides; the kernel exists only in sm_90a PTX.
        let what = format!("forced Wgmma on {ashape:?}/{bshape:?} bf16");
        if !g.supports(&kernels::matmul::GEMM_WGMMA_BF16_KK) {
            return expect_err(&what, r, |e| matches!(e, Error::MissingKernel { .. }));
        }
        // With aligned rows every such operand is copied first.
        if (ashape.1 % 8 != 0 || bshape.1 % 8 != 0) && !align_rows {
            return expect_err(&what, r, |e| matches!(e, Error::InvalidArgument { .. }));
        }
    }
    gpu(r)?;
    let want = reference::gemm_f64(&a, ashape, ta, &b, bshape, tb, alpha, beta, &c0, with_bias.then_some(&bias[..]), act);
    let atol = 1e-4 * (k as f64).sqrt().max(1.0);
    let got = gpu(dc.to_host(g))?;
    assert_close(
        &format!("gemm_bf16 {kernel:?} splits {splits:?} aligned {align_rows} multicast {multicast:?} ta={ta} tb={tb} {m}x{k}x{n}"),
        &got,
        &want,
        1e-4,
        atol,
    )?;
    if let Some(splits) = splits.filter(|&s| s > 1 && beta == 0.0) {
        // Split-K adds its partial products in a fixed order: a second run gives the same bits.
        dc.fill(g, f32::NAN).map_err(|e| e.to_string())?;
        gpu(gemm_bf16_with_plan(g, &da, t(ta), &db, t(tb), epi, &mut dc, plan.expect("a plan")))?;
        if gpu(dc.to_host(g))?.iter().zip(&got).any(|(x, y)| x.to_bits() != y.to_bits()) {
            return Err(format!("gemm_bf16 {kernel:?} splits {splits} {m}x{k}x{n}: a second run differs"));
        }
    }
    Ok(())
}

/// Every BF16 `wgmma` kernel (the split and multicast tests run each).
const BF16_WGMMA: [Bf16Kernel; 8] = [
    Bf16Kernel::Wgmma,
    Bf16Kernel::Wgmma128x208,
    Bf16Kernel::Wgmma128x192,
    Bf16Kernel::Wgmma64x128,
    Bf16Kernel::Wgmma64x64,
    Bf16Kernel::WgmmaSwapped,
    Bf16Kernel::Wgmma64x32,
    Bf16Kernel::Wgmma64x32Swapped,
];

/// `plan` on zeroed m×k×n bf16 operands of layout (ta, tb): an `InvalidArgument` error (`what`
/// names the case).
fn expect_refused_bf16_plan(g: &host::Gpu, plan: Bf16Plan, (m, k, n): (usize, usize, usize), (ta, tb): (bool, bool), what: &str) -> Result<(), String> {
    let a = gpu(DeviceMatrixBf16::from_f32(g, if ta { k } else { m }, if ta { m } else { k }, &vec![0.0; m * k]))?;
    let b = gpu(DeviceMatrixBf16::from_f32(g, if tb { n } else { k }, if tb { k } else { n }, &vec![0.0; k * n]))?;
    let mut c = gpu(DeviceMatrix::zeros(g, m, n))?;
    let t = |x: bool| if x { Transpose::Yes } else { Transpose::No };
    let got = gemm_bf16_with_plan(g, &a, t(ta), &b, t(tb), Epilogue::default(), &mut c, plan);
    expect_err(what, got, |e| matches!(e, Error::InvalidArgument { .. }))
}

/// A forced TF32 `wgmma` kernel on a GPU without sm_90a PTX: a `MissingKernel` error.
fn expect_missing_wgmma(g: &host::Gpu, kernel: GemmKernel, (m, k, n): (usize, usize, usize)) -> Result<(), String> {
    let a = gpu(DeviceMatrix::zeros(g, m, k))?;
    let b = gpu(DeviceMatrix::zeros(g, n, k))?;
    let mut c = gpu(DeviceMatrix::zeros(g, m, n))?;
    let got = gemm(g, &a, Transpose::No, &b, Transpose::Yes, Epilogue::default(), &mut c, kernel);
    expect_err(&format!("{kernel:?} without sm_90a"), got, |e| matches!(e, Error::MissingKernel { .. }))
}

/// Error bounds of a GEMM kernel against the f64 reference: |got − want| ≤ max(rtol·|want|,
/// atol·√k).
#[derive(Debug, Clone, Copy)]
pub struct GemmTol {
    pub rtol: f64,
    pub atol: f64,
}

impl GemmTol {
    /// f32 inputs: pre-activation values are O(√k) and f32 summation error ≲ √k·2⁻²⁴·k, so 1e-5·√k
    /// holds with a wide margin; the activations are 1-Lipschitz. TF32: products carry ~1e-3
    /// relative error with random signs, so the sum is off by ~1e-3·√k·E|ab| (E|ab| = 1/4 here):
    /// 2e-3·√k leaves a 8σ margin.
    pub fn of(kernel: GemmKernel) -> GemmTol {
        if kernel.is_reduced_precision() { GemmTol { rtol: 2e-3, atol: 2e-3 } } else { GemmTol { rtol: 1e-4, atol: 1e-5 } }
    }
}

/// Checks one GEMM configuration (layouts, epilogue) against the f64 reference: fresh random
/// inputs, C poisoned with NaN when β = 0 (so every output must be written). `splits`: run
/// exactly this plan through [`gemm_with_plan`] (and, split, check that a second run gives the
/// same bits), else [`gemm`] picks.
#[allow(clippy::too_many_arguments)]
pub fn check_gemm_split(
    g: &host::Gpu,
    rng: &mut rand::rngs::StdRng,
    kernel: GemmKernel,
    splits: Option<u32>,
    (m, k, n): (usize, usize, usize),
    (ta, tb): (bool, bool),
    act: Activation,
    with_bias: bool,
    alpha: f32,
    beta: f32,
    tol: GemmTol,
) -> Result<(), String> {
    let (ashape, bshape) = (if ta { (k, m) } else { (m, k) }, if tb { (n, k) } else { (k, n) });
    let a = uniform(rng, m * k, -1.0, 1.0);
    let b = uniform(rng, k * n, -1.0, 1.0);
    let c0 = uniform(rng, m * n, -1.0, 1.0);
    let bias = uniform(rng, n, -1.0, 1.0);
    let da = gpu(DeviceMatrix::from_host(g, ashape.0, ashape.1, &a))?;
    let db = gpu(DeviceMatrix::from_host(g, bshape.0, bshape.1, &b))?;
    let dbias = gpu(DeviceVector::from_host(g, &bias))?;
    let mut dc = gpu(DeviceMatrix::from_host(g, m, n, &c0))?;
    if beta == 0.0 {
        dc.fill(g, f32::NAN).map_err(|e| e.to_string())?;
    }
    let t = |x: bool| if x { Transpose::Yes } else { Transpose::No };
    let epi = Epilogue { alpha, beta, bias: with_bias.then_some(&dbias), act, bf16_copy: None };
    match splits {
        None => gpu(gemm(g, &da, t(ta), &db, t(tb), epi, &mut dc, kernel))?,
        Some(splits) => gpu(gemm_with_plan(g, &da, t(ta), &db, t(tb), epi, &mut dc, GemmPlan { kernel, splits }))?,
    }
    let want = reference::gemm_f64(&a, ashape, ta, &b, bshape, tb, alpha, beta, &c0, with_bias.then_some(&bias[..]), act);
    let atol = tol.atol * (k as f64).sqrt().max(1.0);
    let got = gpu(dc.to_host(g))?;
    assert_close(&format!("gemm {kernel:?} splits {splits:?} ta={ta} tb={tb} {m}x{k}x{n}"), &got, &want, tol.rtol, atol)?;
    if splits.is_some_and(|s| s > 1) && beta == 0.0 {
        // Split-K adds its partial products in a fixed order: a second run gives the same bits.
        dc.fill(g, f32::NAN).map_err(|e| e.to_string())?;
        gpu(gemm_with_plan(g, &da, t(ta), &db, t(tb), epi, &mut dc, GemmPlan { kernel, splits: splits.unwrap_or(1) }))?;
        if gpu(dc.to_host(g))?.iter().zip(&got).any(|(x, y)| x.to_bits() != y.to_bits()) {
            return Err(format!("gemm {kernel:?} splits {splits:?} {m}x{k}x{n}: a second run differs"));
        }
    }
    Ok(())
}

/// `check_gemm` through [`gemm`] with the kernel's own plan.
#[allow(clippy::too_many_arguments)]
pub fn check_gemm(
    g: &host::Gpu,
    rng: &mut rand::rngs::StdRng,
    kernel: GemmKernel,
    shape: (usize, usize, usize),
    layout: (bool, bool),
    act: Activation,
    with_bias: bool,
    alpha: f32,
    beta: f32,
    tol: GemmTol,
) -> Result<(), String> {
    check_gemm_split(g, rng, kernel, None, shape, layout, act, with_bias, alpha, beta, tol)
}

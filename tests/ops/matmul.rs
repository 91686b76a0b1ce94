use host::ops::matmul::{Activation, Epilogue, GemmKernel, MatmulKernel, Transpose, gemm, matmul, matmul_into};
use host::DeviceVector;
use integration_tests::assert_close;
use host::{DeviceMatrix, Error, reference};
use integration_tests::{Suite, assert_close_scaled, expect_err, gpu, matmul_magnitude, uniform};

/// (m, k, n): vectors, odd sizes, around the 16×16 block, one large.
const SHAPES: &[(usize, usize, usize)] =
    &[(1, 1, 1), (1, 1000, 1), (1, 64, 1000), (1000, 64, 1), (7, 13, 5), (17, 31, 33), (65, 129, 63), (255, 257, 129), (1024, 1024, 1024)];

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

pub fn register(s: &mut Suite) {
    for &shape in SHAPES {
        s.gpu(format!("matmul::Naive::{}x{}x{}", shape.0, shape.1, shape.2), move |g, rng| check_matmul(g, rng, MatmulKernel::Naive, shape, F32_TOL));
    }
    for kernel in [GemmKernel::Naive, GemmKernel::Auto] {
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            for &(m, k, n) in &[(1usize, 1usize, 1usize), (17, 33, 9), (129, 65, 257)] {
                s.gpu(format!("gemm::{kernel:?}::ta{}_tb{}::{m}x{k}x{n}", ta as u8, tb as u8), move |g, rng| {
                    check_gemm(g, rng, kernel, (m, k, n), (ta, tb), Activation::Tanh, true, 0.5, 1.0)
                });
            }
        }
    }
    s.gpu("gemm::shape_errors", |g, _| {
        let a = gpu(DeviceMatrix::zeros(g, 4, 3))?;
        let b = gpu(DeviceMatrix::zeros(g, 5, 3))?;
        let mut c = gpu(DeviceMatrix::zeros(g, 4, 5))?;
        expect_err("4x3 · 5x3", gemm(g, &a, Transpose::No, &b, Transpose::No, Epilogue::default(), &mut c, GemmKernel::Auto), |e| matches!(e, Error::ShapeMismatch { .. }))?;
        gpu(gemm(g, &a, Transpose::No, &b, Transpose::Yes, Epilogue::default(), &mut c, GemmKernel::Auto))?;
        let bias = gpu(DeviceVector::zeros(g, 4))?;
        expect_err("bias 4 for n=5", gemm(g, &a, Transpose::No, &b, Transpose::Yes, Epilogue::bias_act(&bias, Activation::Relu), &mut c, GemmKernel::Auto), |e| matches!(e, Error::ShapeMismatch { .. }))
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

/// Checks one GEMM configuration (layouts, epilogue) against the f64 reference.
#[allow(clippy::too_many_arguments)]
pub fn check_gemm(
    g: &host::Gpu,
    rng: &mut rand::rngs::StdRng,
    kernel: GemmKernel,
    (m, k, n): (usize, usize, usize),
    (ta, tb): (bool, bool),
    act: Activation,
    with_bias: bool,
    alpha: f32,
    beta: f32,
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
    let epi = Epilogue { alpha, beta, bias: with_bias.then_some(&dbias), act };
    gpu(gemm(g, &da, t(ta), &db, t(tb), epi, &mut dc, kernel))?;
    let want = reference::gemm_f64(&a, ashape, ta, &b, bshape, tb, alpha, beta, &c0, with_bias.then_some(&bias[..]), act);
    // Pre-activation values are O(√k); f32 summation error ≲ √k·2⁻²⁴·k, and tanh is 1-Lipschitz.
    let atol = 1e-5 * (k as f64).sqrt().max(1.0);
    assert_close(&format!("gemm {kernel:?} ta={ta} tb={tb} {m}x{k}x{n}"), &gpu(dc.to_host(g))?, &want, 1e-4, atol)
}

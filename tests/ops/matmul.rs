use host::ops::matmul::{MatmulKernel, matmul, matmul_into};
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

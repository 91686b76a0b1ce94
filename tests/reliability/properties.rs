//! Property tests: each op against its CPU reference over random shapes (1×N, N×1, sizes just
//! below and above block and tile multiples) and values that include ±0, subnormals, huge
//! magnitudes, NaN and ±∞. The runner is proptest's, seeded from the suite's seed; a failure
//! prints the shrunk input, which then goes into `REGRESSIONS` below so it is re-run forever.

use host::ops::activation::{Activation, activation_into};
use host::ops::dense::dense_into;
use host::ops::elementwise::{VecAddKernel, mat_add_into, vec_add_into};
use host::ops::matmul::{Epilogue, GemmKernel, MatmulKernel, Transpose, gemm, matmul_into};
use host::{DeviceMatrix, DeviceVector, Gpu, reference};
use integration_tests::{Suite, assert_bitwise_eq, assert_close, assert_close_scaled, matmul_magnitude, scaled};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use rand::RngCore;

/// Cases per property (each is a full GPU round trip): 64, or 8 at the sanitize scale.
fn cases() -> u32 {
    scaled(64, 8)
}

/// Matrix cases are larger; fewer of them: 32, or 4 at the sanitize scale.
fn matrix_cases() -> u32 {
    scaled(32, 4)
}

/// Shrunk failures found so far, re-run before the random cases: (op, shape…).
/// Edge lengths for the vectorized kernels (tails of 1–3 after the last 16-byte quad) are here
/// from the start.
const REGRESSION_LENGTHS: &[usize] = &[0, 1, 2, 3, 5, 6, 7, 1023, 1025];

/// A value from the whole f32 zoo.
fn any_value() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -1e3f32..1e3,
        1 => Just(0.0f32),
        1 => Just(-0.0f32),
        1 => prop_oneof![Just(1e-40f32), Just(-1e-40f32), Just(f32::MIN_POSITIVE / 2.0)],
        1 => prop_oneof![Just(1e30f32), Just(-1e30f32), Just(f32::MAX), Just(-f32::MAX)],
        1 => prop_oneof![Just(f32::NAN), Just(f32::INFINITY), Just(f32::NEG_INFINITY)],
    ]
}

/// Finite values of moderate size (for products, where f32 overflow would differ from f64).
fn finite_value() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -4.0f32..4.0,
        1 => Just(0.0f32),
        1 => Just(-0.0f32),
        1 => Just(1e-40f32),
    ]
}

/// Lengths biased to block (256) and vector (4) boundaries.
fn length() -> impl Strategy<Value = usize> {
    prop_oneof![
        2 => 1usize..40,
        2 => (1usize..8).prop_flat_map(|b| (b * 256 - 3)..(b * 256 + 4)),
        1 => 1usize..70_000,
    ]
}

/// Matrix extents biased to multiples of 16/32/64/128 ± 1.
fn extent() -> impl Strategy<Value = usize> {
    prop_oneof![
        3 => 1usize..70,
        2 => prop_oneof![Just(16usize), Just(32), Just(64), Just(128)].prop_flat_map(|t| (t - 1)..(t + 2)),
        1 => 1usize..300,
    ]
}

fn runner(cases: u32, rng: &mut rand::rngs::StdRng) -> TestRunner {
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    TestRunner::new_with_rng(Config { cases, failure_persistence: None, ..Config::default() }, TestRng::from_seed(RngAlgorithm::ChaCha, &seed))
}

fn fail(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

fn run<S: Strategy>(name: &str, mut runner: TestRunner, strategy: S, test: impl Fn(S::Value) -> Result<(), String>) -> Result<(), String>
where
    S::Value: std::fmt::Debug,
{
    runner.run(&strategy, |v| test(v).map_err(fail)).map_err(|e| format!("{name}: {e}"))?;
    eprintln!("property {name}: {} cases passed", runner.config().cases);
    Ok(())
}

fn check_vec_add(g: &Gpu, a: &[f32], b: &[f32]) -> Result<(), String> {
    for kernel in [VecAddKernel::Naive, VecAddKernel::Vectorized] {
        let da = DeviceVector::from_host(g, a).map_err(|e| e.to_string())?;
        let db = DeviceVector::from_host(g, b).map_err(|e| e.to_string())?;
        let mut dc = DeviceVector::filled(g, a.len(), f32::NAN).map_err(|e| e.to_string())?;
        vec_add_into(g, &da, &db, &mut dc, kernel).map_err(|e| e.to_string())?;
        assert_bitwise_eq(&format!("vec_add {kernel:?}"), &dc.to_host(g).map_err(|e| e.to_string())?, &reference::vec_add(a, b))?;
    }
    Ok(())
}

fn check_activation(g: &Gpu, x: &[f32], act: Activation) -> Result<(), String> {
    let dx = DeviceVector::from_host(g, x).map_err(|e| e.to_string())?;
    let mut dy = DeviceVector::filled(g, x.len(), f32::NAN).map_err(|e| e.to_string())?;
    activation_into(g, &dx, &mut dy, act).map_err(|e| e.to_string())?;
    let got = dy.to_host(g).map_err(|e| e.to_string())?;
    let want: Vec<f64> = reference::activation(x, act).iter().map(|&v| v as f64).collect();
    // No activation may turn a non-NaN input into NaN.
    if let Some(i) = x.iter().zip(&got).position(|(xi, yi)| !xi.is_nan() && yi.is_nan()) {
        return Err(format!("{act:?}({:e}) gave NaN at {i}", x[i]));
    }
    // fast_exp's error: rounding x·log₂e to f32 (half an ulp of a value below 128, i.e. 2.6e-6
    // relative after the factor ln 2) plus ex2.approx's 2⁻²²·⁵; beyond |x| ≈ 88 both sides
    // saturate to exactly 0 or ±1.
    assert_close(&format!("{act:?}"), &got, &want, 4e-6, 1e-7)
}

pub fn register(s: &mut Suite) {
    s.gpu("property::vec_add", |g, rng| {
        for &n in REGRESSION_LENGTHS {
            let v: Vec<f32> = (0..n).map(|i| i as f32 - 2.5).collect();
            check_vec_add(g, &v, &v)?;
        }
        let strat = length().prop_flat_map(|n| (prop::collection::vec(any_value(), n), prop::collection::vec(any_value(), n)));
        run("vec_add", runner(cases(), rng), strat, |(a, b)| check_vec_add(g, &a, &b))
    });
    s.gpu("property::mat_add", |g, rng| {
        let strat = (extent(), extent())
            .prop_flat_map(|(r, c)| (Just(r), Just(c), prop::collection::vec(any_value(), r * c), prop::collection::vec(any_value(), r * c)));
        run("mat_add", runner(cases(), rng), strat, |(r, c, a, b)| {
            let da = DeviceMatrix::from_host(g, r, c, &a).map_err(|e| e.to_string())?;
            let db = DeviceMatrix::from_host(g, r, c, &b).map_err(|e| e.to_string())?;
            let mut dc = DeviceMatrix::filled(g, r, c, f32::NAN).map_err(|e| e.to_string())?;
            mat_add_into(g, &da, &db, &mut dc).map_err(|e| e.to_string())?;
            assert_bitwise_eq("mat_add", &dc.to_host(g).map_err(|e| e.to_string())?, &reference::mat_add(&a, &b, r, c))
        })
    });
    for act in Activation::ALL {
        s.gpu(format!("property::activation::{act:?}"), move |g, rng| {
            for &n in REGRESSION_LENGTHS {
                check_activation(g, &vec![-0.5; n], act)?;
            }
            let strat = length().prop_flat_map(|n| prop::collection::vec(any_value(), n));
            run(&format!("{act:?}"), runner(cases(), rng), strat, |x| check_activation(g, &x, act))
        });
    }
    // A list of kernels, so another matmul kernel is one entry more.
    #[allow(clippy::single_element_loop)]
    for kernel in [MatmulKernel::Naive] {
        s.gpu(format!("property::matmul::{kernel:?}"), move |g, rng| {
            // Regression (shrunk from a failure): outputs made only of subnormal products must
            // match to the subnormal grid, not relatively.
            let (m, k, n) = (15, 6, 51);
            let a: Vec<f32> = (0..m * k).map(|i| if i % 7 == 3 { 1e-40 } else { 0.0 }).collect();
            let b = integration_tests::uniform(rng, k * n, -4.0, 4.0);
            check_matmul_case(g, kernel, (m, k, n), &a, &b)?;
            let strat = (extent(), extent(), extent())
                .prop_flat_map(|(m, k, n)| (Just((m, k, n)), prop::collection::vec(finite_value(), m * k), prop::collection::vec(finite_value(), k * n)));
            run("matmul", runner(matrix_cases(), rng), strat, |(shape, a, b)| check_matmul_case(g, kernel, shape, &a, &b))
        });
    }
    s.gpu("property::gemm_nan_and_inf_propagate", |g, rng| {
        // A NaN in row i of A makes row i of C NaN; an ∞ times a positive column makes +∞.
        let strat = (extent(), extent(), extent(), any::<bool>()).prop_flat_map(|(m, k, n, ta)| (Just((m, k, n, ta)), 0..m, 0..k));
        run("gemm NaN/Inf", runner(matrix_cases(), rng), strat, |((m, k, n, ta), i, p)| {
            let mut a = vec![0.5f32; m * k];
            a[i * k + p] = f32::NAN;
            let (rows, cols, stored) = if ta { (k, m, transpose(&a, m, k)) } else { (m, k, a.clone()) };
            let da = DeviceMatrix::from_host(g, rows, cols, &stored).map_err(|e| e.to_string())?;
            let db = DeviceMatrix::from_host(g, k, n, &vec![1.0f32; k * n]).map_err(|e| e.to_string())?;
            let mut dc = DeviceMatrix::filled(g, m, n, 7.0).map_err(|e| e.to_string())?;
            let t = if ta { Transpose::Yes } else { Transpose::No };
            gemm(g, &da, t, &db, Transpose::No, Epilogue::default(), &mut dc, GemmKernel::Auto).map_err(|e| e.to_string())?;
            let c = dc.to_host(g).map_err(|e| e.to_string())?;
            for r in 0..m {
                for col in 0..n {
                    let v = c[r * n + col];
                    let ok = if r == i { v.is_nan() } else { v == 0.5 * k as f32 };
                    if !ok {
                        return Err(format!("C[{r},{col}] = {v} (NaN at A[{i},{p}], k={k})"));
                    }
                }
            }
            a[i * k + p] = f32::INFINITY;
            let (rows, cols, stored) = if ta { (k, m, transpose(&a, m, k)) } else { (m, k, a) };
            let da = DeviceMatrix::from_host(g, rows, cols, &stored).map_err(|e| e.to_string())?;
            gemm(g, &da, t, &db, Transpose::No, Epilogue::default(), &mut dc, GemmKernel::Auto).map_err(|e| e.to_string())?;
            let c = dc.to_host(g).map_err(|e| e.to_string())?;
            if let Some(col) = (0..n).find(|&col| c[i * n + col] != f32::INFINITY) {
                return Err(format!("C[{i},{col}] = {} with +∞ at A[{i},{p}]", c[i * n + col]));
            }
            Ok(())
        })
    });
    s.gpu("property::dense", |g, rng| {
        let strat = (extent(), extent(), extent(), 0usize..4).prop_flat_map(|(b, i, o, act)| {
            (
                Just((b, i, o, act)),
                prop::collection::vec(finite_value(), b * i),
                prop::collection::vec(-1.0f32..1.0, o * i),
                prop::collection::vec(finite_value(), o),
            )
        });
        run("dense", runner(matrix_cases(), rng), strat, |((batch, in_f, out_f, act), x, w, bias)| {
            let act = Activation::ALL[act];
            let dx = DeviceMatrix::from_host(g, batch, in_f, &x).map_err(|e| e.to_string())?;
            let dw = DeviceMatrix::from_host(g, out_f, in_f, &w).map_err(|e| e.to_string())?;
            let db = DeviceVector::from_host(g, &bias).map_err(|e| e.to_string())?;
            let mut dy = DeviceMatrix::filled(g, batch, out_f, f32::NAN).map_err(|e| e.to_string())?;
            dense_into(g, &dx, &dw, &db, act, &mut dy).map_err(|e| e.to_string())?;
            let want = reference::dense_f64(&x, &w, &bias, batch, in_f, out_f, act);
            // Pre-activations reach 4·in_f: f32 summation error ~ √in·2⁻²⁴·4·in; 1e-5 relative
            // with an absolute floor scaled by in_f covers it; activations are ≤1-Lipschitz.
            assert_close(&format!("dense {act:?}"), &dy.to_host(g).map_err(|e| e.to_string())?, &want, 1e-5, 2e-6 * in_f as f64)
        })
    });
}

fn check_matmul_case(g: &Gpu, kernel: MatmulKernel, (m, k, n): (usize, usize, usize), a: &[f32], b: &[f32]) -> Result<(), String> {
    let da = DeviceMatrix::from_host(g, m, k, a).map_err(|e| e.to_string())?;
    let db = DeviceMatrix::from_host(g, k, n, b).map_err(|e| e.to_string())?;
    let mut dc = DeviceMatrix::filled(g, m, n, f32::NAN).map_err(|e| e.to_string())?;
    matmul_into(g, &da, &db, &mut dc, kernel).map_err(|e| e.to_string())?;
    let want = reference::matmul_f64(a, b, m, k, n);
    assert_close_scaled(&format!("matmul {kernel:?}"), &dc.to_host(g).map_err(|e| e.to_string())?, &want, &matmul_magnitude(a, b, m, k, n), 1e-5)
}

fn transpose(a: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut t = vec![0.0; a.len()];
    for r in 0..rows {
        for c in 0..cols {
            t[c * rows + r] = a[r * cols + c];
        }
    }
    t
}

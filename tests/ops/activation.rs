use host::ops::activation::{Activation, SigmoidKernel, activation_in_place, activation_into, sigmoid_into};
use host::{DeviceVector, Error, reference};
use integration_tests::{Suite, assert_close, expect_err, gpu, uniform};

const LENGTHS: &[usize] = &[1, 3, 4, 5, 31, 1000, 1025, (1 << 20) + 3];

/// Tolerance against the host's accurate `exp`: the GPU's `fast_exp` is `ex2.approx` (≤ 2⁻²²·⁵
/// relative) of x·log₂e, whose rounding adds ln2·|x·log₂e|·2⁻²⁴ ≈ 1.2e-6 at |x| = 20, plus
/// the division: 3e-6 relative covers inputs in [-20, 20].
const FAST_EXP_RTOL: f64 = 3e-6;

/// Inputs: a spread over [-20, 20] plus the special values every activation must handle.
fn inputs(rng: &mut rand::rngs::StdRng, n: usize) -> Vec<f32> {
    let mut x = uniform(rng, n, -20.0, 20.0);
    let specials = [0.0, -0.0, 1e-40, -1e-40, 88.0, -88.0, 1e30, -1e30, f32::INFINITY, f32::NEG_INFINITY, f32::NAN];
    for (slot, v) in x.iter_mut().zip(specials) {
        *slot = v;
    }
    x
}

fn reference_f64(x: &[f32], act: Activation) -> Vec<f64> {
    reference::activation(x, act).iter().map(|&v| v as f64).collect()
}

pub fn register(s: &mut Suite) {
    for kernel in [SigmoidKernel::Naive, SigmoidKernel::Vectorized] {
        for &n in LENGTHS {
            s.gpu(format!("sigmoid::{kernel:?}::n{n}"), move |g, rng| {
                let x = inputs(rng, n);
                let dx = gpu(DeviceVector::from_host(g, &x))?;
                let mut dy = gpu(DeviceVector::filled(g, n, f32::NAN))?;
                gpu(sigmoid_into(g, &dx, &mut dy, kernel))?;
                assert_close("sigmoid", &gpu(dy.to_host(g))?, &reference_f64(&x, Activation::Sigmoid), FAST_EXP_RTOL, 1e-30)
            });
        }
    }
    for act in Activation::ALL {
        for &n in &[7usize, 4096 + 1] {
            s.gpu(format!("activation::{act:?}::n{n}"), move |g, rng| {
                let x = inputs(rng, n);
                let dx = gpu(DeviceVector::from_host(g, &x))?;
                let mut dy = gpu(DeviceVector::filled(g, n, f32::NAN))?;
                gpu(activation_into(g, &dx, &mut dy, act))?;
                let want = reference_f64(&x, act);
                // tanh near 0 uses the series (no exp): an absolute bound covers it.
                assert_close("activation", &gpu(dy.to_host(g))?, &want, FAST_EXP_RTOL, 1e-7)?;
                let mut inplace = dx;
                gpu(activation_in_place(g, &mut inplace, act))?;
                assert_close("activation in place", &gpu(inplace.to_host(g))?, &want, FAST_EXP_RTOL, 1e-7)
            });
        }
    }
    s.gpu("activation::empty_and_mismatch", |g, _| {
        let e = gpu(DeviceVector::<f32>::from_host(g, &[]))?;
        let mut out = gpu(DeviceVector::<f32>::from_host(g, &[]))?;
        gpu(sigmoid_into(g, &e, &mut out, SigmoidKernel::Vectorized))?;
        let x = gpu(DeviceVector::from_host(g, &[1.0f32; 3]))?;
        let mut y = gpu(DeviceVector::filled(g, 4, 0.0))?;
        expect_err("sigmoid 3 into 4", sigmoid_into(g, &x, &mut y, SigmoidKernel::Naive), |e| matches!(e, Error::ShapeMismatch { .. }))
    });
}

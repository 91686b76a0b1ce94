//! Scalar math shared by the kernels and the CPU reference: one definition, compiled for both
//! targets, so the GPU and the reference can differ only by the documented `fast_exp` error.
//!
//! There is no libm on the GPU target (`expf` does not link), so [`exp`] is pure Rust
//! (Cody–Waite range reduction and a degree-7 polynomial, within 2 ulp on the f32 range).
//! [`fast_exp`] is `ex2.approx.f32` on the GPU (relative error below 2⁻²²·⁵ for the power of
//! two; the rounding of `x·log₂e` adds about |x|·2⁻²⁴, so ≤ 6e-6 relative at |x| = 88) and
//! [`exp`] on the host.

const LOG2_E: f32 = core::f32::consts::LOG2_E;
const LN2_HI: f32 = 0.693_145_75;
const LN2_LO: f32 = 1.428_606_8e-6;

/// Largest x with finite `exp(x)` in f32.
const EXP_MAX: f32 = 88.722_84;
/// Below this `exp(x)` rounds to zero even as a subnormal.
const EXP_MIN: f32 = -103.972_08;

/// 2^k for k in [-126, 127], built from its bits.
#[inline(always)]
fn pow2i(k: i32) -> f32 {
    f32::from_bits(((k + 127) as u32) << 23)
}

/// Accurate `eˣ` (pure Rust, no libm). NaN in → NaN out; ±∞ → ∞ / 0.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    if x > EXP_MAX {
        return f32::INFINITY;
    }
    if x < EXP_MIN {
        return 0.0;
    }
    let t = x * LOG2_E;
    let k = (if t < 0.0 { t - 0.5 } else { t + 0.5 }) as i32;
    let kf = k as f32;
    let r = (x - kf * LN2_HI) - kf * LN2_LO;
    // Taylor to degree 7: |r| ≤ ln2/2, truncation error r⁸/8! < 6e-9.
    let p = 1.0
        + r * (1.0
            + r * (0.5
                + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    // Scale by 2^k in two steps so neither factor over- or underflows.
    if k > 127 {
        p * pow2i(127) * pow2i(k - 127)
    } else if k < -126 {
        p * pow2i(k + 64) * pow2i(-64)
    } else {
        p * pow2i(k)
    }
}

/// `eˣ` through the GPU's `ex2.approx` unit; on the host, [`exp`].
#[inline(always)]
pub fn fast_exp(x: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let y: f32;
        // SAFETY: a pure arithmetic instruction on registers.
        unsafe { core::arch::asm!("ex2.approx.f32 {y}, {x};", y = out(reg32) y, x = in(reg32) x * LOG2_E) };
        y
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        exp(x)
    }
}

/// σ(x) = 1 / (1 + e⁻ˣ). Saturates to exactly 0 or 1 for large |x|, never NaN for finite x.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + fast_exp(-x))
}

/// max(x, 0), propagating NaN (as IEEE `max` with a NaN operand would not).
#[inline(always)]
pub fn relu(x: f32) -> f32 {
    if x < 0.0 { 0.0 } else { x }
}

/// tanh(x): an odd series near 0 (where 1 − e⁻²ˣ would cancel), else (1 − e⁻²|ˣ|)/(1 + e⁻²|ˣ|).
#[inline(always)]
pub fn tanh(x: f32) -> f32 {
    let a = if x < 0.0 { -x } else { x };
    if a < 0.25 {
        let x2 = x * x;
        // x − x³/3 + 2x⁵/15 − 17x⁷/315 + 62x⁹/2835; next term < 2e-10 relative at 0.25.
        return x * (1.0 + x2 * (-1.0 / 3.0 + x2 * (2.0 / 15.0 + x2 * (-17.0 / 315.0 + x2 * (62.0 / 2835.0)))));
    }
    let t = fast_exp(-2.0 * a);
    let y = (1.0 - t) / (1.0 + t);
    if x < 0.0 { -y } else if x > 0.0 { y } else { x } // NaN falls through unchanged
}

/// Activation functions, by the code the kernels take as a `u32` parameter.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Activation {
    Identity = 0,
    Sigmoid = 1,
    Relu = 2,
    Tanh = 3,
}

impl Activation {
    pub const ALL: [Activation; 4] = [Activation::Identity, Activation::Sigmoid, Activation::Relu, Activation::Tanh];

    /// Decodes a kernel parameter; unknown codes mean identity.
    #[inline(always)]
    pub fn from_code(code: u32) -> Activation {
        match code {
            1 => Activation::Sigmoid,
            2 => Activation::Relu,
            3 => Activation::Tanh,
            _ => Activation::Identity,
        }
    }

    /// f(x).
    #[inline(always)]
    pub fn apply(self, x: f32) -> f32 {
        match self {
            Activation::Identity => x,
            Activation::Sigmoid => sigmoid(x),
            Activation::Relu => relu(x),
            Activation::Tanh => tanh(x),
        }
    }

    /// f'(x) expressed through the output y = f(x), which the backward pass already holds.
    #[inline(always)]
    pub fn derivative_from_output(self, y: f32) -> f32 {
        match self {
            Activation::Identity => 1.0,
            Activation::Sigmoid => y * (1.0 - y),
            Activation::Relu => {
                if y > 0.0 {
                    1.0
                } else {
                    0.0
                }
            }
            Activation::Tanh => 1.0 - y * y,
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    fn rel(a: f32, b: f64) -> f64 {
        ((a as f64 - b) / b).abs()
    }

    #[test]
    fn exp_matches_std_within_two_ulp() {
        let mut worst = 0.0f64;
        let mut x = -103.0f32;
        while x < 88.7 {
            let want = (x as f64).exp();
            if want > 1.2e-38 {
                worst = worst.max(rel(exp(x), want));
            }
            x += 0.0137;
        }
        assert!(worst < 2.5e-7, "worst relative error {worst}");
    }

    #[test]
    fn exp_edges() {
        assert!(exp(f32::NAN).is_nan());
        assert_eq!(exp(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp(89.0), f32::INFINITY);
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-0.0), 1.0);
        // Subnormal results: within one subnormal step of the correctly rounded value.
        for x in [-88.0f32, -95.0, -100.0, -103.0] {
            let want = (x as f64).exp() as f32;
            assert!(want > 0.0 && exp(x).to_bits().abs_diff(want.to_bits()) <= 1, "exp({x})");
        }
    }

    #[test]
    fn activations_saturate_without_nan() {
        for x in [-1e30f32, -1e4, -100.0, -88.0, 88.0, 100.0, 1e4, 1e30, f32::MAX, -f32::MAX] {
            for act in Activation::ALL {
                let y = act.apply(x);
                assert!(!y.is_nan(), "{act:?}({x}) = NaN");
            }
        }
        assert_eq!(sigmoid(-1e4), 0.0);
        assert_eq!(sigmoid(1e4), 1.0);
        assert_eq!(tanh(1e4), 1.0);
        assert_eq!(tanh(-1e4), -1.0);
        assert_eq!(sigmoid(f32::INFINITY), 1.0);
        assert_eq!(sigmoid(f32::NEG_INFINITY), 0.0);
        for act in [Activation::Sigmoid, Activation::Relu, Activation::Tanh] {
            assert!(act.apply(f32::NAN).is_nan(), "{act:?}(NaN) must be NaN");
        }
    }

    #[test]
    fn activations_match_f64() {
        let mut x = -20.0f32;
        while x < 20.0 {
            let xd = x as f64;
            assert!((sigmoid(x) as f64 - 1.0 / (1.0 + (-xd).exp())).abs() < 1e-7, "sigmoid({x})");
            assert!((tanh(x) as f64 - xd.tanh()).abs() < 2e-7, "tanh({x})");
            if xd.tanh().abs() > 1e-30 {
                assert!(rel(tanh(x), xd.tanh()) < 1e-6, "tanh({x}) relative");
            }
            x += 0.01;
        }
    }

    #[test]
    fn derivatives_match_finite_differences() {
        for act in Activation::ALL {
            for &x in &[-2.0f64, -0.3, 0.4, 1.7] {
                let h = 1e-3;
                let f = |v: f64| act.apply(v as f32) as f64;
                let fd = (f(x + h) - f(x - h)) / (2.0 * h);
                let an = act.derivative_from_output(act.apply(x as f32)) as f64;
                assert!((fd - an).abs() < 2e-3, "{act:?}'({x}): fd {fd} vs {an}");
            }
        }
    }
}

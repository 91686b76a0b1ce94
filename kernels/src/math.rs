//! The activations the kernels take as a code, on top of the fast math of [`kernel_std::math`]
//! (re-exported here), which the CPU reference shares with the kernels.

pub use kernel_std::math::{exp, fast_exp, relu, sigmoid, tanh};

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

/// f32 → bf16 bits, rounding to nearest (ties to even); NaN stays a (quiet) NaN, ±∞ stays ±∞.
/// Integer arithmetic only, so the kernels (any architecture, no `cvt.rn.bf16.f32`) and the CPU
/// reference round identically: the mixed-precision training step's bf16 weight and activation
/// copies are bit-for-bit what the host would produce.
#[inline(always)]
pub fn f32_to_bf16(x: f32) -> u16 {
    let bits = x.to_bits();
    if x.is_nan() {
        return ((bits >> 16) as u16) | 0x0040; // keep the sign, force a quiet NaN
    }
    let rounding = 0x7fff + ((bits >> 16) & 1);
    (bits.wrapping_add(rounding) >> 16) as u16
}

/// bf16 bits → f32 (exact).
#[inline(always)]
pub fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits((h as u32) << 16)
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

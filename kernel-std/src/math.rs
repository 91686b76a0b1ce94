//! Fast math shared by kernels and their CPU references: one definition, compiled for both
//! targets, so a GPU result and its reference can differ only by the documented `fast_exp` error.
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
    let p = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
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
    if x < 0.0 {
        -y
    } else if x > 0.0 {
        y
    } else {
        x
    } // NaN falls through unchanged
}

//! What a benchmark counts and checks: the work of an op (bytes moved, FLOP), throughput units,
//! fast seeded inputs, and the accuracy check every GPU result passes before it is timed.

use host::{Error, Result};

/// Bytes over milliseconds, in GB/s (10⁹ bytes per second).
pub fn gb_per_s(bytes: f64, ms: f64) -> f64 {
    bytes / (ms * 1e-3) / 1e9
}

/// Floating-point operations over milliseconds, in TFLOP/s.
pub fn tflop_per_s(flops: f64, ms: f64) -> f64 {
    flops / (ms * 1e-3) / 1e12
}

/// Bytes an elementwise f32 op moves at the least: each input read once, each output written once.
pub fn elementwise_bytes(elems: usize, inputs: usize, outputs: usize) -> u64 {
    (elems * (inputs + outputs) * size_of::<f32>()) as u64
}

/// Floating-point operations of an m×k by k×n product: one multiply and one add per term.
pub fn matmul_flops(m: usize, n: usize, k: usize) -> u64 {
    2 * (m as u64) * (n as u64) * (k as u64)
}

/// `n` values uniform in [lo, hi) from a seeded SplitMix64 stream: fast enough for 10⁸ inputs,
/// and never all zeros (timing on zeros can flatter a kernel).
pub fn random_f32(seed: u64, n: usize, lo: f32, hi: f32) -> Vec<f32> {
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    let span = hi - lo;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let unit = (z >> 40) as f32 / (1u64 << 24) as f32;
            lo + span * unit
        })
        .collect()
}

/// ‖got − want‖₂ / ‖want‖₂ accumulated in f64; infinite if the lengths differ or `got` has a
/// NaN or infinity where `want` is finite.
pub fn relative_error(got: &[f32], want: &[f32]) -> f64 {
    if got.len() != want.len() {
        return f64::INFINITY;
    }
    let (mut diff, mut norm) = (0.0f64, 0.0f64);
    for (&g, &w) in got.iter().zip(want) {
        if !g.is_finite() && w.is_finite() {
            return f64::INFINITY;
        }
        let d = f64::from(g) - f64::from(w);
        diff += d * d;
        norm += f64::from(w) * f64::from(w);
    }
    if norm == 0.0 { diff.sqrt() } else { (diff / norm).sqrt() }
}

/// Fails with a typed error unless `got` matches `want` to a relative error of `tol`.
pub fn verify(op: &'static str, got: &[f32], want: &[f32], tol: f64) -> Result<f64> {
    let err = relative_error(got, want);
    if err <= tol {
        Ok(err)
    } else {
        Err(Error::InvalidArgument { op, reason: format!("GPU result differs from the CPU: relative error {err:.3e} > {tol:.1e}") })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_seeded_in_range_and_not_constant() {
        let a = random_f32(7, 10_000, -1.0, 1.0);
        assert_eq!(a, random_f32(7, 10_000, -1.0, 1.0));
        assert!(a.iter().all(|&v| (-1.0..1.0).contains(&v)));
        assert!(a.iter().filter(|&&v| v == 0.0).count() < 10);
        assert_ne!(a, random_f32(8, 10_000, -1.0, 1.0));
    }

    #[test]
    fn units_and_errors() {
        assert!((gb_per_s(3e9, 1000.0) - 3.0).abs() < 1e-12);
        assert!((tflop_per_s(2e12, 1000.0) - 2.0).abs() < 1e-12);
        assert_eq!(elementwise_bytes(10, 2, 1), 120);
        assert_eq!(matmul_flops(2, 3, 4), 48);
        assert_eq!(relative_error(&[1.0, 2.0], &[1.0, 2.0]), 0.0);
        assert!(relative_error(&[f32::NAN], &[1.0]).is_infinite());
        assert!(verify("t", &[1.0, 2.0], &[1.0, 2.1], 1e-3).is_err());
    }
}

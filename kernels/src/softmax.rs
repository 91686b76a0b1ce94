//! Softmax with cross-entropy, fused: one pass per row gives the loss and dL/dlogits, with the
//! row maximum subtracted before exponentiating (no overflow for any finite logits). Also the
//! argmax of each row and the count of rows whose argmax equals the label (accuracy).
//!
//! The scalar math ([`ln`], [`xent_row_loss`]) is shared with the CPU reference.

use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use crate::{
    math,
    reduce::{shfl_xor_f32, shfl_xor_u32, warp_max, warp_sum},
    thread,
};

/// Threads per block of the row kernels: 8 warps, one row per warp at a time.
pub const ROW_BLOCK: u32 = 256;
/// Rows a block of [`ROW_BLOCK`] threads handles at once.
pub const ROWS_PER_BLOCK: u32 = ROW_BLOCK / 32;

const LN2: f32 = core::f32::consts::LN_2;
const SQRT_HALF: f32 = core::f32::consts::FRAC_1_SQRT_2;

/// Natural logarithm in pure Rust (no libm on the GPU): x = 2ᵉ·m with m in [√½, √2), then
/// ln m = 2·atanh(s), s = (m−1)/(m+1), |s| ≤ 0.172, by its odd series to s¹³ (next term
/// < 3e-12). Within a few ulp for normal x; ln(0) = −∞, negative or NaN → NaN, ln(∞) = ∞.
#[inline(always)]
pub fn ln(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x == f32::INFINITY {
        return x;
    }
    let (mut x, mut e) = (x, 0i32);
    if x < f32::MIN_POSITIVE {
        x *= 16_777_216.0; // 2²⁴: subnormals become normal
        e -= 24;
    }
    let bits = x.to_bits();
    e += ((bits >> 23) & 0xff) as i32 - 127;
    let mut m = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000); // [1, 2)
    if m > 2.0 * SQRT_HALF {
        m *= 0.5;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let series = 1.0 + s2 * (1.0 / 3.0 + s2 * (1.0 / 5.0 + s2 * (1.0 / 7.0 + s2 * (1.0 / 9.0 + s2 * (1.0 / 11.0 + s2 * (1.0 / 13.0))))));
    e as f32 * LN2 + 2.0 * s * series
}

/// Cross-entropy of one row from its maximum `max`, Σ exp(z − max) `sum` and label logit
/// `z_label`: −log softmax(z)[label] = ln(sum) − (z_label − max).
#[inline(always)]
pub fn xent_row_loss(max: f32, sum: f32, z_label: f32) -> f32 {
    ln(sum) - (z_label - max)
}

/// For each row r of `logits` (rows×cols): row_loss[r] = −log softmax(z)[label[r]] and
/// dlogits[r, c] = grad_scale·(softmax(z)[c] − [c = label[r]]), z max-subtracted; when
/// `dlogits_bf16` is not null, also its bf16 rounding there (the mixed-precision backward's
/// GEMM input, written in the same pass rather than by a cast).
///
/// # Safety
/// `logits`, `dlogits` hold `rows·cols` f32 and are equal or disjoint; `dlogits_bf16` is null or
/// holds `rows·cols` u16, disjoint from the rest; `labels` holds `rows` u32; `row_loss` holds
/// `rows` f32. A label ≥ cols makes that row's loss NaN (and its gradient the softmax alone).
///
/// # Parameters
/// `grad_scale`: usually 1/batch, so dlogits is the gradient of the batch's mean loss.
///
/// # Thread mapping
/// One warp per row (grid-stride over rows, [`ROWS_PER_BLOCK`] per block); lanes stride over the
/// columns; the maximum and the sum are warp shuffles.
#[kernel]
pub unsafe fn softmax_xent_f32(
    logits: *const f32,
    labels: *const u32,
    dlogits: *mut f32,
    dlogits_bf16: *mut u16,
    row_loss: *mut f32,
    rows: usize,
    cols: usize,
    grad_scale: f32,
) {
    let lane = thread::lane_id() as usize;
    let warps_per_block = (thread::block_dim_x() / 32) as usize;
    let mut row = thread::block_idx_x() as usize * warps_per_block + thread::warp_id() as usize;
    let row_stride = thread::grid_dim_x() as usize * warps_per_block;
    while row < rows {
        // SAFETY: row < rows; every pointer below stays inside row `row`.
        let z = unsafe { logits.add(row * cols) };
        let mut mx = f32::NEG_INFINITY;
        let mut c = lane;
        while c < cols {
            // SAFETY: c < cols.
            let v = unsafe { *z.add(c) };
            if v > mx {
                mx = v;
            }
            c += 32;
        }
        mx = warp_max(mx);
        let mut sum = 0.0f32;
        c = lane;
        while c < cols {
            // SAFETY: c < cols.
            sum += math::exp(unsafe { *z.add(c) } - mx);
            c += 32;
        }
        sum = warp_sum(sum);
        // SAFETY: row < rows.
        let label = unsafe { *labels.add(row) } as usize;
        let inv = 1.0 / sum;
        let mut z_label = f32::NAN;
        c = lane;
        while c < cols {
            // SAFETY: c < cols.
            let v = unsafe { *z.add(c) };
            let p = math::exp(v - mx) * inv;
            let onehot = if c == label {
                z_label = v;
                1.0
            } else {
                0.0
            };
            let g = grad_scale * (p - onehot);
            // SAFETY: c < cols; only this lane touches element (row, c) of either output.
            unsafe {
                *dlogits.add(row * cols + c) = g;
                if !dlogits_bf16.is_null() {
                    *dlogits_bf16.add(row * cols + c) = math::f32_to_bf16(g);
                }
            }
            c += 32;
        }
        if label < cols && lane == label % 32 {
            // SAFETY: row < rows.
            unsafe { *row_loss.add(row) = xent_row_loss(mx, sum, z_label) };
        } else if label >= cols && lane == 0 {
            // SAFETY: row < rows.
            unsafe { *row_loss.add(row) = f32::NAN };
        }
        row += row_stride;
    }
}

/// pred[r] = argmax_c logits[r, c] (the first on ties; NaN never wins; 0 if no value beats −∞),
/// and correct[0] += the number of rows with pred[r] = labels[r].
///
/// # Safety
/// `logits` holds `rows·cols` f32, `labels` and `pred` `rows` u32, `correct` one u32 (zeroed by
/// the caller before the first launch it should count).
///
/// # Thread mapping
/// As [`softmax_xent_f32`]: one warp per row; lanes take the first maximum of their columns,
/// then a shuffle tree keeps the larger value, or the lower index on ties.
#[kernel]
pub unsafe fn argmax_f32(logits: *const f32, labels: *const u32, pred: *mut u32, correct: *mut u32, rows: usize, cols: usize) {
    let lane = thread::lane_id() as usize;
    let warps_per_block = (thread::block_dim_x() / 32) as usize;
    let mut row = thread::block_idx_x() as usize * warps_per_block + thread::warp_id() as usize;
    let row_stride = thread::grid_dim_x() as usize * warps_per_block;
    while row < rows {
        // SAFETY: row < rows.
        let z = unsafe { logits.add(row * cols) };
        let mut best = f32::NEG_INFINITY;
        let mut idx = u32::MAX;
        let mut c = lane;
        while c < cols {
            // SAFETY: c < cols.
            let v = unsafe { *z.add(c) };
            if v > best {
                best = v;
                idx = c as u32;
            }
            c += 32;
        }
        let mut m = 16;
        while m > 0 {
            let (ov, oi) = (shfl_xor_f32(best, m), shfl_xor_u32(idx, m));
            if ov > best || (ov == best && oi < idx) {
                best = ov;
                idx = oi;
            }
            m >>= 1;
        }
        if lane == 0 {
            let p = if idx == u32::MAX { 0 } else { idx };
            // SAFETY: row < rows.
            unsafe { *pred.add(row) = p };
            // SAFETY: row < rows.
            if p == unsafe { *labels.add(row) } {
                // SAFETY: `correct` is a valid, 4-byte aligned u32 that only atomics touch here.
                unsafe { core::sync::atomic::AtomicU32::from_ptr(correct) }.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
            }
        }
        row += row_stride;
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn ln_matches_std() {
        let mut worst = 0.0f64;
        let mut x = 1e-30f32;
        while x < 1e30 {
            let want = (x as f64).ln();
            let err = (ln(x) as f64 - want).abs() / want.abs().max(1e-3);
            worst = worst.max(err);
            x *= 1.0173;
        }
        assert!(worst < 1e-6, "worst relative error {worst}");
        assert_eq!(ln(1.0), 0.0);
        assert!(ln(-1.0).is_nan() && ln(f32::NAN).is_nan());
        assert_eq!(ln(0.0), f32::NEG_INFINITY);
        assert_eq!(ln(f32::INFINITY), f32::INFINITY);
        let sub = 1e-42f32;
        assert!((ln(sub) as f64 - (sub as f64).ln()).abs() < 1e-4);
    }
}

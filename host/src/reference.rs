//! CPU reference implementations of every op: plain loops as in the article, nalgebra for
//! matmul, and the activation math shared with the kernels (`kernels::math`).

use kernels::math::Activation;
use nalgebra::DMatrix;

/// c = a + b.
pub fn vec_add(a: &[f32], b: &[f32]) -> Vec<f32> {
    assert_eq!(a.len(), b.len(), "vec_add: lengths differ");
    let mut c = vec![0.0; a.len()];
    for i in 0..a.len() {
        c[i] = a[i] + b[i];
    }
    c
}

/// y = act(x), with the same scalar function the kernels call.
pub fn activation(x: &[f32], act: Activation) -> Vec<f32> {
    x.iter().map(|&v| act.apply(v)).collect()
}

/// y = σ(x).
pub fn sigmoid(x: &[f32]) -> Vec<f32> {
    activation(x, Activation::Sigmoid)
}

/// C = A + B, row-major rows×cols.
pub fn mat_add(a: &[f32], b: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    assert_eq!(a.len(), rows * cols);
    assert_eq!(b.len(), rows * cols);
    let mut c = vec![0.0; rows * cols];
    for r in 0..rows {
        for col in 0..cols {
            c[r * cols + col] = a[r * cols + col] + b[r * cols + col];
        }
    }
    c
}

/// The article's triple loop, f32 accumulation: A m×k, B k×n, row-major.
pub fn matmul_naive(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut c = vec![0.0f32; m * n];
    matmul_naive_into(a, b, &mut c, m, k, n);
    c
}

/// [`matmul_naive`] into a caller's m×n buffer (benchmarks time it without the allocation).
pub fn matmul_naive_into(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n, "matmul_naive_into: buffers too small");
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0.0f32;
            for p in 0..k {
                acc += a[i * k + p] * b[p * n + j];
            }
            c[i * n + j] = acc;
        }
    }
}

/// Row-major matmul in f64, the accuracy reference for the GPU kernels.
pub fn matmul_f64(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut c = vec![0.0f64; m * n];
    for i in 0..m {
        for p in 0..k {
            let av = a[i * k + p] as f64;
            let row = &b[p * n..(p + 1) * n];
            for (cj, &bv) in c[i * n..(i + 1) * n].iter_mut().zip(row) {
                *cj += av * bv as f64;
            }
        }
    }
    c
}

/// Row-major matmul through nalgebra (its optimized CPU GEMM).
pub fn matmul_nalgebra(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let am = DMatrix::from_row_slice(m, k, a);
    let bm = DMatrix::from_row_slice(k, n, b);
    let c = am * bm;
    c.transpose().as_slice().to_vec()
}

/// y = act(x·Wᵀ + b): x batch×in, W out×in, b out; result batch×out, in f64.
pub fn dense_f64(x: &[f32], w: &[f32], b: &[f32], batch: usize, in_f: usize, out_f: usize, act: Activation) -> Vec<f64> {
    let mut y = vec![0.0f64; batch * out_f];
    for r in 0..batch {
        for o in 0..out_f {
            let mut acc = b[o] as f64;
            for i in 0..in_f {
                acc += x[r * in_f + i] as f64 * w[o * in_f + i] as f64;
            }
            y[r * out_f + o] = act.apply(acc as f32) as f64;
        }
    }
    y
}

/// act(α·op(A)·op(B) + bias + β·C) in f64; A is stored `a_rows × a_cols` row-major and used
/// transposed when `ta`, likewise B. Returns m×n row-major.
#[allow(clippy::too_many_arguments)]
pub fn gemm_f64(
    a: &[f32],
    (a_rows, a_cols): (usize, usize),
    ta: bool,
    b: &[f32],
    (b_rows, b_cols): (usize, usize),
    tb: bool,
    alpha: f32,
    beta: f32,
    c: &[f32],
    bias: Option<&[f32]>,
    act: Activation,
) -> Vec<f64> {
    let (m, k) = if ta { (a_cols, a_rows) } else { (a_rows, a_cols) };
    let n = if tb { b_rows } else { b_cols };
    let at = |i: usize, p: usize| if ta { a[p * a_cols + i] } else { a[i * a_cols + p] } as f64;
    let bt = |p: usize, j: usize| if tb { b[j * b_cols + p] } else { b[p * b_cols + j] } as f64;
    let mut out = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0.0f64;
            for p in 0..k {
                acc += at(i, p) * bt(p, j);
            }
            let mut v = alpha as f64 * acc + bias.map_or(0.0, |bb| bb[j] as f64);
            if beta != 0.0 {
                v += beta as f64 * c[i * n + j] as f64;
            }
            out[i * n + j] = act.apply(v as f32) as f64;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matmul_references_agree() {
        let (m, k, n) = (5, 7, 3);
        let a: Vec<f32> = (0..m * k).map(|i| (i as f32 * 0.37).sin()).collect();
        let b: Vec<f32> = (0..k * n).map(|i| (i as f32 * 0.11).cos()).collect();
        let r64 = matmul_f64(&a, &b, m, k, n);
        for (x, y) in matmul_naive(&a, &b, m, k, n).iter().zip(&r64) {
            assert!((*x as f64 - y).abs() < 1e-5);
        }
        for (x, y) in matmul_nalgebra(&a, &b, m, k, n).iter().zip(&r64) {
            assert!((*x as f64 - y).abs() < 1e-5);
        }
    }

    #[test]
    fn elementwise_references() {
        assert_eq!(vec_add(&[1.0, 2.0], &[3.0, -2.0]), [4.0, 0.0]);
        assert_eq!(mat_add(&[1.0, 2.0, 3.0, 4.0], &[1.0; 4], 2, 2), [2.0, 3.0, 4.0, 5.0]);
        assert_eq!(sigmoid(&[0.0]), [0.5]);
        let y = dense_f64(&[1.0, 2.0], &[1.0, 1.0, 0.5, -1.0], &[0.0, 1.0], 1, 2, 2, Activation::Identity);
        assert_eq!(y, [3.0, -0.5]);
    }
}

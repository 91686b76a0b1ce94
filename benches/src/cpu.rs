//! CPU baselines for every op, writing into caller-owned outputs so that timing measures the
//! arithmetic and not the allocator: the plain single-threaded loop (as in the article), the same
//! work spread over all cores with rayon, and nalgebra (matrixmultiply's blocked SIMD GEMM, one
//! thread) for the products.

use host::Activation;
use nalgebra::DMatrix;
use rayon::prelude::*;

/// Smallest piece of an elementwise op one rayon task takes (below that, scheduling costs more
/// than the work).
const PAR_MIN_ELEMS: usize = 1 << 14;

/// c = a + b, one element after another.
pub fn vec_add_loop(a: &[f32], b: &[f32], c: &mut [f32]) {
    let n = c.len().min(a.len()).min(b.len());
    for i in 0..n {
        c[i] = a[i] + b[i];
    }
}

/// c = a + b on every core.
pub fn vec_add_par(a: &[f32], b: &[f32], c: &mut [f32]) {
    c.par_iter_mut().with_min_len(PAR_MIN_ELEMS).zip(a.par_iter()).zip(b.par_iter()).for_each(|((c, a), b)| *c = a + b);
}

/// y = σ(x), one element after another, with the scalar function the kernels use.
pub fn sigmoid_loop(x: &[f32], y: &mut [f32]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y = Activation::Sigmoid.apply(x);
    }
}

/// y = σ(x) on every core.
pub fn sigmoid_par(x: &[f32], y: &mut [f32]) {
    y.par_iter_mut().with_min_len(PAR_MIN_ELEMS).zip(x.par_iter()).for_each(|(y, &x)| *y = Activation::Sigmoid.apply(x));
}

/// C = A + B for row-major rows×cols, the article's double loop.
pub fn mat_add_loop(a: &[f32], b: &[f32], c: &mut [f32], rows: usize, cols: usize) {
    for r in 0..rows {
        for col in 0..cols {
            let i = r * cols + col;
            c[i] = a[i] + b[i];
        }
    }
}

/// C = A + B with rows spread over every core.
pub fn mat_add_par(a: &[f32], b: &[f32], c: &mut [f32], cols: usize) {
    let rows_per_task = (PAR_MIN_ELEMS / cols.max(1)).max(1);
    c.par_chunks_mut(cols.max(1)).with_min_len(rows_per_task).enumerate().for_each(|(r, row)| {
        let (a, b) = (&a[r * cols..(r + 1) * cols], &b[r * cols..(r + 1) * cols]);
        for ((c, a), b) in row.iter_mut().zip(a).zip(b) {
            *c = a + b;
        }
    });
}

/// The article's triple loop: C (m×n) = A (m×k) · B (k×n), row-major, f32 accumulation, the
/// inner loop striding down a column of B.
pub fn matmul_loop(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    host::reference::matmul_naive_into(a, b, c, m, k, n);
}

/// C = A·B with rows of C spread over every core, each computed in i-k-j order (a row of B at a
/// time, so the inner loop is contiguous and vectorizes).
pub fn matmul_par(a: &[f32], b: &[f32], c: &mut [f32], k: usize, n: usize) {
    c.par_chunks_mut(n.max(1)).enumerate().for_each(|(i, row)| {
        row.fill(0.0);
        for p in 0..k {
            let av = a[i * k + p];
            for (cj, &bv) in row.iter_mut().zip(&b[p * n..(p + 1) * n]) {
                *cj += av * bv;
            }
        }
    });
}

/// Row-major operands viewed as nalgebra's column-major matrices without copying: the row-major
/// m×k `A` is the column-major k×m `Aᵀ`, and Cᵀ = Bᵀ·Aᵀ, whose column-major data is C row-major.
pub struct NalgebraMatmul {
    at: DMatrix<f32>,
    bt: DMatrix<f32>,
    ct: DMatrix<f32>,
}

impl NalgebraMatmul {
    pub fn new(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Self {
        NalgebraMatmul { at: DMatrix::from_column_slice(k, m, a), bt: DMatrix::from_column_slice(n, k, b), ct: DMatrix::zeros(n, m) }
    }

    /// Computes C = A·B (nalgebra's `gemm`, which calls matrixmultiply's sgemm).
    pub fn run(&mut self) {
        self.ct.gemm(1.0, &self.bt, &self.at, 0.0);
    }

    /// C, row-major.
    pub fn result(&self) -> &[f32] {
        self.ct.as_slice()
    }
}

/// y = act(x·Wᵀ + b): x batch×in, W out×in, b out, y batch×out, the plain loops.
#[allow(clippy::too_many_arguments)]
pub fn dense_loop(x: &[f32], w: &[f32], b: &[f32], y: &mut [f32], batch: usize, in_f: usize, out_f: usize, act: Activation) {
    for r in 0..batch {
        for o in 0..out_f {
            let mut acc = b[o];
            for i in 0..in_f {
                acc += x[r * in_f + i] * w[o * in_f + i];
            }
            y[r * out_f + o] = act.apply(acc);
        }
    }
}

/// The dense layer with batch rows spread over every core (each output a contiguous dot product).
pub fn dense_par(x: &[f32], w: &[f32], b: &[f32], y: &mut [f32], in_f: usize, out_f: usize, act: Activation) {
    y.par_chunks_mut(out_f.max(1)).enumerate().for_each(|(r, yr)| {
        let xr = &x[r * in_f..(r + 1) * in_f];
        for (o, yo) in yr.iter_mut().enumerate() {
            let wr = &w[o * in_f..(o + 1) * in_f];
            let dot: f32 = xr.iter().zip(wr).map(|(a, b)| a * b).sum();
            *yo = act.apply(dot + b[o]);
        }
    });
}

/// The dense layer as nalgebra's GEMM plus a bias-and-activation pass: Yᵀ (out×batch) = W·Xᵀ,
/// with W laid out column-major once, up front (weights are static).
pub struct NalgebraDense {
    w: DMatrix<f32>,
    xt: DMatrix<f32>,
    yt: DMatrix<f32>,
    bias: Vec<f32>,
    act: Activation,
}

impl NalgebraDense {
    #[allow(clippy::too_many_arguments)]
    pub fn new(x: &[f32], w: &[f32], b: &[f32], batch: usize, in_f: usize, out_f: usize, act: Activation) -> Self {
        NalgebraDense {
            w: DMatrix::from_row_slice(out_f, in_f, w),
            xt: DMatrix::from_column_slice(in_f, batch, x),
            yt: DMatrix::zeros(out_f, batch),
            bias: b.to_vec(),
            act,
        }
    }

    pub fn run(&mut self) {
        self.yt.gemm(1.0, &self.w, &self.xt, 0.0);
        let out_f = self.bias.len();
        for col in self.yt.as_mut_slice().chunks_mut(out_f.max(1)) {
            for (y, &b) in col.iter_mut().zip(&self.bias) {
                *y = self.act.apply(*y + b);
            }
        }
    }

    /// y, row-major batch×out.
    pub fn result(&self) -> &[f32] {
        self.yt.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(n: usize, s: f32) -> Vec<f32> {
        (0..n).map(|i| ((i as f32) * s).sin()).collect()
    }

    #[test]
    fn every_baseline_agrees_with_the_reference() {
        let (m, k, n) = (37, 29, 41);
        let (a, b) = (seq(m * k, 0.37), seq(k * n, 0.11));
        let want = host::reference::matmul_f64(&a, &b, m, k, n);
        let want: Vec<f32> = want.iter().map(|&v| v as f32).collect();
        let mut c = vec![f32::NAN; m * n];
        matmul_loop(&a, &b, &mut c, m, k, n);
        assert!(crate::metrics::relative_error(&c, &want) < 1e-5);
        c.fill(f32::NAN);
        matmul_par(&a, &b, &mut c, k, n);
        assert!(crate::metrics::relative_error(&c, &want) < 1e-5);
        let mut nm = NalgebraMatmul::new(&a, &b, m, k, n);
        nm.run();
        assert!(crate::metrics::relative_error(nm.result(), &want) < 1e-5);

        let (x, y) = (seq(100_000, 0.3), seq(100_000, 0.7));
        let mut c1 = vec![f32::NAN; x.len()];
        let mut c2 = vec![f32::NAN; x.len()];
        vec_add_loop(&x, &y, &mut c1);
        vec_add_par(&x, &y, &mut c2);
        assert_eq!(c1, host::reference::vec_add(&x, &y));
        assert_eq!(c1, c2);
        sigmoid_loop(&x, &mut c1);
        sigmoid_par(&x, &mut c2);
        assert_eq!(c1, host::reference::sigmoid(&x));
        assert_eq!(c1, c2);
        mat_add_loop(&x, &y, &mut c1, 250, 400);
        mat_add_par(&x, &y, &mut c2, 400);
        assert_eq!(c1, c2);

        let (batch, in_f, out_f) = (5, 33, 17);
        let (x, w, bias) = (seq(batch * in_f, 0.2), seq(out_f * in_f, 0.9), seq(out_f, 1.3));
        let want: Vec<f32> = host::reference::dense_f64(&x, &w, &bias, batch, in_f, out_f, Activation::Sigmoid).iter().map(|&v| v as f32).collect();
        let mut y1 = vec![f32::NAN; batch * out_f];
        let mut y2 = vec![f32::NAN; batch * out_f];
        dense_loop(&x, &w, &bias, &mut y1, batch, in_f, out_f, Activation::Sigmoid);
        dense_par(&x, &w, &bias, &mut y2, in_f, out_f, Activation::Sigmoid);
        let mut nd = NalgebraDense::new(&x, &w, &bias, batch, in_f, out_f, Activation::Sigmoid);
        nd.run();
        for got in [&y1[..], &y2[..], nd.result()] {
            assert!(crate::metrics::relative_error(got, &want) < 1e-5);
        }
    }
}

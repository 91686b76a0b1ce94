use host::ops::dense::{Activation, dense, dense_into};
use host::{DeviceMatrix, DeviceVector, Error, reference};
use integration_tests::{Suite, assert_close, expect_err, gpu, uniform};

/// (batch, in, out), including the article's single input and odd shapes.
const SHAPES: &[(usize, usize, usize)] = &[(1, 1, 1), (1, 1024, 1024), (3, 5, 7), (33, 17, 65), (256, 784, 100), (1000, 31, 10)];

pub fn register(s: &mut Suite) {
    for act in Activation::ALL {
        for &(batch, in_f, out_f) in SHAPES {
            s.gpu(format!("dense::{act:?}::{batch}x{in_f}x{out_f}"), move |g, rng| {
                let scale = 1.0 / (in_f as f32).sqrt();
                let x = uniform(rng, batch * in_f, -1.0, 1.0);
                let w = uniform(rng, out_f * in_f, -scale, scale);
                let b = uniform(rng, out_f, -1.0, 1.0);
                let dx = gpu(DeviceMatrix::from_host(g, batch, in_f, &x))?;
                let dw = gpu(DeviceMatrix::from_host(g, out_f, in_f, &w))?;
                let db = gpu(DeviceVector::from_host(g, &b))?;
                let mut dy = gpu(DeviceMatrix::filled(g, batch, out_f, f32::NAN))?;
                gpu(dense_into(g, &dx, &dw, &db, act, &mut dy))?;
                let want = reference::dense_f64(&x, &w, &b, batch, in_f, out_f, act);
                // Pre-activations are O(1) with |x|,|w| ≤ 1/√in: f32 summation error ≲ 1e-6,
                // plus fast_exp's 3e-6 relative for sigmoid/tanh.
                assert_close("dense", &gpu(dy.to_host(g))?, &want, 1e-5, 1e-5)
            });
        }
    }
    s.gpu("dense::shape_errors_and_empty", |g, _| {
        let x = gpu(DeviceMatrix::zeros(g, 4, 3))?;
        let w = gpu(DeviceMatrix::zeros(g, 5, 2))?;
        let b = gpu(DeviceVector::zeros(g, 5))?;
        expect_err("in features 3 vs 2", dense(g, &x, &w, &b, Activation::Relu), |e| matches!(e, Error::ShapeMismatch { .. }))?;
        let w = gpu(DeviceMatrix::zeros(g, 5, 3))?;
        let b4 = gpu(DeviceVector::zeros(g, 4))?;
        expect_err("bias 4 vs 5", dense(g, &x, &w, &b4, Activation::Relu), |e| matches!(e, Error::ShapeMismatch { .. }))?;
        let empty = gpu(DeviceMatrix::from_host(g, 0, 3, &[]))?;
        let y = gpu(dense(g, &empty, &w, &b, Activation::Sigmoid))?;
        if y.shape() != (0, 5) {
            return Err(format!("empty batch gives {:?}", y.shape()));
        }
        Ok(())
    });
}

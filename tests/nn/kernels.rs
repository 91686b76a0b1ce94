//! The new kernels (softmax + cross-entropy, argmax, fused activation backward + column sums,
//! scaled sum, SGD, Adam, gather) against the CPU reference, on fresh random inputs with every
//! output poisoned first.

use host::buffer_bf16::{DeviceMatrixBf16, bf16_to_f32, f32_to_bf16};
use host::nn::cpu;
use host::ops::optim::{self, AdamParams, SgdParams};
use host::ops::{reduce, softmax};
use host::{Activation, DeviceMatrix, DeviceVector, Error};
use integration_tests::{Suite, assert_close, expect_err, gpu, uniform};
use rand::Rng;
use rand::rngs::StdRng;

fn labels(rng: &mut StdRng, n: usize, classes: usize) -> Vec<u32> {
    (0..n).map(|_| rng.random_range(0..classes as u32)).collect()
}

fn check_softmax(g: &host::Gpu, rng: &mut StdRng, rows: usize, cols: usize, offset: f32) -> Result<(), String> {
    let mut z = uniform(rng, rows * cols, -8.0, 8.0);
    for v in &mut z {
        *v += offset;
    }
    let y = labels(rng, rows, cols);
    let dz = gpu(DeviceMatrix::from_host(g, rows, cols, &z))?;
    let dy = gpu(DeviceVector::from_host(g, &y))?;
    let mut dd = gpu(DeviceMatrix::filled(g, rows, cols, f32::NAN))?;
    let mut rl = gpu(DeviceVector::filled(g, rows, f32::NAN))?;
    let scale = 1.0 / rows as f32;
    gpu(softmax::softmax_cross_entropy(g, &dz, &dy, scale, &mut dd, &mut rl))?;
    // Reference per row (mean over one row = that row's loss).
    let mut want_loss = Vec::new();
    let mut want_d = Vec::new();
    for r in 0..rows {
        let (l, d) = cpu::softmax_cross_entropy(&z[r * cols..(r + 1) * cols], &y[r..r + 1], cols);
        want_loss.push(l);
        want_d.extend(d.iter().map(|&v| v as f64 / rows as f64));
    }
    let what = format!("softmax_xent {rows}x{cols} offset {offset}");
    assert_close(&format!("{what} loss"), &gpu(rl.to_host(g))?, &want_loss, 1e-5, 2e-6)?;
    // p = exp(z − max)·(1/Σ) in f32 is off by a few ulp of p from the sum's and the division's
    // roundings (the f64 reference is exact to f32). Where p is near 1, p − 1 cancels, so no
    // relative bound holds there: allow 4ε absolute in p (8 ulp of a p just below 1; a 2-ulp
    // error, seen with TEST_SEED=1795325646038785836, failed the former 1e-7).
    assert_close(&format!("{what} dlogits"), &gpu(dd.to_host(g))?, &want_d, 1e-5, 4.0 * f32::EPSILON as f64 / rows as f64)
}

pub fn register(s: &mut Suite) {
    for &(rows, cols) in &[(1usize, 1usize), (1, 10), (7, 3), (33, 10), (300, 37), (129, 1000)] {
        for offset in [0.0f32, 1000.0, -3000.0] {
            crate::gpu_shared(s, format!("kernels::softmax_xent::{rows}x{cols}::offset{offset}"), move |g, rng| check_softmax(g, rng, rows, cols, offset));
        }
    }
    crate::gpu_shared(s, "kernels::softmax_xent::shape_errors", |g, _| {
        let z = gpu(DeviceMatrix::zeros(g, 4, 3))?;
        let y3 = gpu(DeviceVector::<u32>::zeros(g, 3))?;
        let y4 = gpu(DeviceVector::<u32>::zeros(g, 4))?;
        let mut d = gpu(DeviceMatrix::zeros(g, 4, 3))?;
        let mut d_bad = gpu(DeviceMatrix::zeros(g, 3, 4))?;
        let mut rl = gpu(DeviceVector::zeros(g, 4))?;
        expect_err("3 labels for 4 rows", softmax::softmax_cross_entropy(g, &z, &y3, 1.0, &mut d, &mut rl), |e| matches!(e, Error::ShapeMismatch { .. }))?;
        expect_err("dlogits 3x4", softmax::softmax_cross_entropy(g, &z, &y4, 1.0, &mut d_bad, &mut rl), |e| matches!(e, Error::ShapeMismatch { .. }))?;
        let e = gpu(DeviceMatrix::from_host(g, 0, 3, &[]))?;
        let y0 = gpu(DeviceVector::<u32>::zeros(g, 0))?;
        let mut d0 = gpu(DeviceMatrix::from_host(g, 0, 3, &[]))?;
        let mut r0 = gpu(DeviceVector::zeros(g, 0))?;
        gpu(softmax::softmax_cross_entropy(g, &e, &y0, 1.0, &mut d0, &mut r0))
    });
    for &(rows, cols) in &[(1usize, 1usize), (5, 10), (300, 37), (1000, 10), (64, 100)] {
        crate::gpu_shared(s, format!("kernels::argmax::{rows}x{cols}"), move |g, rng| {
            // Few distinct values, so ties are common: the first maximum must win.
            let z: Vec<f32> = (0..rows * cols).map(|_| rng.random_range(0..4) as f32).collect();
            let y = labels(rng, rows, cols);
            let dz = gpu(DeviceMatrix::from_host(g, rows, cols, &z))?;
            let dy = gpu(DeviceVector::from_host(g, &y))?;
            let mut pred = gpu(DeviceVector::from_host(g, &vec![u32::MAX; rows]))?;
            let mut correct = gpu(DeviceVector::from_host(g, &[5u32]))?;
            gpu(softmax::argmax_count(g, &dz, &dy, &mut pred, &mut correct))?;
            let want = cpu::argmax_rows(&z, cols);
            let got = gpu(pred.to_host(g))?;
            if got != want {
                let i = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
                return Err(format!("argmax {rows}x{cols}: row {i} is {}, reference {}", got[i], want[i]));
            }
            let n = want.iter().zip(&y).filter(|(p, l)| p == l).count() as u32;
            let c = gpu(correct.to_host(g))?[0];
            if c != 5 + n {
                return Err(format!("correct count {c}, want 5 + {n}"));
            }
            Ok(())
        });
    }
    for act in Activation::ALL {
        for &(rows, cols) in &[(1usize, 1usize), (7, 33), (256, 1024), (1025, 10), (3, 100), (4099, 37), (4096, 1024)] {
            crate::gpu_shared(s, format!("kernels::act_backward_col_sum::{act:?}::{rows}x{cols}"), move |g, rng| {
                let dy = uniform(rng, rows * cols, -1.0, 1.0);
                let pre = uniform(rng, rows * cols, -3.0, 3.0);
                let y: Vec<f32> = pre.iter().map(|&v| act.apply(v)).collect();
                let mut dz = gpu(DeviceMatrix::from_host(g, rows, cols, &dy))?;
                let dyy = gpu(DeviceMatrix::from_host(g, rows, cols, &y))?;
                let mut db = gpu(DeviceVector::filled(g, cols, f32::NAN))?;
                gpu(reduce::act_backward_col_sum(g, &mut dz, &dyy, act, &mut db))?;
                let want_dz: Vec<f32> = dy.iter().zip(&y).map(|(&d, &yy)| d * act.derivative_from_output(yy)).collect();
                let mut want_db = vec![0.0f64; cols];
                let mut mag = vec![0.0f64; cols];
                for r in 0..rows {
                    for c in 0..cols {
                        want_db[c] += want_dz[r * cols + c] as f64;
                        mag[c] += (want_dz[r * cols + c] as f64).abs();
                    }
                }
                let what = format!("act_backward_col_sum {act:?} {rows}x{cols}");
                integration_tests::assert_bitwise_eq(&format!("{what} dz"), &gpu(dz.to_host(g))?, &want_dz)?;
                // f32 sums of ≤ 4099 terms in up to three stages: typically ~1e-6·Σ|dz|; a lost row would be ~1e-3.
                integration_tests::assert_close_scaled(&format!("{what} db"), &gpu(db.to_host(g))?, &want_db, &mag, 1e-5)
            });
        }
    }
    crate::gpu_shared(s, "kernels::col_sum::zero_rows_and_errors", |g, rng| {
        let e = gpu(DeviceMatrix::from_host(g, 0, 5, &[]))?;
        let mut out = gpu(DeviceVector::filled(g, 5, f32::NAN))?;
        gpu(reduce::col_sum(g, &e, &mut out))?;
        if gpu(out.to_host(g))? != vec![0.0; 5] {
            return Err("column sums of 0 rows are zeros".into());
        }
        let x = uniform(rng, 40 * 3, -1.0, 1.0);
        let dx = gpu(DeviceMatrix::from_host(g, 40, 3, &x))?;
        let mut out = gpu(DeviceVector::filled(g, 3, f32::NAN))?;
        gpu(reduce::col_sum(g, &dx, &mut out))?;
        if gpu(dx.to_host(g))? != x {
            return Err("col_sum must not modify its input".into());
        }
        let want: Vec<f64> = (0..3).map(|c| (0..40).map(|r| x[r * 3 + c] as f64).sum()).collect();
        assert_close("col_sum 40x3", &gpu(out.to_host(g))?, &want, 1e-5, 1e-5)?;
        let mut bad = gpu(DeviceVector::zeros(g, 4))?;
        expect_err("4 outputs for 3 columns", reduce::col_sum(g, &dx, &mut bad), |e| matches!(e, Error::ShapeMismatch { .. }))
    });
    // The bias step fused into the kernels that finish db: the same db bits as without it, and
    // b − lr·db by `sgd_update` (one chunk and several; with and without the bf16 dZ copy).
    for &(rows, cols) in &[(7usize, 33usize), (4099, 37), (256, 1024)] {
        crate::gpu_shared(s, format!("kernels::col_sum_sgd::{rows}x{cols}"), move |g, rng| {
            let lr = 0.37f32;
            let hp = SgdParams { lr, momentum: 0.0, weight_decay: 0.0 };
            let dy = uniform(rng, rows * cols, -1.0, 1.0);
            let y: Vec<f32> = uniform(rng, rows * cols, -3.0, 3.0).iter().map(|&v| Activation::Relu.apply(v)).collect();
            let b0 = uniform(rng, cols, -1.0, 1.0);
            let dyy = gpu(DeviceMatrix::from_host(g, rows, cols, &y))?;
            // Without the step: the reference db and dz.
            let mut dz_ref = gpu(DeviceMatrix::from_host(g, rows, cols, &dy))?;
            let mut db_ref = gpu(DeviceVector::filled(g, cols, f32::NAN))?;
            gpu(reduce::act_backward_col_sum(g, &mut dz_ref, &dyy, Activation::Relu, &mut db_ref))?;
            let (want_dz, want_db) = (gpu(dz_ref.to_host(g))?, gpu(db_ref.to_host(g))?);
            let want_b: Vec<f32> = b0.iter().zip(&want_db).map(|(&b, &d)| kernels::optim::sgd_update(b, d, 0.0, &hp).0).collect();
            for with_copy in [false, true] {
                let what = format!("act_backward_col_sum_sgd {rows}x{cols} bf16 copy {with_copy}");
                let mut dz = gpu(DeviceMatrix::from_host(g, rows, cols, &dy))?;
                let mut copy = gpu(DeviceMatrixBf16::from_f32(g, rows, cols, &vec![f32::NAN; rows * cols]))?;
                let mut db = gpu(DeviceVector::filled(g, cols, f32::NAN))?;
                let mut b = gpu(DeviceVector::from_host(g, &b0))?;
                let step = Some(reduce::BiasSgd { bias: &mut b, lr });
                gpu(reduce::act_backward_col_sum_sgd(g, &mut dz, with_copy.then_some(&mut copy), &dyy, Activation::Relu, &mut db, step))?;
                integration_tests::assert_bitwise_eq(&format!("{what} dz"), &gpu(dz.to_host(g))?, &want_dz)?;
                integration_tests::assert_bitwise_eq(&format!("{what} db"), &gpu(db.to_host(g))?, &want_db)?;
                integration_tests::assert_bitwise_eq(&format!("{what} b"), &gpu(b.to_host(g))?, &want_b)?;
                if with_copy {
                    let want_copy: Vec<f32> = want_dz.iter().map(|&v| bf16_to_f32(f32_to_bf16(v))).collect();
                    integration_tests::assert_bitwise_eq(&format!("{what} bf16 dz"), &gpu(copy.to_f32(g))?, &want_copy)?;
                }
            }
            // col_sum with the step (the output layer's db).
            let x = gpu(DeviceMatrix::from_host(g, rows, cols, &dy))?;
            let mut sums = gpu(DeviceVector::filled(g, cols, f32::NAN))?;
            gpu(reduce::col_sum(g, &x, &mut sums))?;
            let want_sums = gpu(sums.to_host(g))?;
            let mut out = gpu(DeviceVector::filled(g, cols, f32::NAN))?;
            let mut b = gpu(DeviceVector::from_host(g, &b0))?;
            gpu(reduce::col_sum_sgd(g, &x, &mut out, Some(reduce::BiasSgd { bias: &mut b, lr })))?;
            integration_tests::assert_bitwise_eq("col_sum_sgd sums", &gpu(out.to_host(g))?, &want_sums)?;
            let want_b: Vec<f32> = b0.iter().zip(&want_sums).map(|(&b, &d)| kernels::optim::sgd_update(b, d, 0.0, &hp).0).collect();
            integration_tests::assert_bitwise_eq("col_sum_sgd b", &gpu(b.to_host(g))?, &want_b)?;
            // A bias of the wrong length is a shape error, and nothing is written.
            let mut short = gpu(DeviceVector::from_host(g, &b0[..cols - 1]))?;
            expect_err("bias of cols − 1", reduce::col_sum_sgd(g, &x, &mut out, Some(reduce::BiasSgd { bias: &mut short, lr })), |e| {
                matches!(e, Error::ShapeMismatch { .. })
            })
        });
    }
    // Tall matrices are summed in row chunks by many blocks; the chunks' sums are added in a
    // fixed order, so a second run gives the same bits.
    for &(rows, cols) in &[(4099usize, 10usize), (8192, 1000)] {
        crate::gpu_shared(s, format!("kernels::col_sum::chunked_is_deterministic::{rows}x{cols}"), move |g, rng| {
            let x = uniform(rng, rows * cols, -1.0, 1.0);
            let dx = gpu(DeviceMatrix::from_host(g, rows, cols, &x))?;
            let mut out = gpu(DeviceVector::filled(g, cols, f32::NAN))?;
            gpu(reduce::col_sum(g, &dx, &mut out))?;
            let first = gpu(out.to_host(g))?;
            let want: Vec<f64> = (0..cols).map(|c| (0..rows).map(|r| x[r * cols + c] as f64).sum()).collect();
            let mag: Vec<f64> = (0..cols).map(|c| (0..rows).map(|r| (x[r * cols + c] as f64).abs()).sum()).collect();
            integration_tests::assert_close_scaled(&format!("col_sum {rows}x{cols}"), &first, &want, &mag, 1e-5)?;
            out.fill(g, f32::NAN).map_err(|e| e.to_string())?;
            gpu(reduce::col_sum(g, &dx, &mut out))?;
            if gpu(out.to_host(g))?.iter().zip(&first).any(|(a, b)| a.to_bits() != b.to_bits()) {
                return Err(format!("col_sum {rows}x{cols}: a second run differs"));
            }
            Ok(())
        });
    }
    for n in [1usize, 31, 1024, 1025, 100_000] {
        crate::gpu_shared(s, format!("kernels::sum_scaled_accumulate::{n}"), move |g, rng| {
            let x = uniform(rng, n, -1.0, 1.0);
            let dx = gpu(DeviceVector::from_host(g, &x))?;
            let mut acc = gpu(DeviceVector::from_host(g, &[1.5f32]))?;
            gpu(reduce::sum_scaled_accumulate(g, &dx, &mut acc, 0.25))?;
            gpu(reduce::sum_scaled_accumulate(g, &dx, &mut acc, 0.25))?;
            let want = 1.5 + 0.5 * x.iter().map(|&v| v as f64).sum::<f64>();
            let mag = 0.5 * x.iter().map(|&v| (v as f64).abs()).sum::<f64>() + 1.5;
            integration_tests::assert_close_scaled(&format!("sum of {n}"), &gpu(acc.to_host(g))?, &[want], &[mag], 1e-5)
        });
    }
    for n in [1usize, 10, 1023, 1 << 20] {
        crate::gpu_shared(s, format!("kernels::sgd_momentum::{n}"), move |g, rng| {
            let hp = SgdParams { lr: 0.05, momentum: 0.9, weight_decay: 1e-3 };
            let (mut p, mut v) = (uniform(rng, n, -1.0, 1.0), vec![0.0f32; n]);
            let mut dp = gpu(DeviceVector::from_host(g, &p))?;
            let mut dv = gpu(DeviceVector::zeros(g, n))?;
            for _ in 0..3 {
                let grad = uniform(rng, n, -1.0, 1.0);
                let dg = gpu(DeviceVector::from_host(g, &grad))?;
                gpu(optim::sgd_step(g, &mut dp, &dg, Some(&mut dv), hp))?;
                for i in 0..n {
                    (p[i], v[i]) = kernels::optim::sgd_update(p[i], grad[i], v[i], &hp);
                }
            }
            let f64s = |v: &[f32]| v.iter().map(|&x| x as f64).collect::<Vec<_>>();
            assert_close("sgd p", &gpu(dp.to_host(g))?, &f64s(&p), 1e-6, 1e-7)?;
            assert_close("sgd v", &gpu(dv.to_host(g))?, &f64s(&v), 1e-6, 1e-7)?;
            let plain = SgdParams { momentum: 0.0, ..hp };
            let dg = gpu(DeviceVector::from_host(g, &p))?;
            gpu(optim::sgd_step::<_, _, DeviceVector<f32>>(g, &mut dp, &dg, None, plain))?;
            expect_err("momentum without velocity", optim::sgd_step::<_, _, DeviceVector<f32>>(g, &mut dp, &dg, None, hp), |e| {
                matches!(e, Error::InvalidArgument { .. })
            })
        });
        crate::gpu_shared(s, format!("kernels::adam::{n}"), move |g, rng| {
            let hp = AdamParams::new(0.01, 0.9, 0.999, 1e-8, 1e-4);
            let mut p = uniform(rng, n, -1.0, 1.0);
            let (mut m, mut v) = (vec![0.0f32; n], vec![0.0f32; n]);
            let mut dp = gpu(DeviceVector::from_host(g, &p))?;
            let mut dm = gpu(DeviceVector::zeros(g, n))?;
            let mut dv = gpu(DeviceVector::zeros(g, n))?;
            let mut step = gpu(DeviceVector::<u32>::zeros(g, 1))?;
            for t in 1..=4u32 {
                let grad = uniform(rng, n, -1.0, 1.0);
                let dg = gpu(DeviceVector::from_host(g, &grad))?;
                gpu(optim::count_step(g, &mut step))?;
                gpu(optim::adam_step(g, &mut dp, &dg, &mut dm, &mut dv, &step, hp))?;
                for i in 0..n {
                    (p[i], m[i], v[i]) = kernels::optim::adam_update(p[i], grad[i], m[i], v[i], &hp, t);
                }
            }
            if gpu(step.to_host(g))? != [4] {
                return Err("step counter".into());
            }
            let f64s = |v: &[f32]| v.iter().map(|&x| x as f64).collect::<Vec<_>>();
            assert_close("adam p", &gpu(dp.to_host(g))?, &f64s(&p), 1e-5, 1e-6)?;
            assert_close("adam m", &gpu(dm.to_host(g))?, &f64s(&m), 1e-5, 1e-7)?;
            assert_close("adam v", &gpu(dv.to_host(g))?, &f64s(&v), 1e-5, 1e-9)
        });
    }
    crate::gpu_shared(s, "kernels::gather_rows", |g, rng| {
        let (rows, cols, batch) = (37usize, 13usize, 8usize);
        let x = uniform(rng, rows * cols, -1.0, 1.0);
        let y = labels(rng, rows, 10);
        let mut perm: Vec<u32> = (0..rows as u32).collect();
        for i in (1..rows).rev() {
            perm.swap(i, rng.random_range(0..=i));
        }
        let dx = gpu(DeviceMatrix::from_host(g, rows, cols, &x))?;
        let dy = gpu(DeviceVector::from_host(g, &y))?;
        let dperm = gpu(DeviceVector::from_host(g, &perm))?;
        let mut counter = gpu(DeviceVector::<u32>::zeros(g, 1))?;
        let mut out = gpu(DeviceMatrix::filled(g, batch, cols, f32::NAN))?;
        let mut out_y = gpu(DeviceVector::from_host(g, &vec![u32::MAX; batch]))?;
        for b in 0..rows / batch {
            gpu(optim::gather_rows(g, &dx, &dy, &dperm, &counter, &mut out, &mut out_y))?;
            gpu(optim::count_step(g, &mut counter))?;
            let want_x: Vec<f32> = perm[b * batch..(b + 1) * batch].iter().flat_map(|&i| x[i as usize * cols..(i as usize + 1) * cols].to_vec()).collect();
            let want_y: Vec<u32> = perm[b * batch..(b + 1) * batch].iter().map(|&i| y[i as usize]).collect();
            integration_tests::assert_bitwise_eq(&format!("gather batch {b}"), &gpu(out.to_host(g))?, &want_x)?;
            if gpu(out_y.to_host(g))? != want_y {
                return Err(format!("gather labels of batch {b}"));
            }
        }
        Ok(())
    });
}

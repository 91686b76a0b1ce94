use host::ops::elementwise::{MatAddKernel, VecAddKernel, mat_add, mat_add_into_with, vec_add, vec_add_into};
use host::{DeviceMatrix, DeviceVector, Error, reference};
use integration_tests::{Suite, assert_bitwise_eq, expect_err, gpu, uniform};

/// Lengths around the block size (256), the vector width (4), a streaming block's chunk (4096
/// floats) and far beyond one block.
const LENGTHS: &[usize] = &[1, 2, 3, 4, 5, 31, 255, 256, 257, 1000, 1025, 4095, 4096, 4101, 3 * 4096 + 7, (1 << 20) + 3];
/// Shapes: single rows/columns, around the 32×8 block, odd.
const SHAPES: &[(usize, usize)] = &[(1, 1), (1, 1000), (1000, 1), (7, 33), (31, 9), (33, 257), (1025, 513)];

pub fn register(s: &mut Suite) {
    for kernel in [VecAddKernel::Naive, VecAddKernel::Vectorized] {
        for &n in LENGTHS {
            s.gpu(format!("vec_add::{kernel:?}::n{n}"), move |g, rng| {
                let a = uniform(rng, n, -1e3, 1e3);
                let b = uniform(rng, n, -1e3, 1e3);
                let (da, db) = (gpu(DeviceVector::from_host(g, &a))?, gpu(DeviceVector::from_host(g, &b))?);
                let mut dc = gpu(DeviceVector::filled(g, n, f32::NAN))?;
                gpu(vec_add_into(g, &da, &db, &mut dc, kernel))?;
                // A single f32 addition is exactly rounded: the GPU must match the CPU bit for bit.
                assert_bitwise_eq("vec_add", &gpu(dc.to_host(g))?, &reference::vec_add(&a, &b))
            });
        }
    }
    s.gpu("vec_add::empty", |g, _| {
        let e = gpu(DeviceVector::<f32>::from_host(g, &[]))?;
        let c = gpu(vec_add(g, &e, &e))?;
        if !c.is_empty() {
            return Err("empty + empty must be empty".into());
        }
        Ok(())
    });
    s.gpu("vec_add::length_mismatch_is_an_error", |g, _| {
        let a = gpu(DeviceVector::from_host(g, &[1.0f32; 5]))?;
        let b = gpu(DeviceVector::from_host(g, &[1.0f32; 6]))?;
        expect_err("vec_add 5 vs 6", vec_add(g, &a, &b), |e| matches!(e, Error::ShapeMismatch { .. }))?;
        let mut c = gpu(DeviceVector::filled(g, 4, 0.0))?;
        expect_err("vec_add into 4", vec_add_into(g, &a, &a, &mut c, VecAddKernel::Naive), |e| matches!(e, Error::ShapeMismatch { .. }))
    });
    for kernel in [MatAddKernel::Blocks2d, MatAddKernel::Flat] {
        for &(rows, cols) in SHAPES {
            s.gpu(format!("mat_add::{kernel:?}::{rows}x{cols}"), move |g, rng| {
                let a = uniform(rng, rows * cols, -1.0, 1.0);
                let b = uniform(rng, rows * cols, -1.0, 1.0);
                let da = gpu(DeviceMatrix::from_host(g, rows, cols, &a))?;
                let db = gpu(DeviceMatrix::from_host(g, rows, cols, &b))?;
                let mut dc = gpu(DeviceMatrix::filled(g, rows, cols, f32::NAN))?;
                gpu(mat_add_into_with(g, &da, &db, &mut dc, kernel))?;
                assert_bitwise_eq("mat_add", &gpu(dc.to_host(g))?, &reference::mat_add(&a, &b, rows, cols))
            });
        }
    }
    s.gpu("mat_add::nalgebra_round_trip", |g, rng| {
        let a = nalgebra::DMatrix::from_fn(5, 3, |_, _| rand::Rng::random_range(rng, -1.0f32..1.0));
        let b = nalgebra::DMatrix::from_fn(5, 3, |_, _| rand::Rng::random_range(rng, -1.0f32..1.0));
        let c = gpu(mat_add(g, &gpu(DeviceMatrix::from_nalgebra(g, &a))?, &gpu(DeviceMatrix::from_nalgebra(g, &b))?))?;
        let got = gpu(c.to_nalgebra(g))?;
        if got != &a + &b {
            return Err(format!("nalgebra round trip: {got} vs {}", &a + &b));
        }
        Ok(())
    });
    s.gpu("mat_add::empty_and_mismatch", |g, _| {
        let e = gpu(DeviceMatrix::from_host(g, 0, 7, &[]))?;
        let c = gpu(mat_add(g, &e, &e))?;
        if c.shape() != (0, 7) {
            return Err(format!("empty shape {:?}", c.shape()));
        }
        let a = gpu(DeviceMatrix::zeros(g, 2, 3))?;
        let b = gpu(DeviceMatrix::zeros(g, 3, 2))?;
        expect_err("2x3 + 3x2", mat_add(g, &a, &b), |e| matches!(e, Error::ShapeMismatch { .. }))?;
        expect_err("bad data length", DeviceMatrix::from_host(g, 2, 3, &[0.0; 5]), |e| matches!(e, Error::DataLength { .. }))
    });
}

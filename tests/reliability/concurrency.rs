//! Several host threads, each with its own stream (`Gpu::fork_stream`), running different ops at
//! once give exactly the results of running them one by one: the kernels are deterministic, so
//! the comparison is bitwise.

use std::sync::Arc;

use host::ops::activation::{Activation, activation_into};
use host::ops::dense::dense;
use host::ops::elementwise::vec_add;
use host::ops::matmul::{Epilogue, GemmKernel, Transpose, gemm, matmul};
use host::{DeviceMatrix, DeviceVector, Gpu};
use integration_tests::{Suite, uniform};
use rand::RngCore;
use rand::rngs::StdRng;

/// 30 steps of a 64-48-32-10 network on digits (CUDA-graph replay after the first step); the
/// flattened final parameters.
pub fn training_run(g: &Gpu, seed: u64) -> host::Result<Vec<f32>> {
    use host::nn::gpu::{DeviceDataset, Trainer};
    use host::nn::{Architecture, Optimizer, Params, data, train};
    let (batch, steps) = (32usize, 30usize);
    let digits = data::digits()?;
    let sub = digits.select(&(0..batch * steps).collect::<Vec<_>>());
    let arch = Architecture::new(64, &[48, 32], 10, Activation::Tanh)?;
    let params = Params::init(&arch, seed)?;
    let mut trainer = Trainer::new(g, &params, Optimizer::adam(1e-3), batch, DeviceDataset::upload(g, &sub)?)?;
    trainer.set_graph(true);
    trainer.set_order(g, &train::epoch_order(seed, 0, sub.rows()))?;
    for _ in 0..steps {
        trainer.step(g)?;
    }
    let p = trainer.params(g)?;
    Ok(p.layers.iter().flat_map(|l| l.w.iter().chain(&l.b).copied()).collect())
}

/// Threads (and streams) run at once: one per job below, a training loop among them.
pub const THREADS: usize = 7;
/// Times each thread repeats its op while the others run: 20, or 2 at the sanitize scale.
fn repeats() -> usize {
    integration_tests::scaled(20, 2)
}

type Job = Arc<dyn Fn(&Gpu) -> host::Result<Vec<f32>> + Send + Sync>;

fn jobs(rng: &mut StdRng) -> Vec<(&'static str, Job)> {
    let (m, k, n) = (300, 257, 199);
    let a = uniform(rng, m * k, -1.0, 1.0);
    let b = uniform(rng, k * n, -1.0, 1.0);
    let x = uniform(rng, (1 << 20) + 3, -5.0, 5.0);
    let y = uniform(rng, (1 << 20) + 3, -5.0, 5.0);
    let bias = uniform(rng, n, -1.0, 1.0);
    let (a2, b2, bias2) = (a.clone(), b.clone(), bias.clone());
    let (x2, x3, x4) = (x.clone(), x.clone(), x.clone());
    let train_seed = rng.next_u64();
    vec![
        ("training", Arc::new(move |g: &Gpu| training_run(g, train_seed))),
        ("matmul", Arc::new(move |g: &Gpu| matmul(g, &DeviceMatrix::from_host(g, m, k, &a)?, &DeviceMatrix::from_host(g, k, n, &b)?)?.to_host(g))),
        ("vec_add", Arc::new(move |g: &Gpu| vec_add(g, &DeviceVector::from_host(g, &x)?, &DeviceVector::from_host(g, &y)?)?.to_host(g))),
        (
            "tanh",
            Arc::new(move |g: &Gpu| {
                let dx = DeviceVector::from_host(g, &x2)?;
                let mut dy = DeviceVector::filled(g, x2.len(), f32::NAN)?;
                activation_into(g, &dx, &mut dy, Activation::Tanh)?;
                dy.to_host(g)
            }),
        ),
        (
            "dense",
            Arc::new(move |g: &Gpu| {
                let xm = DeviceMatrix::from_host(g, m, k, &a2)?;
                let w = DeviceMatrix::from_host(g, n, k, &b2)?;
                dense(g, &xm, &w, &DeviceVector::from_host(g, &bias2)?, Activation::Sigmoid)?.to_host(g)
            }),
        ),
        (
            "gemm_tn",
            Arc::new(move |g: &Gpu| {
                let am = DeviceMatrix::from_host(g, 1023, 1025, &x4[..1023 * 1025])?;
                let mut c = DeviceMatrix::filled(g, 1025, 1025, f32::NAN)?;
                gemm(g, &am, Transpose::Yes, &am, Transpose::No, Epilogue::default(), &mut c, GemmKernel::Auto)?;
                c.to_host(g)
            }),
        ),
        (
            "sigmoid",
            Arc::new(move |g: &Gpu| {
                let dx = DeviceVector::from_host(g, &x3)?;
                let mut dy = DeviceVector::filled(g, x3.len(), f32::NAN)?;
                activation_into(g, &dx, &mut dy, Activation::Sigmoid)?;
                dy.to_host(g)
            }),
        ),
    ]
}

pub fn register(s: &mut Suite) {
    s.cpu("concurrency::runtime_types_are_send_and_sync", |_| {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Gpu>();
        send_sync::<DeviceVector<f32>>();
        send_sync::<DeviceMatrix>();
        send_sync::<host::Error>();
        Ok(())
    });
    s.gpu("concurrency::streams_match_sequential", |g, rng| {
        let (jobs, repeats) = (jobs(rng), repeats());
        // One by one, on this test's stream.
        let expected: Vec<Vec<f32>> = jobs.iter().map(|(_, f)| f(g)).collect::<host::Result<_>>().map_err(|e| e.to_string())?;
        // All at once, each thread on its own stream, each repeating its op.
        let results: Vec<Result<(), String>> = std::thread::scope(|scope| {
            let handles: Vec<_> = jobs
                .iter()
                .cycle()
                .take(THREADS)
                .zip(expected.iter().cycle())
                .map(|((name, f), want)| {
                    let stream = g.fork_stream();
                    scope.spawn(move || {
                        let stream = stream.map_err(|e| e.to_string())?;
                        for rep in 0..repeats {
                            let got = f(&stream).map_err(|e| format!("{name}: {e}"))?;
                            if got.iter().zip(want).any(|(a, b)| a.to_bits() != b.to_bits()) || got.len() != want.len() {
                                return Err(format!("{name}: repeat {rep} differs from the sequential result"));
                            }
                        }
                        Ok(())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("thread panicked".into()))).collect()
        });
        eprintln!("concurrency: {THREADS} threads × {repeats} repeats on separate streams");
        results.into_iter().collect()
    });
}

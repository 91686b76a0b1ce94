//! Device memory returns to its starting level after many allocate/launch/free iterations of
//! every op, and an allocation larger than the GPU fails with `OutOfMemory`, leaving the runtime
//! usable. These tests measure process-wide memory, so they run one at a time.

use host::ops::activation::{Activation, activation_into};
use host::ops::dense::dense;
use host::ops::elementwise::{mat_add, vec_add};
use host::ops::matmul::{Epilogue, GemmKernel, Transpose, gemm, matmul};
use host::{DeviceMatrix, DeviceVector, Error, Gpu};
use integration_tests::{Suite, expect_err, gpu, scaled, uniform};

/// Iterations per op: 200, or 10 at the sanitize scale.
fn iterations() -> usize {
    scaled(200, 10)
}

type Op = fn(&Gpu, &[f32]) -> host::Result<()>;

fn ops() -> Vec<(&'static str, Op)> {
    vec![
        ("vec_add", |g, x| vec_add(g, &DeviceVector::from_host(g, x)?, &DeviceVector::from_host(g, x)?).map(drop)),
        ("mat_add", |g, x| {
            let a = DeviceMatrix::from_host(g, 1024, 1024, &x[..1 << 20])?;
            mat_add(g, &a, &a).map(drop)
        }),
        ("activation", |g, x| {
            let dx = DeviceVector::from_host(g, x)?;
            let mut dy = DeviceVector::filled(g, x.len(), 0.0)?;
            activation_into(g, &dx, &mut dy, Activation::Tanh)
        }),
        ("matmul", |g, x| {
            let a = DeviceMatrix::from_host(g, 256, 256, &x[..65536])?;
            matmul(g, &a, &a).map(drop)
        }),
        ("gemm", |g, x| {
            let a = DeviceMatrix::from_host(g, 256, 256, &x[..65536])?;
            let bias = DeviceVector::from_host(g, &x[..256])?;
            let mut c = DeviceMatrix::zeros(g, 256, 256)?;
            gemm(g, &a, Transpose::No, &a, Transpose::Yes, Epilogue::bias_act(&bias, Activation::Relu), &mut c, GemmKernel::Auto)
        }),
        ("dense", |g, x| {
            let a = DeviceMatrix::from_host(g, 64, 1024, &x[..65536])?;
            let w = DeviceMatrix::from_host(g, 128, 1024, &x[..131072])?;
            dense(g, &a, &w, &DeviceVector::from_host(g, &x[..128])?, Activation::Sigmoid).map(drop)
        }),
    ]
}

/// Training runs (upload, 30 steps with graph replay, download, drop) in the training leak check:
/// 20, or 2 at the sanitize scale.
fn training_runs() -> usize {
    scaled(20, 2)
}

fn main() {
    let mut suite = Suite::default();
    suite.gpu("leak::training_run", |g, _| {
        let run = |seed| {
            use host::nn::gpu::{DeviceDataset, Trainer};
            use host::nn::{Architecture, Optimizer, Params, data, train};
            let digits = data::digits()?;
            let sub = digits.select(&(0..32 * 30).collect::<Vec<_>>());
            let params = Params::init(&Architecture::new(64, &[48, 32], 10, Activation::Relu)?, seed)?;
            let mut t = Trainer::new(g, &params, Optimizer::sgd(0.05, 0.9), 32, DeviceDataset::upload(g, &sub)?)?;
            t.set_graph(true);
            t.set_order(g, &train::epoch_order(seed, 0, sub.rows()))?;
            for _ in 0..30 {
                t.step(g)?;
            }
            t.params(g).map(drop)
        };
        gpu(run(0))?;
        gpu(g.synchronize())?;
        let (free_before, _) = gpu(g.memory_info())?;
        let runs = training_runs();
        for seed in 1..=runs as u64 {
            gpu(run(seed))?;
        }
        gpu(g.synchronize())?;
        let (free_after, _) = gpu(g.memory_info())?;
        eprintln!("leak::training_run: {runs} runs, free memory {free_before} → {free_after} bytes");
        if free_after < free_before {
            return Err(format!("training: {} bytes not returned after {runs} runs", free_before - free_after));
        }
        Ok(())
    });
    for (name, op) in ops() {
        suite.gpu(format!("leak::{name}"), move |g, rng| {
            let x = uniform(rng, (1 << 20) + 3, -1.0, 1.0);
            gpu(op(g, &x))?; // warm-up: lets the driver set up what it keeps for good
            gpu(g.synchronize())?;
            let (free_before, _) = gpu(g.memory_info())?;
            let iterations = iterations();
            for _ in 0..iterations {
                gpu(op(g, &x))?;
            }
            gpu(g.synchronize())?;
            let (free_after, _) = gpu(g.memory_info())?;
            eprintln!("leak::{name}: {iterations} iterations, free memory {free_before} → {free_after} bytes");
            if free_after < free_before {
                return Err(format!("{name}: {} bytes not returned after {iterations} iterations", free_before - free_after));
            }
            Ok(())
        });
    }
    suite.gpu("out_of_memory_is_reported_and_recoverable", |g, _| {
        let (_, total) = gpu(g.memory_info())?;
        let too_many = total / 4 + (1 << 28); // f32 elements: more bytes than the GPU has
        expect_err("allocating more than the GPU", DeviceVector::<f32>::zeros(g, too_many), |e| matches!(e, Error::OutOfMemory { .. }))?;
        let a = gpu(DeviceVector::from_host(g, &[1.0f32, 2.0]))?;
        if gpu(gpu(vec_add(g, &a, &a))?.to_host(g))? != [2.0, 4.0] {
            return Err("runtime unusable after an out-of-memory error".into());
        }
        Ok(())
    });
    suite.run_serial()
}

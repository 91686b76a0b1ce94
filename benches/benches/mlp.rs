//! One training step (batch gather, forward, softmax cross-entropy, backward, SGD) and inference
//! of the 784-1024-1024-10 ReLU MLP at batch 256 and 1024: the step replayed as a CUDA graph
//! and launched kernel by kernel, and the forward pass alone.
//!
//! `cargo bench -p benches --bench mlp`. Besides criterion's report, prints one line per case in
//! the format of the PyTorch anchor (`op,shape,dtype,median_ms,samples/s`), timed with CUDA
//! events over 200 steps, for the ratios in docs/mlp.md.

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use host::nn::data::Dataset;
use host::nn::gpu::{DeviceDataset, ForwardBuffers, Mlp, Trainer};
use host::nn::rng::Rng;
use host::nn::{Activation, Architecture, Optimizer, Params};
use host::timing::{median, time_gpu_ms};
use host::{DeviceMatrix, Error, Gpu};

const SIZES: [usize; 4] = [784, 1024, 1024, 10];
const BATCHES: [usize; 2] = [256, 1024];
/// Distinct batches in the synthetic set, so consecutive steps read different rows.
const BATCHES_PER_EPOCH: usize = 8;

fn synthetic(rows: usize, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let x = (0..rows * SIZES[0]).map(|_| rng.uniform() as f32).collect();
    let y = (0..rows).map(|_| rng.below(SIZES[3]) as u32).collect();
    Dataset::new(x, y, SIZES[0], SIZES[3]).expect("consistent synthetic data")
}

fn trainer(gpu: &Gpu, batch: usize, graph: bool) -> host::Result<Trainer> {
    let arch = Architecture::new(SIZES[0], &SIZES[1..3], SIZES[3], Activation::Relu)?;
    let params = Params::init(&arch, 1)?;
    let data = DeviceDataset::upload(gpu, &synthetic(batch * BATCHES_PER_EPOCH, 2))?;
    let mut t = Trainer::new(gpu, &params, Optimizer::sgd(0.01, 0.0), batch, data)?;
    t.set_graph(graph);
    // Warm up: the first step runs eagerly, the second captures the graph.
    for _ in 0..3 {
        step(gpu, &mut t)?;
    }
    gpu.synchronize()?;
    Ok(t)
}

/// One step, starting the batch order over when it runs out (an asynchronous memset).
fn step(gpu: &Gpu, t: &mut Trainer) -> host::Result<()> {
    match t.step(gpu) {
        Err(Error::InvalidArgument { .. }) => {
            t.rewind(gpu)?;
            t.step(gpu)
        }
        r => r,
    }
}

fn anchor_lines(gpu: &Gpu) -> host::Result<()> {
    println!("gpu,{}", gpu.info().name);
    for batch in BATCHES {
        for (name, graph) in [("mlp_train_step", true), ("mlp_train_step_eager", false)] {
            let mut t = trainer(gpu, batch, graph)?;
            let ms = median(&time_gpu_ms(gpu, 10, 200, || step(gpu, &mut t))?);
            println!("{name},B{batch},f32,{ms:.4},{:.0}", batch as f64 / ms * 1e3);
        }
        let (mlp, x, mut out) = inference_setup(gpu, batch)?;
        let ms = median(&time_gpu_ms(gpu, 10, 200, || mlp.forward(gpu, &x, &mut out))?);
        println!("mlp_infer,B{batch},f32,{ms:.4},{:.0}", batch as f64 / ms * 1e3);
    }
    Ok(())
}

fn inference_setup(gpu: &Gpu, batch: usize) -> host::Result<(Mlp, DeviceMatrix, ForwardBuffers)> {
    let arch = Architecture::new(SIZES[0], &SIZES[1..3], SIZES[3], Activation::Relu)?;
    let mlp = Mlp::from_params(gpu, &Params::init(&arch, 1)?)?;
    let data = synthetic(batch, 3);
    let x = DeviceMatrix::from_host(gpu, batch, SIZES[0], &data.x)?;
    let out = ForwardBuffers::new(gpu, &arch, batch)?;
    Ok((mlp, x, out))
}

/// Wall time of `iters` queued operations, with a synchronization at the end (what a training
/// loop sees: launch overhead included).
fn timed(gpu: &Gpu, iters: u64, mut f: impl FnMut() -> host::Result<()>) -> Duration {
    let t0 = Instant::now();
    for _ in 0..iters {
        f().expect("GPU step");
    }
    gpu.synchronize().expect("synchronize");
    t0.elapsed()
}

fn bench(c: &mut Criterion) {
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("mlp bench skipped: {e}");
            return;
        }
    };
    if let Err(e) = anchor_lines(&gpu) {
        eprintln!("mlp bench failed: {e}");
        return;
    }
    let mut group = c.benchmark_group("mlp_784_1024_1024_10");
    group.sample_size(30).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    for batch in BATCHES {
        for (name, graph) in [("train_step_graph", true), ("train_step_eager", false)] {
            let mut t = trainer(&gpu, batch, graph).expect("trainer");
            group.bench_function(format!("{name}/B{batch}"), |b| b.iter_custom(|iters| timed(&gpu, iters, || step(&gpu, &mut t))));
        }
        let (mlp, x, mut out) = inference_setup(&gpu, batch).expect("inference setup");
        group.bench_function(format!("infer/B{batch}"), |b| b.iter_custom(|iters| timed(&gpu, iters, || mlp.forward(&gpu, &x, &mut out))));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

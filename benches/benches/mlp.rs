//! One training step (batch gather, forward, softmax cross-entropy, backward, SGD) and inference
//! of the 784-1024-1024-10 ReLU MLP at batch 256 and 1024: the step replayed as a CUDA graph
//! and launched kernel by kernel, and the forward pass alone.
//!
//! `cargo bench -p benches --bench mlp`. Besides criterion's report, prints one line per case in
//! the format of the PyTorch anchor (`op,shape,dtype,median_ms,samples/s`), timed with CUDA
//! events over 200 steps, for the ratios in docs/mlp.md.
//!
//! `MLP_BENCH=amp` prints only the mixed-precision lines (issue 12) and skips criterion: the
//! graph-replayed training step and the forward pass (eager launches and a CUDA graph) of
//! 784-1024-1024-10 and 784-4096-4096-10 at batches 256, 1024 and 4096 in f32, tf32 and bf16, as
//! `mlp_amp_{train_step_graph,infer,infer_graph},SIZES,B{batch},{precision},median_ms,samples/s`,
//! the lines `benches/torch/mlp_amp.py` prints for PyTorch (it joins the two into ratios).

use std::time::{Duration, Instant};

use benches::timing::{median, time_gpu_ms};
use criterion::{Criterion, criterion_group, criterion_main};
use host::nn::data::Dataset;
use host::nn::gpu::{DeviceDataset, ForwardBuffers, Linear, Mlp, Trainer};
use host::nn::graph::CudaGraph;
use host::nn::rng::Rng;
use host::nn::{Activation, Architecture, Optimizer, Params, Precision};
use host::ops::{optim, reduce, softmax};
use host::{DeviceMatrix, DeviceVector, Error, Gpu};

const SIZES: [usize; 4] = [784, 1024, 1024, 10];
const BATCHES: [usize; 4] = [64, 256, 1024, 4096];
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
    for batch in BATCHES {
        breakdown(gpu, batch)?;
    }
    Ok(())
}

/// Median milliseconds of each launch of one eager step, run on its own (events around 50
/// repetitions): where a step's time goes.
fn breakdown(gpu: &Gpu, batch: usize) -> host::Result<()> {
    let arch = Architecture::new(SIZES[0], &SIZES[1..3], SIZES[3], Activation::Relu)?;
    let params = Params::init(&arch, 1)?;
    let layers: Vec<Linear> = params.layers.iter().enumerate().map(|(l, p)| Linear::from_host(gpu, p, arch.act_of(l))).collect::<host::Result<_>>()?;
    let data = synthetic(batch * BATCHES_PER_EPOCH, 4);
    let src = DeviceMatrix::from_host(gpu, data.rows(), SIZES[0], &data.x)?;
    let src_y = DeviceVector::from_host(gpu, &data.y)?;
    let perm = DeviceVector::from_host(gpu, &(0..data.rows() as u32).collect::<Vec<_>>())?;
    let counter = DeviceVector::<u32>::zeros(gpu, 1)?;
    let mut x = DeviceMatrix::zeros(gpu, batch, SIZES[0])?;
    let mut labels = DeviceVector::<u32>::zeros(gpu, batch)?;
    optim::gather_rows(gpu, &src, &src_y, &perm, &counter, &mut x, &mut labels)?;
    let mut ys: Vec<DeviceMatrix> = SIZES[1..].iter().map(|&n| DeviceMatrix::zeros(gpu, batch, n)).collect::<host::Result<_>>()?;
    let mut dz: Vec<DeviceMatrix> = SIZES[1..].iter().map(|&n| DeviceMatrix::zeros(gpu, batch, n)).collect::<host::Result<_>>()?;
    let mut dw: Vec<DeviceMatrix> = (0..3).map(|l| DeviceMatrix::zeros(gpu, SIZES[l + 1], SIZES[l])).collect::<host::Result<_>>()?;
    let mut db: Vec<DeviceVector<f32>> = SIZES[1..].iter().map(|&n| DeviceVector::zeros(gpu, n)).collect::<host::Result<_>>()?;
    let mut row_loss = DeviceVector::zeros(gpu, batch)?;
    let mut acc = DeviceVector::zeros(gpu, 1)?;
    let mut w: Vec<DeviceMatrix> = params.layers.iter().map(|p| DeviceMatrix::from_host(gpu, p.outputs, p.inputs, &p.w)).collect::<host::Result<_>>()?;
    let hp = host::nn::SgdParams { lr: 1e-6, momentum: 0.0, weight_decay: 0.0 };
    let t = |name: &str, gemm: bool, f: &mut dyn FnMut() -> host::Result<()>| -> host::Result<f64> {
        let ms = median(&time_gpu_ms(gpu, 5, 50, &mut *f)?);
        println!("mlp_part,B{batch},{name},{},{ms:.4}", if gemm { "gemm" } else { "other" });
        Ok(ms)
    };
    let mut total = [0.0f64; 2];
    let mut add = |gemm: bool, ms: f64| total[usize::from(gemm)] += ms;
    let mut perm_counter = DeviceVector::<u32>::zeros(gpu, 1)?;
    add(false, t("gather", false, &mut || optim::gather_rows(gpu, &src, &src_y, &perm, &counter, &mut x, &mut labels))?);
    add(false, t("count_step", false, &mut || optim::count_step(gpu, &mut perm_counter))?);
    {
        let (y0, rest) = ys.split_at_mut(1);
        add(true, t("forward_l0", true, &mut || layers[0].forward(gpu, &x, &mut y0[0]))?);
        let (y1, y2) = rest.split_at_mut(1);
        add(true, t("forward_l1", true, &mut || layers[1].forward(gpu, &y0[0], &mut y1[0]))?);
        add(true, t("forward_l2", true, &mut || layers[2].forward(gpu, &y1[0], &mut y2[0]))?);
    }
    add(false, t("softmax_xent", false, &mut || softmax::softmax_cross_entropy(gpu, &ys[2], &labels, 1.0 / batch as f32, &mut dz[2], &mut row_loss))?);
    add(false, t("loss_accumulate", false, &mut || reduce::sum_scaled_accumulate(gpu, &row_loss, &mut acc, 1.0))?);
    // The biases take their SGD step in the kernels that finish db (as the training step does).
    let mut b: Vec<DeviceVector<f32>> = (0..3).map(|l| DeviceVector::zeros(gpu, SIZES[l + 1])).collect::<host::Result<_>>()?;
    let lr = hp.lr;
    add(false, t("bias_grad_step_l2", false, &mut || reduce::col_sum_sgd(gpu, &dz[2], &mut db[2], Some(reduce::BiasSgd { bias: &mut b[2], lr })))?);
    add(true, t("weight_grad_l2", true, &mut || layers[2].weight_grad(gpu, &dz[2], &ys[1], &mut dw[2]))?);
    {
        let (lo, hi) = dz.split_at_mut(2);
        add(true, t("input_grad_l2", true, &mut || layers[2].input_grad(gpu, &hi[0], &mut lo[1]))?);
    }
    add(
        false,
        t("act_backward_bias_grad_step_l1", false, &mut || {
            reduce::act_backward_col_sum_sgd(gpu, &mut dz[1], None, &ys[1], Activation::Relu, &mut db[1], Some(reduce::BiasSgd { bias: &mut b[1], lr }))
        })?,
    );
    add(true, t("weight_grad_l1", true, &mut || layers[1].weight_grad(gpu, &dz[1], &ys[0], &mut dw[1]))?);
    {
        let (lo, hi) = dz.split_at_mut(1);
        add(true, t("input_grad_l1", true, &mut || layers[1].input_grad(gpu, &hi[0], &mut lo[0]))?);
    }
    add(
        false,
        t("act_backward_bias_grad_step_l0", false, &mut || {
            reduce::act_backward_col_sum_sgd(gpu, &mut dz[0], None, &ys[0], Activation::Relu, &mut db[0], Some(reduce::BiasSgd { bias: &mut b[0], lr }))
        })?,
    );
    add(true, t("weight_grad_l0", true, &mut || layers[0].weight_grad(gpu, &dz[0], &x, &mut dw[0]))?);
    for l in 0..3 {
        let (wl, gl) = (&mut w[l], &dw[l]);
        add(false, t(&format!("sgd_w{l}"), false, &mut || optim::sgd_step::<_, _, DeviceMatrix>(gpu, wl, gl, None, hp))?);
    }
    println!("mlp_parts_total,B{batch},gemm {:.4} ms, other {:.4} ms", total[1], total[0]);
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

/// The mixed-precision networks and batches of issue 12.
const AMP_HIDDEN: [usize; 2] = [1024, 4096];
const AMP_BATCHES: [usize; 3] = [256, 1024, 4096];

/// The anchor lines of every precision: training step (CUDA graph) and forward pass (eager and
/// graph), each the median of 200 runs timed with CUDA events.
fn amp_lines(gpu: &Gpu) -> host::Result<()> {
    println!("gpu,{}", gpu.info().name);
    for precision in Precision::ALL {
        if let Some(note) = host::nn::gpu::check_precision(gpu, precision)? {
            eprintln!("{note}");
        }
    }
    for hidden in AMP_HIDDEN {
        let arch = Architecture::new(784, &[hidden, hidden], 10, Activation::Relu)?;
        let shape = format!("784-{hidden}-{hidden}-10");
        let params = Params::init(&arch, 1)?;
        for batch in AMP_BATCHES {
            for precision in Precision::ALL {
                let data = DeviceDataset::upload(gpu, &synthetic(batch * BATCHES_PER_EPOCH, 2))?;
                let mut t = Trainer::with_precision(gpu, &params, Optimizer::sgd(0.01, 0.0), batch, data, precision)?;
                for _ in 0..3 {
                    step(gpu, &mut t)?;
                }
                gpu.synchronize()?;
                let ms = median(&time_gpu_ms(gpu, 10, 200, || step(gpu, &mut t))?);
                println!("mlp_amp_train_step_graph,{shape},B{batch},{precision},{ms:.4},{:.0}", batch as f64 / ms * 1e3);
                drop(t);
                let mlp = Mlp::with_precision(gpu, &params, precision)?;
                let data = synthetic(batch, 3);
                let x = DeviceMatrix::from_host(gpu, batch, 784, &data.x)?;
                let mut out = mlp.forward_buffers(gpu, batch)?;
                if let Some(xb) = &mut out.x_bf16 {
                    xb.copy_from_f32(gpu, &data.x)?;
                }
                let forward = |out: &mut ForwardBuffers| if precision == Precision::Bf16 { mlp.forward_bf16(gpu, out) } else { mlp.forward(gpu, &x, out) };
                let ms = median(&time_gpu_ms(gpu, 10, 200, || forward(&mut out))?);
                println!("mlp_amp_infer,{shape},B{batch},{precision},{ms:.4},{:.0}", batch as f64 / ms * 1e3);
                let graph = CudaGraph::capture(gpu, || forward(&mut out))?;
                let ms = median(&time_gpu_ms(gpu, 10, 200, || graph.launch(gpu))?);
                println!("mlp_amp_infer_graph,{shape},B{batch},{precision},{ms:.4},{:.0}", batch as f64 / ms * 1e3);
            }
        }
    }
    Ok(())
}

fn bench(c: &mut Criterion) {
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("mlp bench skipped: {e}");
            return;
        }
    };
    if std::env::var("MLP_BENCH").is_ok_and(|v| v == "amp") {
        if let Err(e) = amp_lines(&gpu) {
            eprintln!("mlp amp bench failed: {e}");
        }
        return;
    }
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

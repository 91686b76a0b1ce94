//! Trains a multilayer perceptron on the GPU in pure Rust, or evaluates a saved one.
//!
//! ```text
//! cargo run --release -p host --example mlp                      # digits, default config
//! cargo run --release -p host --example mlp -- --data ~/mnist --hidden 1024,1024 --batch 256
//! cargo run --release -p host --example mlp -- --save m.safetensors
//! cargo run --release -p host --example mlp -- --load m.safetensors --infer
//! cargo run --release -p host --example mlp -- --precision bf16   # mixed precision (tf32, bf16)
//! cargo run --release -p host --example mlp -- --cpu            # the same network on the CPU
//! cargo run --release -p host --example mlp -- --gpus 2         # data-parallel over NCCL
//! scripts/launch-local 2 -- target/release/examples/mlp         # the same, one process per GPU
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use host::Gpu;
use host::dist::DistEnv;
use host::nn::data::{self, Dataset};
use host::nn::parallel::{self, ParallelConfig};
use host::nn::train::{self, Progress, TrainConfig};
use host::nn::{Activation, AdamParams, Optimizer, Precision, SgdParams, io};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Act {
    Relu,
    Sigmoid,
    Tanh,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Prec {
    /// FP32 on the CUDA cores (the default).
    F32,
    /// Every GEMM on TF32 tensor cores.
    Tf32,
    /// bf16 copies of weights and activations into the GEMMs, f32 accumulation and master weights.
    Bf16,
}

impl From<Prec> for Precision {
    fn from(p: Prec) -> Precision {
        match p {
            Prec::F32 => Precision::F32,
            Prec::Tf32 => Precision::Tf32,
            Prec::Bf16 => Precision::Bf16,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Opt {
    /// SGD with momentum (--momentum 0 for plain SGD).
    Sgd,
    /// Adam with bias correction.
    Adam,
}

/// Train an MLP classifier on the GPU (kernels written in Rust) and report accuracy and speed.
#[derive(Debug, Parser)]
#[command(version, about = "Train an MLP classifier on the GPU (kernels written in Rust), or evaluate a saved one.")]
struct Args {
    /// Hidden layer sizes, comma-separated (e.g. 1024,1024).
    #[arg(long, value_delimiter = ',', default_values_t = TrainConfig::default().hidden)]
    hidden: Vec<usize>,
    /// Activation of the hidden layers.
    #[arg(long, value_enum, default_value_t = Act::Relu)]
    activation: Act,
    #[arg(long, default_value_t = TrainConfig::default().epochs)]
    epochs: usize,
    #[arg(long, default_value_t = TrainConfig::default().batch)]
    batch: usize,
    /// Learning rate (default: 0.05 for SGD, 0.001 for Adam).
    #[arg(long)]
    lr: Option<f32>,
    #[arg(long, value_enum, default_value_t = Opt::Sgd)]
    optimizer: Opt,
    /// SGD momentum.
    #[arg(long, default_value_t = 0.9)]
    momentum: f32,
    /// L2 weight decay.
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// Seed of the initialization, the shuffles and the digits train/test split.
    #[arg(long, default_value_t = TrainConfig::default().seed)]
    seed: u64,
    /// Directory with MNIST IDX files (train-images-idx3-ubyte, … raw or .gz) instead of the
    /// embedded digits set.
    #[arg(long)]
    data: Option<PathBuf>,
    /// Fraction of the digits set held out for testing.
    #[arg(long, default_value_t = 0.2)]
    test_fraction: f64,
    /// Write the trained parameters here (safetensors).
    #[arg(long)]
    save: Option<PathBuf>,
    /// Start training from (or, with --infer, only evaluate) parameters saved with --save; the
    /// saved sizes and activation replace --hidden and --activation.
    #[arg(long)]
    load: Option<PathBuf>,
    /// Only evaluate the --load'ed model on the test set.
    #[arg(long, requires = "load")]
    infer: bool,
    /// Run the identical network on the CPU reference instead of the GPU.
    #[arg(long)]
    cpu: bool,
    /// Show the running loss every this many steps (0: at the end of each epoch only).
    #[arg(long, default_value_t = TrainConfig::default().log_every)]
    log_every: usize,
    /// Launch every kernel of a step instead of replaying the step as a CUDA graph.
    #[arg(long)]
    no_graph: bool,
    /// Train data-parallel on GPUs 0..N (NCCL; --batch is the global batch, split evenly).
    #[arg(long, conflicts_with_all = ["cpu", "devices"])]
    gpus: Option<usize>,
    /// Train data-parallel on these GPUs (e.g. 0,1).
    #[arg(long, value_delimiter = ',', conflicts_with = "cpu")]
    devices: Option<Vec<u32>>,
    /// Timeout in seconds of the NCCL set-up and of each wait for queued collectives.
    #[arg(long, default_value_t = parallel::DEFAULT_TIMEOUT.as_secs())]
    collective_timeout: u64,
    /// Instead of --data or the digits: ROWS seeded random rows of 784 features and 10 classes
    /// (for throughput measurements; the accuracy means nothing).
    #[arg(long, conflicts_with = "data")]
    synthetic: Option<usize>,
    /// With --synthetic: each row is 0.15 × its class's seeded random prototype + 0.85 × noise,
    /// so the classes can be learnt (MNIST-shaped loss curves, not chance level).
    #[arg(long, requires = "synthetic")]
    learnable: bool,
    /// Arithmetic of the GEMMs (training and --infer); --save keeps the f32 master weights.
    #[arg(long, value_enum, default_value_t = Prec::F32)]
    precision: Prec,
    /// Append the running loss (every --log-every steps and at each epoch's end) and the test
    /// accuracy per epoch to this CSV: precision,seed,epoch,step,global_step,loss,test_accuracy.
    #[arg(long)]
    loss_csv: Option<PathBuf>,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `rows` seeded random 784-feature rows with 10 classes (and a tenth as many for testing);
/// `learnable`: each row is 0.15 × its class's prototype (the same for every split of `seed`'s
/// run) + 0.85 × uniform noise.
fn synthetic(rows: usize, seed: u64, learnable: bool) -> host::Result<Dataset> {
    let mut rng = host::nn::rng::Rng::new(seed);
    let y: Vec<u32> = (0..rows).map(|_| rng.below(10) as u32).collect();
    let x = if learnable {
        let mut protos = host::nn::rng::Rng::new(0x05ee_d0fc_1a55);
        let proto: Vec<f32> = (0..10 * 784).map(|_| protos.uniform() as f32).collect();
        let mut x = Vec::with_capacity(rows * 784);
        for &c in &y {
            for j in 0..784 {
                x.push(0.15 * proto[c as usize * 784 + j] + 0.85 * rng.uniform() as f32);
            }
        }
        x
    } else {
        (0..rows * 784).map(|_| rng.uniform() as f32).collect()
    };
    Ok(Dataset::new(x, y, 784, 10)?)
}

fn load_data(args: &Args) -> host::Result<(Dataset, Dataset, String)> {
    if let Some(rows) = args.synthetic {
        let train = synthetic(rows, args.seed, args.learnable)?;
        let test = synthetic((rows / 10).max(1), args.seed ^ 1, args.learnable)?;
        let what = if args.learnable { "class prototypes plus noise" } else { "random rows" };
        return Ok((train, test, format!("synthetic: seeded {what} (seed {})", args.seed)));
    }
    Ok(match &args.data {
        Some(dir) => {
            let (tr, te) = data::load_mnist(dir)?;
            (tr, te, format!("IDX files in {}", dir.display()))
        }
        None => {
            let (tr, te) = data::digits()?.stratified_split(args.test_fraction, args.seed)?;
            (tr, te, format!("embedded digits (8×8, CC BY 4.0), stratified split seed {}", args.seed))
        }
    })
}

/// How the training is spread: one GPU (or the CPU), several GPUs in this process, or this
/// process's rank of a multi-process run (`WORLD_SIZE` set, as `scripts/launch-local` and
/// `torchrun` do).
enum Spread {
    Single,
    Threads(ParallelConfig),
    Process(DistEnv),
}

fn spread(args: &Args) -> host::Result<Spread> {
    let timeout = std::time::Duration::from_secs(args.collective_timeout);
    let devices = match (&args.devices, args.gpus) {
        (Some(d), _) => Some(d.clone()),
        (None, Some(n)) => Some((0..n as u32).collect()),
        (None, None) => None,
    };
    if let Some(devices) = devices {
        return Ok(Spread::Threads(ParallelConfig { timeout, ..ParallelConfig::new(devices) }));
    }
    match DistEnv::from_env()? {
        Some(env) if !args.cpu && env.world > 1 => Ok(Spread::Process(env)),
        _ => Ok(Spread::Single),
    }
}

fn run(args: Args) -> host::Result<()> {
    let spread = spread(&args)?;
    // In a multi-process run only rank 0 talks.
    let quiet = matches!(&spread, Spread::Process(env) if env.rank != 0);
    let (train_set, test_set, what) = load_data(&args)?;
    if !quiet {
        println!(
            "data: {what}: {} training and {} test rows, {} features, {} classes",
            train_set.rows(),
            test_set.rows(),
            train_set.features,
            train_set.classes
        );
    }
    let device = match &spread {
        Spread::Single => 0,
        Spread::Threads(p) => p.devices.first().copied().unwrap_or(0),
        Spread::Process(env) => u32::try_from(env.local_rank).unwrap_or(u32::MAX),
    };
    let gpu = if args.cpu { None } else { Some(Gpu::with_device(device)?) };
    match (&gpu, &spread) {
        _ if quiet => {}
        (Some(g), _) => {
            let (major, minor) = g.info().compute_capability;
            let on = match &spread {
                Spread::Single => String::new(),
                Spread::Threads(p) => format!("; data-parallel on devices {:?}, one thread each (NCCL)", p.devices),
                Spread::Process(env) => format!("; data-parallel, {} processes (NCCL, rendezvous {}:{})", env.world, env.master_addr, env.master_port),
            };
            println!("device: {} (compute capability {major}.{minor}; kernels: {} {:?}){on}", g.info().name, g.ptx_arch(), g.kernel_image());
        }
        (None, _) => println!("device: CPU reference"),
    }

    if args.infer {
        let path = args.load.as_ref().expect("clap: --infer requires --load");
        let params = io::load(path)?;
        println!("model: {} ({} parameters, sizes {:?}, {:?})", path.display(), params.arch.parameter_count(), params.arch.sizes, params.arch.act);
        let t0 = std::time::Instant::now();
        let precision = Precision::from(args.precision);
        let acc = match &gpu {
            Some(g) => train::evaluate_gpu_with(g, &params, &test_set, precision)?,
            None if precision == Precision::F32 => train::evaluate_cpu(&params, &test_set)?,
            None => return Err(host::Error::InvalidArgument { op: "--infer", reason: format!("the CPU reference runs f32 only, not {precision}") }),
        };
        let s = t0.elapsed().as_secs_f64();
        println!("test accuracy: {:.2}% ({} rows in {:.2} ms, precision {precision})", 100.0 * acc, test_set.rows(), 1e3 * s);
        return Ok(());
    }

    let act = match args.activation {
        Act::Relu => Activation::Relu,
        Act::Sigmoid => Activation::Sigmoid,
        Act::Tanh => Activation::Tanh,
    };
    let optimizer = match args.optimizer {
        Opt::Sgd => Optimizer::Sgd(SgdParams { lr: args.lr.unwrap_or(0.05), momentum: args.momentum, weight_decay: args.weight_decay }),
        Opt::Adam => Optimizer::Adam(AdamParams::new(args.lr.unwrap_or(0.001), 0.9, 0.999, 1e-8, args.weight_decay)),
    };
    let cfg = TrainConfig {
        hidden: args.hidden.clone(),
        act,
        epochs: args.epochs,
        batch: args.batch,
        optimizer,
        seed: args.seed,
        log_every: args.log_every,
        graph: !args.no_graph,
        init: match &args.load {
            Some(path) => Some(io::load(path)?),
            None => None,
        },
        precision: args.precision.into(),
    };
    let arch = cfg.architecture(&train_set)?;
    let world = match &spread {
        Spread::Single => 1,
        Spread::Threads(p) => p.devices.len(),
        Spread::Process(env) => env.world,
    };
    if world > 1 {
        // Before any GPU work: an uneven split or a missing NCCL is reported at once.
        parallel::check_parallel(&cfg, world)?;
    }
    if !quiet {
        println!(
            "model: sizes {:?}, {:?}, {} parameters; {:?}; batch {}, {} epochs, seed {}, precision {}",
            arch.sizes,
            arch.act,
            arch.parameter_count(),
            optimizer,
            cfg.batch,
            cfg.epochs,
            cfg.seed,
            cfg.precision
        );
    }
    if let Some(path) = args.load.as_ref().filter(|_| !quiet) {
        println!("starting from {}", path.display());
    }

    let style = ProgressStyle::with_template("epoch {prefix:>3} [{bar:30}] {pos:>5}/{len:5} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    let mut bar: Option<ProgressBar> = None;
    let mut csv = match &args.loss_csv {
        Some(path) if !quiet => Some(LossCsv::open(path, cfg.precision, cfg.seed)?),
        _ => None,
    };
    let mut on_progress = |p: Progress| match p {
        _ if quiet => {}
        p if csv.as_mut().is_some_and(|c| c.record(&p).is_err()) => {
            eprintln!("warning: could not write the loss CSV; stopping it");
            csv = None;
        }
        Progress::EpochStart { epoch, steps } => {
            let b = ProgressBar::new(steps as u64).with_style(style.clone()).with_prefix(format!("{}", epoch + 1));
            bar = Some(b);
        }
        Progress::Steps { done, running_loss, .. } => {
            if let Some(b) = &bar {
                b.set_position(done as u64);
                b.set_message(format!("loss {running_loss:.4}"));
            }
        }
        Progress::EpochEnd(r) => {
            let per_gpu = if world > 1 { format!(" ({world} GPUs, {:.0}/GPU)", r.samples_per_sec / world as f64) } else { String::new() };
            let line = format!(
                "loss {:.4}  test {:.2}%  {:.2} ms/epoch  {:.0} samples/s{per_gpu}",
                r.mean_loss,
                100.0 * r.test_accuracy,
                1e3 * r.seconds,
                r.samples_per_sec
            );
            match bar.take() {
                // Not a terminal (a log file): the bar draws nothing, so print the epoch's line.
                Some(b) if b.is_hidden() => println!("epoch {:>3} {line}", r.epoch + 1),
                Some(b) => b.finish_with_message(line),
                None => println!("epoch {:>3} {line}", r.epoch + 1),
            }
        }
    };
    // Each replica's own steady samples/s, for the per-GPU report.
    let mut per_gpu: Vec<(usize, u32, f64)> = Vec::new();
    let out = match (&gpu, &spread) {
        (None, _) => train::train_cpu(&cfg, &train_set, &test_set, &mut on_progress)?,
        (Some(g), Spread::Single) => train::train_gpu(g, &cfg, &train_set, &test_set, &mut on_progress)?,
        (Some(_), Spread::Threads(p)) => {
            let out = parallel::train_data_parallel(&cfg, p, &train_set, &test_set, &mut on_progress)?;
            per_gpu = out.replicas.iter().map(|r| (r.rank, r.device, steady_rate(&r.epochs))).collect();
            out.outcome
        }
        (Some(_), Spread::Process(env)) => {
            let timeout = std::time::Duration::from_secs(args.collective_timeout);
            let (mine, out) = parallel::train_distributed(env, &cfg, timeout, &train_set, &test_set, &mut on_progress)?;
            per_gpu = vec![(mine.rank, mine.device, steady_rate(&mine.epochs))];
            out
        }
    };
    if quiet {
        // Only this rank's own rate.
        for (rank, device, rate) in &per_gpu {
            println!("rank {rank} (device {device}): {rate:.0} samples/s");
        }
        return Ok(());
    }

    let n = out.epochs.len();
    // Epoch 1 includes one-time costs (the CUDA graph capture): report it apart.
    let steady = if n > 1 { &out.epochs[1..] } else { &out.epochs[..] };
    let mean_s = steady.iter().map(|e| e.seconds).sum::<f64>() / steady.len() as f64;
    let samples = (train_set.rows() / cfg.batch * cfg.batch) as f64;
    let first_ms = 1e3 * out.epochs[0].seconds;
    let which = match n {
        1 => "the only epoch, one-time costs included; 2 or more epochs give the steady rate".to_string(),
        2 => format!("epoch 2; epoch 1, one-time costs included: {first_ms:.3} ms"),
        _ => format!("mean of epochs 2 to {n}; epoch 1, one-time costs included: {first_ms:.3} ms"),
    };
    println!("test accuracy: {:.2}% (seed {})", 100.0 * out.test_accuracy, cfg.seed);
    println!(
        "time per epoch: {:.3} ms ({which}); throughput: {:.0} samples/s{}",
        1e3 * mean_s,
        samples / mean_s,
        if gpu.is_some() { if out.graph { " (CUDA graph)" } else { " (eager launches)" } } else { "" }
    );
    if world > 1 {
        println!("  total over {world} GPUs: {:.0} samples/s, {:.0} samples/s per GPU on average", samples / mean_s, samples / mean_s / world as f64);
    }
    for (rank, device, rate) in &per_gpu {
        println!("rank {rank} (device {device}): {rate:.0} samples/s (its share of each global batch)");
    }
    if let Some(path) = &args.save {
        io::save(&out.params, path)?;
        println!("saved: {}", path.display());
    }
    Ok(())
}

/// Samples/s over the epochs after the first (which includes one-time costs), or the only one.
fn steady_rate(epochs: &[train::EpochReport]) -> f64 {
    let steady = if epochs.len() > 1 { &epochs[1..] } else { epochs };
    let (n, s): (f64, f64) = steady.iter().map(|e| (e.samples_per_sec * e.seconds, e.seconds)).fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    if s > 0.0 { n / s } else { 0.0 }
}

/// The `--loss-csv` log: one line per running-loss report and per epoch end.
struct LossCsv {
    out: std::io::BufWriter<std::fs::File>,
    precision: Precision,
    seed: u64,
    /// Steps of the finished epochs (the global step of a report).
    steps_before: usize,
    epoch_steps: usize,
}

impl LossCsv {
    fn open(path: &std::path::Path, precision: Precision, seed: u64) -> host::Result<LossCsv> {
        use std::io::Write;
        let io = |e: std::io::Error| host::Error::Io(format!("{}: {e}", path.display()));
        let fresh = !path.exists();
        let file = std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(io)?;
        let mut out = std::io::BufWriter::new(file);
        if fresh {
            writeln!(out, "precision,seed,epoch,step,global_step,loss,test_accuracy").map_err(io)?;
        }
        Ok(LossCsv { out, precision, seed, steps_before: 0, epoch_steps: 0 })
    }

    fn record(&mut self, p: &Progress) -> std::io::Result<()> {
        use std::io::Write;
        let (prec, seed) = (self.precision, self.seed);
        match p {
            Progress::EpochStart { steps, .. } => self.epoch_steps = *steps,
            Progress::Steps { epoch, done, running_loss } => {
                writeln!(self.out, "{prec},{seed},{},{done},{},{running_loss},", epoch + 1, self.steps_before + done)?;
            }
            Progress::EpochEnd(r) => {
                self.steps_before += self.epoch_steps;
                writeln!(self.out, "{prec},{seed},{},{},{},{},{}", r.epoch + 1, self.epoch_steps, self.steps_before, r.mean_loss, r.test_accuracy)?;
                self.out.flush()?;
            }
        }
        Ok(())
    }
}

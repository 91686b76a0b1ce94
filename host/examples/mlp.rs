//! Trains a multilayer perceptron on the GPU in pure Rust, or evaluates a saved one.
//!
//! ```text
//! cargo run --release -p host --example mlp                      # digits, default config
//! cargo run --release -p host --example mlp -- --data ~/mnist --hidden 1024,1024 --batch 256
//! cargo run --release -p host --example mlp -- --save m.safetensors
//! cargo run --release -p host --example mlp -- --load m.safetensors --infer
//! cargo run --release -p host --example mlp -- --cpu            # the same network on the CPU
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use host::Gpu;
use host::nn::data::{self, Dataset};
use host::nn::train::{self, Progress, TrainConfig};
use host::nn::{Activation, AdamParams, Optimizer, SgdParams, io};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Act {
    Relu,
    Sigmoid,
    Tanh,
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

fn load_data(args: &Args) -> host::Result<(Dataset, Dataset, String)> {
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

fn run(args: Args) -> host::Result<()> {
    let (train_set, test_set, what) = load_data(&args)?;
    println!("data: {what}: {} training and {} test rows, {} features, {} classes", train_set.rows(), test_set.rows(), train_set.features, train_set.classes);
    let gpu = if args.cpu { None } else { Some(Gpu::new()?) };
    match &gpu {
        Some(g) => {
            let (major, minor) = g.info().compute_capability;
            println!("device: {} (compute capability {major}.{minor}; kernels: {} {:?})", g.info().name, g.ptx_arch(), g.kernel_image());
        }
        None => println!("device: CPU reference"),
    }

    if args.infer {
        let path = args.load.as_ref().expect("clap: --infer requires --load");
        let params = io::load(path)?;
        println!("model: {} ({} parameters, sizes {:?}, {:?})", path.display(), params.arch.parameter_count(), params.arch.sizes, params.arch.act);
        let t0 = std::time::Instant::now();
        let acc = match &gpu {
            Some(g) => train::evaluate_gpu(g, &params, &test_set)?,
            None => train::evaluate_cpu(&params, &test_set)?,
        };
        let s = t0.elapsed().as_secs_f64();
        println!("test accuracy: {:.2}% ({} rows in {:.2} ms)", 100.0 * acc, test_set.rows(), 1e3 * s);
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
    };
    let arch = cfg.architecture(&train_set)?;
    println!(
        "model: sizes {:?}, {:?}, {} parameters; {:?}; batch {}, {} epochs, seed {}",
        arch.sizes,
        arch.act,
        arch.parameter_count(),
        optimizer,
        cfg.batch,
        cfg.epochs,
        cfg.seed
    );
    if let Some(path) = &args.load {
        println!("starting from {}", path.display());
    }

    let style = ProgressStyle::with_template("epoch {prefix:>3} [{bar:30}] {pos:>5}/{len:5} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    let mut bar: Option<ProgressBar> = None;
    let mut on_progress = |p: Progress| match p {
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
            let line =
                format!("loss {:.4}  test {:.2}%  {:.2} ms/epoch  {:.0} samples/s", r.mean_loss, 100.0 * r.test_accuracy, 1e3 * r.seconds, r.samples_per_sec);
            match bar.take() {
                // Not a terminal (a log file): the bar draws nothing, so print the epoch's line.
                Some(b) if b.is_hidden() => println!("epoch {:>3} {line}", r.epoch + 1),
                Some(b) => b.finish_with_message(line),
                None => println!("epoch {:>3} {line}", r.epoch + 1),
            }
        }
    };
    let out = match &gpu {
        Some(g) => train::train_gpu(g, &cfg, &train_set, &test_set, &mut on_progress)?,
        None => train::train_cpu(&cfg, &train_set, &test_set, &mut on_progress)?,
    };

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
    if let Some(path) = &args.save {
        io::save(&out.params, path)?;
        println!("saved: {}", path.display());
    }
    Ok(())
}

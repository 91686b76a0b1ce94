//! The training loop, on the GPU or on the CPU reference with the same initialization and the
//! same shuffled batches: per epoch a seeded permutation, full batches in its order (the last
//! partial batch is dropped), then the test accuracy.

use std::time::Instant;

use super::cpu::{self, CpuMlp};
use super::data::Dataset;
use super::gpu::{DeviceDataset, Mlp, Trainer, check_precision};
use super::rng::Rng;
use super::{Activation, Architecture, Optimizer, Params, Precision};
use crate::context::Gpu;
use crate::error::{Error, Result};

/// Hyper-parameters of a run. The default trains the embedded digits set to about 97%.
#[derive(Debug, Clone)]
pub struct TrainConfig {
    pub hidden: Vec<usize>,
    pub act: Activation,
    pub epochs: usize,
    pub batch: usize,
    pub optimizer: Optimizer,
    pub seed: u64,
    /// Show the running loss every this many steps (0: only at the end of each epoch). Each
    /// look is one synchronization.
    pub log_every: usize,
    /// Replay the training step as a CUDA graph (GPU only).
    pub graph: bool,
    /// Start from these parameters instead of the seeded initialization (their sizes must
    /// match the data; `hidden` and `act` are then taken from them).
    pub init: Option<Params>,
    /// The arithmetic of the step's GEMMs (GPU only; the CPU reference and data-parallel runs
    /// are f32). The parameters that come back are the f32 masters in every mode.
    pub precision: Precision,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: vec![128, 64],
            act: Activation::Relu,
            epochs: 30,
            batch: 32,
            optimizer: Optimizer::sgd(0.05, 0.9),
            seed: 42,
            log_every: 10,
            graph: true,
            init: None,
            precision: Precision::F32,
        }
    }
}

impl TrainConfig {
    pub fn architecture(&self, data: &Dataset) -> Result<Architecture> {
        match &self.init {
            Some(p) => Ok(p.arch.clone()),
            None => Architecture::new(data.features, &self.hidden, data.classes, self.act),
        }
    }

    /// The starting parameters: `init`, checked against the data, or the seeded initialization.
    pub fn initial_params(&self, data: &Dataset) -> Result<Params> {
        match &self.init {
            Some(p) => {
                check_data(p, data)?;
                Ok(p.clone())
            }
            None => Params::init(&self.architecture(data)?, self.seed),
        }
    }

    fn validate(&self, train: &Dataset, test: &Dataset) -> Result<()> {
        self.optimizer.validate()?;
        if self.epochs == 0 {
            return Err(Error::InvalidArgument { op: "train", reason: "the number of epochs must be at least 1".into() });
        }
        check_batch("train", self.batch, train.rows())?;
        if test.is_empty() || train.features != test.features || train.classes != test.classes {
            return Err(Error::InvalidArgument { op: "train", reason: "the test set is empty or does not match the training set".into() });
        }
        Ok(())
    }
}

/// A batch of 1 to `rows` rows (every step takes a full batch).
pub(crate) fn check_batch(op: &'static str, batch: usize, rows: usize) -> Result<()> {
    let reason = match batch {
        0 => format!("the batch size must be at least 1 (and at most {rows}, the training set's rows)"),
        b if b > rows => format!("the batch size {b} is larger than the training set ({rows} rows): the largest allowed is {rows}"),
        _ => return Ok(()),
    };
    Err(Error::InvalidArgument { op, reason })
}

/// The order of the training rows in epoch `epoch` (0-based) of a run with `seed`.
pub fn epoch_order(seed: u64, epoch: usize, rows: usize) -> Vec<u32> {
    Rng::new(seed ^ (epoch as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)).permutation(rows)
}

/// What one epoch did.
#[derive(Debug, Clone, PartialEq)]
pub struct EpochReport {
    pub epoch: usize,
    /// Mean of the batch losses of the epoch.
    pub mean_loss: f64,
    /// Training time of the epoch (steps only, evaluation excluded).
    pub seconds: f64,
    pub samples_per_sec: f64,
    pub test_accuracy: f64,
}

/// Progress events for a display.
#[derive(Debug, Clone)]
pub enum Progress<'a> {
    EpochStart {
        epoch: usize,
        steps: usize,
    },
    /// `done` steps of the epoch finished; the mean batch loss so far.
    Steps {
        epoch: usize,
        done: usize,
        running_loss: f64,
    },
    EpochEnd(&'a EpochReport),
}

/// The result of a run.
#[derive(Debug, Clone)]
pub struct TrainOutcome {
    pub params: Params,
    pub epochs: Vec<EpochReport>,
    pub test_accuracy: f64,
    /// Whether the GPU steps were replayed from a CUDA graph.
    pub graph: bool,
}

/// Prints the one-line notice of [`check_precision`] (the `mma.sync` fallback), if any, or
/// returns its error.
fn note_precision(gpu: &Gpu, precision: Precision) -> Result<()> {
    if let Some(note) = check_precision(gpu, precision)? {
        eprintln!("{note}");
    }
    Ok(())
}

/// Refuses a precision other than f32 where only f32 runs (`op`: the CPU reference, the
/// data-parallel trainer).
pub(crate) fn f32_only(op: &'static str, precision: Precision) -> Result<()> {
    if precision != Precision::F32 {
        return Err(Error::InvalidArgument { op, reason: format!("--precision {precision} is not supported here: it runs f32 only") });
    }
    Ok(())
}

/// Trains on the GPU.
pub fn train_gpu(gpu: &Gpu, cfg: &TrainConfig, train: &Dataset, test: &Dataset, progress: &mut dyn FnMut(Progress)) -> Result<TrainOutcome> {
    cfg.validate(train, test)?;
    note_precision(gpu, cfg.precision)?;
    let params = cfg.initial_params(train)?;
    let mut trainer = Trainer::with_precision(gpu, &params, cfg.optimizer, cfg.batch, DeviceDataset::upload(gpu, train)?, cfg.precision)?;
    trainer.set_graph(cfg.graph);
    let test_dev = DeviceDataset::upload(gpu, test)?;
    let steps = trainer.steps_per_epoch();
    let mut epochs = Vec::with_capacity(cfg.epochs);
    for epoch in 0..cfg.epochs {
        trainer.set_order(gpu, &epoch_order(cfg.seed, epoch, train.rows()))?;
        trainer.reset_loss(gpu)?;
        gpu.synchronize()?;
        progress(Progress::EpochStart { epoch, steps });
        let t0 = Instant::now();
        for s in 1..=steps {
            trainer.step(gpu)?;
            if cfg.log_every > 0 && s % cfg.log_every == 0 && s < steps {
                progress(Progress::Steps { epoch, done: s, running_loss: trainer.loss_sum(gpu)? as f64 / s as f64 });
            }
        }
        let loss = trainer.loss_sum(gpu)? as f64 / steps as f64; // synchronizes
        let seconds = t0.elapsed().as_secs_f64();
        progress(Progress::Steps { epoch, done: steps, running_loss: loss });
        let test_accuracy = trainer.mlp.evaluate(gpu, &test_dev)?;
        let report = EpochReport { epoch, mean_loss: loss, seconds, samples_per_sec: (steps * cfg.batch) as f64 / seconds, test_accuracy };
        progress(Progress::EpochEnd(&report));
        epochs.push(report);
    }
    let test_accuracy = epochs.last().map_or(0.0, |e| e.test_accuracy);
    Ok(TrainOutcome { params: trainer.params(gpu)?, epochs, test_accuracy, graph: trainer.graph_active() })
}

/// Trains the identical network on the CPU reference.
pub fn train_cpu(cfg: &TrainConfig, train: &Dataset, test: &Dataset, progress: &mut dyn FnMut(Progress)) -> Result<TrainOutcome> {
    cfg.validate(train, test)?;
    f32_only("train_cpu", cfg.precision)?;
    let params = cfg.initial_params(train)?;
    let mut net = CpuMlp::new(params, cfg.optimizer)?;
    let steps = train.rows() / cfg.batch;
    let mut epochs = Vec::with_capacity(cfg.epochs);
    let mut xb = Vec::with_capacity(cfg.batch * train.features);
    let mut yb = Vec::with_capacity(cfg.batch);
    for epoch in 0..cfg.epochs {
        let order = epoch_order(cfg.seed, epoch, train.rows());
        progress(Progress::EpochStart { epoch, steps });
        let t0 = Instant::now();
        let mut total = 0.0;
        for s in 0..steps {
            xb.clear();
            yb.clear();
            for &i in &order[s * cfg.batch..(s + 1) * cfg.batch] {
                xb.extend_from_slice(train.row(i as usize));
                yb.push(train.y[i as usize]);
            }
            total += net.train_step(&xb, &yb)?;
            if cfg.log_every > 0 && (s + 1) % cfg.log_every == 0 && s + 1 < steps {
                progress(Progress::Steps { epoch, done: s + 1, running_loss: total / (s + 1) as f64 });
            }
        }
        let seconds = t0.elapsed().as_secs_f64();
        progress(Progress::Steps { epoch, done: steps, running_loss: total / steps as f64 });
        let test_accuracy = net.accuracy(test);
        let report = EpochReport { epoch, mean_loss: total / steps as f64, seconds, samples_per_sec: (steps * cfg.batch) as f64 / seconds, test_accuracy };
        progress(Progress::EpochEnd(&report));
        epochs.push(report);
    }
    let test_accuracy = epochs.last().map_or(0.0, |e| e.test_accuracy);
    Ok(TrainOutcome { params: net.params, epochs, test_accuracy, graph: false })
}

/// Test accuracy of saved parameters, on the GPU.
pub fn evaluate_gpu(gpu: &Gpu, params: &Params, test: &Dataset) -> Result<f64> {
    evaluate_gpu_with(gpu, params, test, Precision::F32)
}

/// Test accuracy of saved (f32) parameters, on the GPU, with the forward GEMMs in `precision`
/// (bf16: the weights and the test rows are rounded to bf16 copies).
pub fn evaluate_gpu_with(gpu: &Gpu, params: &Params, test: &Dataset, precision: Precision) -> Result<f64> {
    check_data(params, test)?;
    note_precision(gpu, precision)?;
    Mlp::with_precision(gpu, params, precision)?.evaluate(gpu, &DeviceDataset::upload(gpu, test)?)
}

/// Test accuracy of saved parameters, on the CPU.
pub fn evaluate_cpu(params: &Params, test: &Dataset) -> Result<f64> {
    check_data(params, test)?;
    Ok(cpu::accuracy(params, test))
}

fn check_data(params: &Params, data: &Dataset) -> Result<()> {
    params.validate()?;
    let (i, o) = (params.arch.sizes[0], *params.arch.sizes.last().expect("sizes"));
    if data.is_empty() || data.features != i || data.classes != o {
        return Err(Error::ShapeMismatch {
            op: "evaluate",
            expected: format!("a non-empty dataset of {i} features and {o} classes"),
            got: format!("{} rows of {} features and {} classes", data.rows(), data.features, data.classes),
        });
    }
    Ok(())
}

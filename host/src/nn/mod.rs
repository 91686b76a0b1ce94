//! A multilayer perceptron trained on the GPU: dense layers y = act(x·Wᵀ + b) through the GEMM
//! with its fused bias+activation epilogue, softmax cross-entropy, backward passes and optimizer
//! steps as kernels, and a whole training step replayable as one CUDA graph ([`gpu`]). The same
//! network, initialization, batches and optimizers run on the CPU as the reference ([`cpu`]).
//!
//! ```no_run
//! use host::nn::{self, train::TrainConfig};
//! let data = nn::data::digits()?;
//! let (train, test) = data.stratified_split(0.2, 7)?;
//! let gpu = host::Gpu::new()?;
//! let out = nn::train::train_gpu(&gpu, &TrainConfig::default(), &train, &test, &mut |_| {})?;
//! println!("test accuracy {:.2}%", 100.0 * out.test_accuracy);
//! # Ok::<(), host::Error>(())
//! ```

pub mod cpu;
pub mod data;
pub mod gpu;
pub mod graph;
pub mod io;
pub mod parallel;
pub mod precision;
pub mod rng;
pub mod train;

pub use kernels::math::Activation;
pub use kernels::optim::{AdamParams, SgdParams};
pub use precision::Precision;

use crate::error::{Error, Result};
use rng::Rng;

/// Layer sizes `[inputs, hidden…, classes]` and the hidden layers' activation (the output
/// layer is linear: its logits go to the softmax).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Architecture {
    pub sizes: Vec<usize>,
    pub act: Activation,
}

impl Architecture {
    pub fn new(inputs: usize, hidden: &[usize], classes: usize, act: Activation) -> Result<Architecture> {
        let mut sizes = vec![inputs];
        sizes.extend_from_slice(hidden);
        sizes.push(classes);
        let arch = Architecture { sizes, act };
        arch.validate()?;
        Ok(arch)
    }

    pub fn validate(&self) -> Result<()> {
        if self.sizes.len() < 2 || self.sizes.contains(&0) {
            return Err(Error::InvalidArgument {
                op: "Architecture",
                reason: format!("layer sizes {:?}: need at least inputs and outputs, none zero", self.sizes),
            });
        }
        Ok(())
    }

    pub fn layers(&self) -> usize {
        self.sizes.len() - 1
    }

    /// Activation of layer `l` (the last layer's is `Identity`).
    pub fn act_of(&self, l: usize) -> Activation {
        if l + 1 == self.layers() { Activation::Identity } else { self.act }
    }

    pub fn parameter_count(&self) -> usize {
        self.sizes.windows(2).map(|w| w[0] * w[1] + w[1]).sum()
    }
}

/// One dense layer's parameters on the host: `w` is out×in row-major, `b` has `out` entries.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerParams {
    pub w: Vec<f32>,
    pub b: Vec<f32>,
    pub inputs: usize,
    pub outputs: usize,
}

/// A network's parameters on the host: what is initialized, saved, loaded and compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    pub arch: Architecture,
    pub layers: Vec<LayerParams>,
}

impl Params {
    /// Seeded initialization: He normal (σ² = 2/fan_in) before a ReLU, Xavier/Glorot uniform
    /// (±√(6/(fan_in + fan_out))) before sigmoid, tanh and the linear output; biases zero.
    pub fn init(arch: &Architecture, seed: u64) -> Result<Params> {
        arch.validate()?;
        let mut rng = Rng::new(seed);
        let layers = (0..arch.layers())
            .map(|l| {
                let (fan_in, fan_out) = (arch.sizes[l], arch.sizes[l + 1]);
                let n = fan_in * fan_out;
                let w = match arch.act_of(l) {
                    Activation::Relu => {
                        let std = (2.0 / fan_in as f64).sqrt();
                        (0..n).map(|_| (rng.normal() * std) as f32).collect()
                    }
                    _ => {
                        let a = (6.0 / (fan_in + fan_out) as f64).sqrt();
                        (0..n).map(|_| ((2.0 * rng.uniform() - 1.0) * a) as f32).collect()
                    }
                };
                LayerParams { w, b: vec![0.0; fan_out], inputs: fan_in, outputs: fan_out }
            })
            .collect();
        Ok(Params { arch: arch.clone(), layers })
    }

    /// Checks that the layers match the architecture.
    pub fn validate(&self) -> Result<()> {
        self.arch.validate()?;
        let bad = |reason: String| Err(Error::InvalidArgument { op: "Params", reason });
        if self.layers.len() != self.arch.layers() {
            return bad(format!("{} layers for sizes {:?}", self.layers.len(), self.arch.sizes));
        }
        for (l, p) in self.layers.iter().enumerate() {
            let (i, o) = (self.arch.sizes[l], self.arch.sizes[l + 1]);
            if p.inputs != i || p.outputs != o || p.w.len() != i * o || p.b.len() != o {
                return bad(format!("layer {l}: {}×{} weights and {} biases, expected {o}×{i} and {o}", p.outputs, p.inputs, p.b.len()));
            }
        }
        Ok(())
    }
}

/// The optimizer and its hyper-parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Optimizer {
    /// SGD with (heavy-ball) momentum, PyTorch's convention.
    Sgd(SgdParams),
    /// Adam with bias correction.
    Adam(AdamParams),
}

impl Optimizer {
    pub fn sgd(lr: f32, momentum: f32) -> Optimizer {
        Optimizer::Sgd(SgdParams { lr, momentum, weight_decay: 0.0 })
    }

    pub fn adam(lr: f32) -> Optimizer {
        Optimizer::Adam(AdamParams::new(lr, 0.9, 0.999, 1e-8, 0.0))
    }

    pub fn validate(&self) -> Result<()> {
        let (lr, ok) = match self {
            Optimizer::Sgd(p) => (p.lr, (0.0..1.0).contains(&p.momentum) && p.weight_decay >= 0.0),
            Optimizer::Adam(p) => (p.lr, (0.0..1.0).contains(&p.beta1) && (0.0..1.0).contains(&p.beta2) && p.eps > 0.0 && p.weight_decay >= 0.0),
        };
        if !(lr.is_finite() && lr > 0.0 && ok) {
            return Err(Error::InvalidArgument { op: "Optimizer", reason: format!("{self:?}: need lr > 0, momentum and betas in [0, 1), eps > 0") });
        }
        Ok(())
    }
}

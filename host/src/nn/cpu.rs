//! The CPU reference of the network: the same layers, activations (`kernels::math`), loss,
//! gradients and optimizer rules (`kernels::optim`) as the GPU, with sums in f64. Given the same
//! initial parameters and batches, its training run is what the GPU's is compared against.

use super::data::Dataset;
use super::{Activation, Optimizer, Params};
use crate::error::{Error, Result};
use kernels::optim::{adam_update, sgd_update};

/// Gradients of the mean batch loss, per layer: `dw` (out×in) and `db` (out).
#[derive(Debug, Clone, PartialEq)]
pub struct Grads {
    pub dw: Vec<Vec<f32>>,
    pub db: Vec<Vec<f32>>,
}

/// Outputs of every layer for a batch of `rows`: `ys[l]` is rows×sizes[l+1]; the last holds the
/// logits.
pub fn forward(params: &Params, x: &[f32], rows: usize) -> Vec<Vec<f32>> {
    let mut ys: Vec<Vec<f32>> = Vec::with_capacity(params.layers.len());
    for (l, p) in params.layers.iter().enumerate() {
        let act = params.arch.act_of(l);
        let input: &[f32] = if l == 0 { x } else { &ys[l - 1] };
        let mut y = vec![0.0f32; rows * p.outputs];
        for r in 0..rows {
            let xr = &input[r * p.inputs..(r + 1) * p.inputs];
            for o in 0..p.outputs {
                let wo = &p.w[o * p.inputs..(o + 1) * p.inputs];
                let mut acc = p.b[o] as f64;
                for (a, b) in xr.iter().zip(wo) {
                    acc += *a as f64 * *b as f64;
                }
                y[r * p.outputs + o] = act.apply(acc as f32);
            }
        }
        ys.push(y);
    }
    ys
}

/// Mean cross-entropy of softmax(logits) against `labels`, and its gradient w.r.t. the logits
/// ((softmax − onehot)/rows), max-subtracted, in f64.
pub fn softmax_cross_entropy(logits: &[f32], labels: &[u32], classes: usize) -> (f64, Vec<f32>) {
    let rows = labels.len();
    let mut d = vec![0.0f32; logits.len()];
    let mut total = 0.0f64;
    for r in 0..rows {
        let z = &logits[r * classes..(r + 1) * classes];
        let mx = z.iter().fold(f32::NEG_INFINITY, |m, &v| if v > m { v } else { m }) as f64;
        let sum: f64 = z.iter().map(|&v| (v as f64 - mx).exp()).sum();
        let label = labels[r] as usize;
        total += sum.ln() - (z[label] as f64 - mx);
        for c in 0..classes {
            let p = (z[c] as f64 - mx).exp() / sum;
            let onehot = if c == label { 1.0 } else { 0.0 };
            d[r * classes + c] = ((p - onehot) / rows as f64) as f32;
        }
    }
    (total / rows as f64, d)
}

/// Backward pass from the logits' gradient: every layer's weight and bias gradient.
pub fn backward(params: &Params, x: &[f32], ys: &[Vec<f32>], dlogits: &[f32], rows: usize) -> Grads {
    let nl = params.layers.len();
    let mut dw = vec![Vec::new(); nl];
    let mut db = vec![Vec::new(); nl];
    let mut dz = dlogits.to_vec();
    for l in (0..nl).rev() {
        let p = &params.layers[l];
        let input: &[f32] = if l == 0 { x } else { &ys[l - 1] };
        let mut gw = vec![0.0f64; p.outputs * p.inputs];
        let mut gb = vec![0.0f64; p.outputs];
        for r in 0..rows {
            let xr = &input[r * p.inputs..(r + 1) * p.inputs];
            for o in 0..p.outputs {
                let g = dz[r * p.outputs + o] as f64;
                gb[o] += g;
                if g != 0.0 {
                    for (acc, &xi) in gw[o * p.inputs..(o + 1) * p.inputs].iter_mut().zip(xr) {
                        *acc += g * xi as f64;
                    }
                }
            }
        }
        dw[l] = gw.iter().map(|&v| v as f32).collect();
        db[l] = gb.iter().map(|&v| v as f32).collect();
        if l > 0 {
            let act = params.arch.act_of(l - 1);
            let mut prev = vec![0.0f32; rows * p.inputs];
            for r in 0..rows {
                let mut acc = vec![0.0f64; p.inputs];
                for o in 0..p.outputs {
                    let g = dz[r * p.outputs + o] as f64;
                    if g != 0.0 {
                        for (a, &w) in acc.iter_mut().zip(&p.w[o * p.inputs..(o + 1) * p.inputs]) {
                            *a += g * w as f64;
                        }
                    }
                }
                for i in 0..p.inputs {
                    let y = ys[l - 1][r * p.inputs + i];
                    prev[r * p.inputs + i] = (acc[i] as f32) * act.derivative_from_output(y);
                }
            }
            dz = prev;
        }
    }
    Grads { dw, db }
}

/// Mean loss of a batch.
pub fn loss(params: &Params, x: &[f32], labels: &[u32]) -> f64 {
    let ys = forward(params, x, labels.len());
    softmax_cross_entropy(ys.last().expect("at least one layer"), labels, *params.arch.sizes.last().expect("sizes")).0
}

/// Mean loss and gradients of a batch.
pub fn loss_and_grads(params: &Params, x: &[f32], labels: &[u32]) -> (f64, Grads) {
    let rows = labels.len();
    let ys = forward(params, x, rows);
    let classes = *params.arch.sizes.last().expect("sizes");
    let (loss, dlogits) = softmax_cross_entropy(ys.last().expect("at least one layer"), labels, classes);
    (loss, backward(params, x, &ys, &dlogits, rows))
}

/// Index of the first maximum of each row (NaN never wins; 0 if none beats −∞), as the GPU.
pub fn argmax_rows(logits: &[f32], classes: usize) -> Vec<u32> {
    logits
        .chunks(classes)
        .map(|z| {
            let (mut best, mut idx) = (f32::NEG_INFINITY, None);
            for (c, &v) in z.iter().enumerate() {
                if v > best {
                    best = v;
                    idx = Some(c as u32);
                }
            }
            idx.unwrap_or(0)
        })
        .collect()
}

/// The network with its optimizer state, trained on the CPU.
#[derive(Debug, Clone)]
pub struct CpuMlp {
    pub params: Params,
    pub opt: Optimizer,
    /// Per layer: first state of W, of b (velocity or Adam's m), second state of W, of b (v).
    state: Vec<[Vec<f32>; 4]>,
    steps: u32,
}

impl CpuMlp {
    pub fn new(params: Params, opt: Optimizer) -> Result<CpuMlp> {
        params.validate()?;
        opt.validate()?;
        let state = params.layers.iter().map(|p| [vec![0.0; p.w.len()], vec![0.0; p.b.len()], vec![0.0; p.w.len()], vec![0.0; p.b.len()]]).collect();
        Ok(CpuMlp { params, opt, state, steps: 0 })
    }

    pub fn steps(&self) -> u32 {
        self.steps
    }

    fn check_batch(&self, x: &[f32], labels: &[u32]) -> Result<()> {
        let (inputs, classes) = (self.params.arch.sizes[0], *self.params.arch.sizes.last().expect("sizes"));
        if labels.is_empty() {
            return Err(Error::InvalidArgument { op: "CpuMlp", reason: "empty batch".into() });
        }
        if x.len() != labels.len() * inputs {
            return Err(Error::ShapeMismatch { op: "CpuMlp", expected: format!("{}×{inputs} inputs", labels.len()), got: format!("{} values", x.len()) });
        }
        if let Some(&l) = labels.iter().find(|&&l| l as usize >= classes) {
            return Err(Error::InvalidArgument { op: "CpuMlp", reason: format!("label {l} with {classes} classes") });
        }
        Ok(())
    }

    /// One optimizer step on a batch; returns the batch's mean loss before the step.
    pub fn train_step(&mut self, x: &[f32], labels: &[u32]) -> Result<f64> {
        self.check_batch(x, labels)?;
        let (loss, grads) = loss_and_grads(&self.params, x, labels);
        self.apply(&grads);
        Ok(loss)
    }

    /// Applies one optimizer step with these gradients.
    pub fn apply(&mut self, grads: &Grads) {
        self.steps += 1;
        let t = self.steps;
        let opt = self.opt;
        for (l, p) in self.params.layers.iter_mut().enumerate() {
            let [s1w, s1b, s2w, s2b] = &mut self.state[l];
            for (params, g, s1, s2) in [(&mut p.w, &grads.dw[l], s1w, s2w), (&mut p.b, &grads.db[l], s1b, s2b)] {
                for i in 0..params.len() {
                    match opt {
                        Optimizer::Sgd(hp) => {
                            let (np, nv) = sgd_update(params[i], g[i], s1[i], &hp);
                            params[i] = np;
                            s1[i] = nv;
                        }
                        Optimizer::Adam(hp) => {
                            let (np, nm, nv) = adam_update(params[i], g[i], s1[i], s2[i], &hp, t);
                            params[i] = np;
                            s1[i] = nm;
                            s2[i] = nv;
                        }
                    }
                }
            }
        }
    }

    /// Predicted class of every row.
    pub fn predict(&self, x: &[f32], rows: usize) -> Vec<u32> {
        let ys = forward(&self.params, x, rows);
        argmax_rows(ys.last().expect("at least one layer"), *self.params.arch.sizes.last().expect("sizes"))
    }

    /// Fraction of `data` classified correctly.
    pub fn accuracy(&self, data: &Dataset) -> f64 {
        accuracy(&self.params, data)
    }
}

/// Fraction of `data` that `params` classify correctly (CPU).
pub fn accuracy(params: &Params, data: &Dataset) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let mut correct = 0usize;
    for chunk in (0..data.rows()).collect::<Vec<_>>().chunks(512) {
        let (r0, n) = (chunk[0], chunk.len());
        let ys = forward(params, &data.x[r0 * data.features..(r0 + n) * data.features], n);
        let pred = argmax_rows(ys.last().expect("at least one layer"), *params.arch.sizes.last().expect("sizes"));
        correct += pred.iter().zip(&data.y[r0..r0 + n]).filter(|(p, y)| p == y).count();
    }
    correct as f64 / data.rows() as f64
}

/// Whether the activation has a kink (ReLU) where finite differences are unreliable.
pub fn has_kink(act: Activation) -> bool {
    matches!(act, Activation::Relu)
}

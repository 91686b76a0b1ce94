use host::Error;
use host::nn::cpu::{self, CpuMlp};
use host::nn::train::{self, TrainConfig};
use host::nn::{Activation, Architecture, Optimizer, Params, Precision, data};
use integration_tests::{Suite, uniform};
use rand::Rng;

/// Small random network with nonzero biases.
pub fn random_params(rng: &mut rand::rngs::StdRng, sizes: &[usize], act: Activation) -> Params {
    let arch = Architecture { sizes: sizes.to_vec(), act };
    let mut p = Params::init(&arch, rng.random()).expect("valid sizes");
    for l in &mut p.layers {
        l.b = uniform(rng, l.b.len(), -0.5, 0.5);
    }
    p
}

/// Central differences of the mean loss for every parameter against the analytic gradient.
/// For ReLU, a parameter whose ±h perturbation changes any hidden unit's on/off pattern sits on
/// a kink and is skipped (counted, and at most a tenth may be).
fn gradient_check(rng: &mut rand::rngs::StdRng, act: Activation) -> Result<(), String> {
    let sizes = [6usize, 9, 7, 5];
    let rows = 4;
    // For ReLU, draw until no hidden pre-activation lies within 0.05 of the kink, so ±h moves
    // no unit across it (the skip below stays as a guard).
    let (params, x) = loop {
        let params = random_params(rng, &sizes, act);
        let x = uniform(rng, rows * sizes[0], -1.0, 1.0);
        if !cpu::has_kink(act) || min_hidden_preactivation(&params, &x, rows) > 0.05 {
            break (params, x);
        }
    };
    let labels: Vec<u32> = (0..rows).map(|_| rng.random_range(0..sizes[3] as u32)).collect();
    let (_, grads) = cpu::loss_and_grads(&params, &x, &labels);
    let pattern = |p: &Params| -> Vec<bool> {
        let ys = cpu::forward(p, &x, rows);
        ys[..ys.len() - 1].iter().flatten().map(|&v| v > 0.0).collect()
    };
    // ReLU networks are piecewise linear: a smaller step crosses fewer kinks, and its rounding
    // noise stays small because the loss is linear between them.
    let h = if cpu::has_kink(act) { 1e-3f32 } else { 5e-3f32 };
    let (mut checked, mut skipped, mut worst) = (0usize, 0usize, 0.0f64);
    for l in 0..params.layers.len() {
        for (is_w, n) in [(true, params.layers[l].w.len()), (false, params.layers[l].b.len())] {
            for i in 0..n {
                let v0 = params_value(&params, l, is_w, i);
                let (vu, vd) = (v0 + h, v0 - h);
                let mut up = params.clone();
                let mut dn = params.clone();
                set_value(&mut up, l, is_w, i, vu);
                set_value(&mut dn, l, is_w, i, vd);
                if cpu::has_kink(act) && (pattern(&up) != pattern(&params) || pattern(&dn) != pattern(&params)) {
                    skipped += 1;
                    continue;
                }
                let fd = (cpu::loss(&up, &x, &labels) - cpu::loss(&dn, &x, &labels)) / (vu as f64 - vd as f64);
                let an = if is_w { grads.dw[l][i] } else { grads.db[l][i] } as f64;
                let err = (fd - an).abs();
                worst = worst.max(err);
                if err > 5e-3 * fd.abs().max(an.abs()) + 5e-5 {
                    return Err(format!("{act:?} layer {l} {} [{i}]: finite difference {fd:e}, analytic {an:e}", if is_w { "weight" } else { "bias" }));
                }
                checked += 1;
            }
        }
    }
    let total = checked + skipped;
    if skipped * 10 > total || checked == 0 {
        return Err(format!("{act:?}: {skipped} of {total} parameters sit on a kink"));
    }
    eprintln!("gradient check {act:?}: {checked} parameters, worst |fd − analytic| {worst:.2e}, {skipped} skipped at kinks");
    Ok(())
}

/// The smallest |z| over the hidden layers' pre-activations z = x·Wᵀ + b.
fn min_hidden_preactivation(p: &Params, x: &[f32], rows: usize) -> f64 {
    let mut input: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    let mut min = f64::INFINITY;
    for (l, layer) in p.layers.iter().enumerate().take(p.layers.len() - 1) {
        let mut next = vec![0.0f64; rows * layer.outputs];
        for r in 0..rows {
            for o in 0..layer.outputs {
                let z = layer.b[o] as f64 + (0..layer.inputs).map(|i| input[r * layer.inputs + i] * layer.w[o * layer.inputs + i] as f64).sum::<f64>();
                min = min.min(z.abs());
                next[r * layer.outputs + o] = p.arch.act_of(l).apply(z as f32) as f64;
            }
        }
        input = next;
    }
    min
}

fn params_value(p: &Params, l: usize, is_w: bool, i: usize) -> f32 {
    if is_w { p.layers[l].w[i] } else { p.layers[l].b[i] }
}

fn set_value(p: &mut Params, l: usize, is_w: bool, i: usize, v: f32) {
    if is_w {
        p.layers[l].w[i] = v;
    } else {
        p.layers[l].b[i] = v;
    }
}

pub fn register(s: &mut Suite) {
    for act in Activation::ALL {
        s.cpu(format!("grad::finite_differences::{act:?}"), move |rng| gradient_check(rng, act));
    }
    s.cpu("grad::softmax_xent_is_stable", |_| {
        // Logits of ±1e4 would overflow exp without the max subtraction.
        let logits = [1e4f32, 0.0, -1e4, 3.0, 3.0, 3.0];
        let (loss, d) = cpu::softmax_cross_entropy(&logits, &[1, 2], 3);
        let want = (1e4 + (0.0f64)) / 2.0 + (3.0f64).ln() / 2.0;
        if !loss.is_finite() || (loss - want).abs() > 1e-6 * want || d.iter().any(|v| !v.is_finite()) {
            return Err(format!("loss {loss} (want {want}), grads {d:?}"));
        }
        let sum: f32 = d.iter().sum();
        if sum.abs() > 1e-6 {
            return Err(format!("each row's gradient sums to zero, got {sum}"));
        }
        Ok(())
    });
    s.cpu("cpu::train_digits", |_| {
        let d = data::digits().map_err(|e| e.to_string())?;
        let (tr, te) = d.stratified_split(0.2, 3).map_err(|e| e.to_string())?;
        for (act, opt) in [(Activation::Relu, Optimizer::sgd(0.05, 0.9)), (Activation::Tanh, Optimizer::adam(0.003))] {
            let cfg = TrainConfig {
                hidden: vec![32],
                act,
                epochs: 6,
                batch: 32,
                optimizer: opt,
                seed: 5,
                log_every: 0,
                graph: false,
                init: None,
                precision: Precision::F32,
            };
            let out = train::train_cpu(&cfg, &tr, &te, &mut |_| {}).map_err(|e| e.to_string())?;
            let (first, last) = (out.epochs[0].mean_loss, out.epochs.last().expect("epochs").mean_loss);
            eprintln!("cpu {act:?}: loss {first:.3} → {last:.3}, test accuracy {:.2}%", 100.0 * out.test_accuracy);
            let halved = last < 0.5 * first; // false for NaN too
            if !halved || out.test_accuracy < 0.9 {
                return Err(format!("{act:?}: loss {first} → {last}, accuracy {}", out.test_accuracy));
            }
        }
        Ok(())
    });
    s.cpu("cpu::bad_train_settings_say_what_is_allowed", |_| {
        let d = data::digits().map_err(|e| e.to_string())?;
        let (tr, te) = d.stratified_split(0.2, 3).map_err(|e| e.to_string())?;
        let rows = tr.rows();
        let base = TrainConfig { hidden: vec![8], epochs: 1, batch: 32, seed: 1, log_every: 0, graph: false, init: None, ..TrainConfig::default() };
        for (cfg, want) in [
            (
                TrainConfig { batch: 100_000_000, ..base.clone() },
                format!("batch size 100000000 is larger than the training set ({rows} rows): the largest allowed is {rows}"),
            ),
            (TrainConfig { batch: 0, ..base.clone() }, format!("batch size must be at least 1 (and at most {rows}")),
            (TrainConfig { epochs: 0, ..base.clone() }, "epochs must be at least 1".to_string()),
        ] {
            match train::train_cpu(&cfg, &tr, &te, &mut |_| {}) {
                Err(Error::InvalidArgument { reason, .. }) if reason.contains(&want) => {}
                other => return Err(format!("batch {} epochs {}: expected an error containing {want:?}, got {:?}", cfg.batch, cfg.epochs, other.err())),
            }
        }
        // The largest batch the message names is accepted.
        train::train_cpu(&TrainConfig { batch: rows, ..base }, &tr, &te, &mut |_| {}).map_err(|e| format!("batch {rows}: {e}"))?;
        Ok(())
    });
    s.cpu("cpu::bad_inputs_are_errors", |_| {
        let arch = Architecture::new(4, &[3], 2, Activation::Relu).map_err(|e| e.to_string())?;
        let mut net = CpuMlp::new(Params::init(&arch, 1).map_err(|e| e.to_string())?, Optimizer::sgd(0.1, 0.0)).map_err(|e| e.to_string())?;
        if net.train_step(&[0.0; 7], &[0, 1]).is_ok() || net.train_step(&[], &[]).is_ok() || net.train_step(&[0.0; 4], &[2]).is_ok() {
            return Err("shape mismatch, empty batch and label ≥ classes must be errors".into());
        }
        if Architecture::new(4, &[0], 2, Activation::Relu).is_ok()
            || Optimizer::sgd(-1.0, 0.0).validate().is_ok()
            || Optimizer::sgd(0.1, 1.5).validate().is_ok()
        {
            return Err("zero-width layer, negative lr and momentum ≥ 1 must be errors".into());
        }
        Ok(())
    });
}

//! Scores `Auto`'s rules offline against plans `gemm_plans` timed: for every product of the
//! plan files, the plan `Auto` picks now (`host::ops::matmul::auto_plan`, no device needed), its
//! measured time over the fastest plan timed for that product. TF32 `Auto` may pick FP32's
//! kernels; their `f32` rows of the same product count for it, and the fastest plan is taken over
//! both. A pick the files did not time is counted apart.
//!
//! ```text
//! plan_replay [FILE.csv...] [--torch TORCH.csv] [--worst N]
//! plan_replay --pick PRECISION:LAYOUT:MxNxK...
//! ```
//! `--pick` prints only the plan `Auto` picks for each product named (for example
//! `bf16:nn:3000x3000x3000`).
//! (Through `cargo bench` it runs in `benches/`: give absolute paths.) With no file it scores the
//! plan files of session 27 (`docs/runs/2026-11-28-s27/h1/plans.csv`,
//! `h4/plans.csv`: every plan of 245 products on an H100) beside their PyTorch times.
//! prints, per precision, the geometric-mean loss of the picks over the products whose pick was
//! timed, then the N worst products (pick, best plan, and with `--torch` PyTorch's time and the
//! ratios). The plan files are `gemm_plans` CSV (precision, layout, m, n, k, plan, splits, ms,
//! ...); `--torch` takes `benches/torch/gemm_sweep.py`'s CSV. The device assumed is an H100's
//! multiprocessors with the `wgmma` kernels (`Multiprocessors::H100`), what the files in
//! `docs/runs` were timed on or alike (an H200 has the same 132).

use std::collections::HashMap;
use std::process::ExitCode;

use benches::torch_times::{ProductKey, layout_transposes, read_torch};
use host::ops::matmul::plan::Multiprocessors;
use host::ops::matmul::{Precision, auto_plan};

/// The fastest time (ms) of each (plan, splits) of each product.
type Timings = HashMap<ProductKey, HashMap<(String, u32), f64>>;

/// The fastest time of every (plan, splits) of every product in `paths` (`Auto` rows skipped).
fn load_plans(paths: &[String]) -> Result<Timings, String> {
    let mut out = Timings::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split(',').collect();
            if f.len() < 8 || f[0] == "precision" || f[5] == "Auto" || f[7].is_empty() {
                continue;
            }
            let parse = |s: &str| s.parse::<usize>().map_err(|e| format!("{path}: {line}: {e}"));
            let key = (f[0].to_string(), f[1].to_string(), parse(f[2])?, parse(f[3])?, parse(f[4])?);
            let ms: f64 = f[7].parse().map_err(|e| format!("{path}: {line}: {e}"))?;
            let slot = out.entry(key).or_default().entry((f[5].to_string(), parse(f[6])? as u32)).or_insert(ms);
            *slot = slot.min(ms);
        }
    }
    Ok(out)
}

/// Prints `Auto`'s pick for each `PRECISION:LAYOUT:MxNxK` of `specs`.
fn print_picks(specs: &[String]) -> ExitCode {
    for spec in specs {
        let parsed = (|| {
            let [precision, layout, dims] = spec.split(':').collect::<Vec<_>>()[..] else { return None };
            let precision = match precision {
                "f32" => Precision::F32,
                "tf32" => Precision::Tf32,
                "bf16" => Precision::Bf16,
                _ => return None,
            };
            let d: Vec<usize> = dims.split('x').map(|v| v.parse().ok()).collect::<Option<_>>()?;
            let (&[m, n, k], "nn" | "nt" | "tn" | "tt") = (&d[..], layout) else { return None };
            Some((precision, (m, n, k), layout_transposes(layout)))
        })();
        let Some((precision, dims, layout)) = parsed else {
            eprintln!("{spec}: expected PRECISION:LAYOUT:MxNxK, as bf16:nn:3000x3000x3000");
            return ExitCode::FAILURE;
        };
        match auto_plan(precision, dims, layout, Multiprocessors::H100, true) {
            Ok(Some((plan, splits))) => println!("{spec}: {plan} x{splits}"),
            Ok(None) => println!("{spec}: empty product"),
            Err(e) => println!("{spec}: {e}"),
        }
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let (mut files, mut torch_path, mut worst, mut picks) = (Vec::new(), None, 12usize, Vec::new());
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--torch" => torch_path = it.next(),
            "--worst" => worst = it.next().and_then(|v| v.parse().ok()).unwrap_or(worst),
            "--pick" => picks.extend(it.next()),
            _ => files.push(a),
        }
    }
    if !picks.is_empty() {
        return print_picks(&picks);
    }
    if files.is_empty() {
        let runs = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/runs/2026-11-28-s27");
        files = vec![format!("{runs}/h1/plans.csv"), format!("{runs}/h4/plans.csv")];
        torch_path = torch_path.or(Some(format!("{runs}/h4/torch-h1-h4.csv")));
    }
    let plans = match load_plans(&files) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let torch = match torch_path.as_deref().map(read_torch).transpose() {
        Ok(t) => t.map(|t| t.ms).unwrap_or_default(),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut keys: Vec<&ProductKey> = plans.keys().collect();
    keys.sort();
    for (name, precision) in [("f32", Precision::F32), ("tf32", Precision::Tf32), ("bf16", Precision::Bf16)] {
        let (mut logs, mut untimed, mut rows) = (Vec::new(), 0, Vec::new());
        for key in keys.iter().filter(|k| k.0 == name) {
            let (_, layout, m, n, k) = key;
            let layout_t = layout_transposes(layout);
            let Ok(Some(pick)) = auto_plan(precision, (*m, *n, *k), layout_t, Multiprocessors::H100, true) else { continue };
            let mine = &plans[*key];
            // TF32 `Auto` may run FP32's kernels: their rows count for it.
            let other = (precision == Precision::Tf32).then(|| plans.get(&("f32".to_string(), layout.clone(), *m, *n, *k))).flatten();
            let timed = mine.iter().chain(other.into_iter().flatten());
            let Some((best_plan, best)) = timed.min_by(|a, b| a.1.total_cmp(b.1)) else { continue };
            let Some(ms) = mine.get(&pick).or_else(|| other.and_then(|o| o.get(&pick))) else {
                untimed += 1;
                continue;
            };
            logs.push((ms / best).ln());
            rows.push((ms / best, key, pick, *ms, best_plan.clone(), *best));
        }
        if logs.is_empty() {
            continue;
        }
        let geo = (logs.iter().sum::<f64>() / logs.len() as f64).exp();
        println!(
            "{name}: the pick within {:.1} % of the best plan on geometric mean over {} products ({untimed} picks not timed)",
            100.0 * (geo - 1.0),
            logs.len()
        );
        rows.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (loss, key, pick, ms, best_plan, best) in rows.into_iter().take(worst) {
            let vs = torch.get(*key).map_or(String::new(), |t| format!("; PyTorch {:.1} µs, ratio {:.2} (best {:.2})", t * 1e3, t / ms, t / best));
            println!(
                "  {} {}x{}x{}: {}x{} {:.1} µs, best {}x{} {:.1} µs ({loss:.2}){vs}",
                key.1,
                key.2,
                key.3,
                key.4,
                pick.0,
                pick.1,
                ms * 1e3,
                best_plan.0,
                best_plan.1,
                best * 1e3
            );
        }
    }
    ExitCode::SUCCESS
}

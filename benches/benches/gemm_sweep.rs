//! GEMM shape sweep: every shape family the library meets (squares, the MLP's three products,
//! skinny and tall products, log-uniform and uniform random shapes) in the four layouts, at each
//! precision (`f32`: `GemmKernel::Auto`; `tf32`: `GemmKernel::Tf32Auto`; `bf16`: `gemm_bf16`),
//! checked and then timed against PyTorch (cuBLAS) on the same GPU.
//!
//! # Protocol
//!
//! Every case is (precision, layout, m, n, k, group), C (m×n) = op(A)·op(B) with op = transpose
//! for a `t` in the layout: A is stored m×k for `n`, k×m for `t`; B k×n for `n`, n×k for `t`.
//! Shapes are the outer loop and precisions the inner one, so `f32`, `tf32` and `bf16` of a shape
//! share the same random inputs (uniform in [-1, 1), a new seed per shape). For each case:
//!
//! 1. **Check.** C is poisoned with NaN, the op runs once, C is copied back: no NaN anywhere,
//!    then the four corners, the whole last row and last column and 256 random elements against
//!    an f64 dot product of the inputs as the kernel sees them (bf16-rounded for `bf16`). The
//!    error is |got − want| / Σ|a·b| per element; tolerances 1e-5 (f32), 2e-3 (tf32), 1e-5
//!    (bf16). A failure is shown in the table, counted, and makes the run exit with status 1
//!    (the sweep goes on).
//! 2. **Time.** One launch is timed (CUDA events, median of 3) to pick R, the number of
//!    back-to-back launches that take about 1 ms (1 to 200). R launches are captured into a
//!    CUDA graph (`host::nn::graph::CudaGraph`; plain back-to-back launches if the capture
//!    fails, flagged `graph=no`), replayed twice to warm up, then 7 to 15 replays are timed
//!    with CUDA events; the time per GEMM is the median replay divided by R. TFLOP/s count
//!    2·m·n·k.
//!
//! The PyTorch companion `benches/torch/gemm_sweep.py` times `torch.matmul` the same way (a
//! CUDA graph of R products, median replay / R) on the case list this binary prints. With
//! `--torch`, each case gets ratio = torch_ms / ours_ms (our speed over cuBLAS's: above 1 we are
//! faster). Cases under 1 MFLOP (2·m·n·k < 10⁶) are marked `launch-bound`: their target is a
//! ratio ≥ 1. The summary (last in the output) gives per precision and per group the geometric
//! mean ratio, the worst case and the number of cases below 0.70.
//!
//! # Commands (on the GPU machine)
//!
//! ```text
//! cargo bench -p benches --bench gemm_sweep --no-run     # prints the binary's path
//! gemm_sweep --list > cases.csv                          # no GPU needed
//! python3 benches/torch/gemm_sweep.py cases.csv > torch.csv
//! gemm_sweep --torch torch.csv --csv sweep.csv
//! ```
//! or through cargo (its messages go to stderr, so stdout stays the CSV):
//! `cargo bench -p benches --bench gemm_sweep -- --list > cases.csv`, then
//! `cargo bench -p benches --bench gemm_sweep -- --torch torch.csv --csv sweep.csv`; cargo
//! runs a bench in its package directory (`benches/`), so relative paths start there.
//!
//! `cases.csv` records the random groups' seed (`# gemm_sweep seed=N`) and the companion copies
//! it into `torch.csv`; `--torch` takes it from there unless `--seed` is given, so the random
//! shapes match. List and sweep must use the same `--quick`/`--groups`/`--precisions`: cases
//! without a torch time are counted in the summary.
//!
//! # Options
//!
//! `--quick` (6 squares up to 2048, the MLP at batch 256 and 1024, 3 skinny, 1 tall, 8
//! log-uniform and 4 uniform random shapes), `--groups square,mlp,skinny,tall,random,uniform`,
//! `--precisions f32,tf32,bf16`, `--seed N` (default: from the clock), `--csv PATH` (default
//! `gemm_sweep.csv`), `--list`, `--torch PATH`, `--f32-kernel NAME` (a `GemmKernel` the `f32`
//! rows run instead of `Auto`, to measure one tile kernel; `tf32` and `bf16` are unchanged).
//! `--bench` (added by `cargo bench`) is ignored.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs::File;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use benches::graph_timing::{Timing, measure};
use benches::metrics::random_f32;
use benches::torch_times::{ProductKey, TorchTimes, read_torch};
use host::buffer_bf16::{DeviceMatrixBf16, bf16_to_f32, f32_to_bf16};
use host::ops::matmul::{Epilogue, GemmKernel, Transpose, gemm, gemm_bf16};
use host::{DeviceMatrix, Gpu, Result};

/// The shape groups, in the order they run.
const GROUPS: [&str; 6] = ["square", "mlp", "skinny", "tall", "random", "uniform"];

/// Square sizes n (n×n×n).
const SQUARE: [usize; 16] = [128, 256, 384, 512, 640, 768, 1000, 1024, 1536, 2000, 2048, 3000, 4096, 5000, 6144, 8192];
const SQUARE_QUICK: [usize; 6] = [128, 256, 512, 1000, 1024, 2048];

/// MLP layers (in, out) and batch sizes.
const MLP_LAYERS: [(usize, usize); 6] = [(784, 1024), (1024, 1024), (1024, 10), (784, 4096), (4096, 4096), (4096, 10)];
const MLP_BATCHES: [usize; 8] = [32, 64, 128, 256, 512, 1024, 2048, 4096];
const MLP_BATCHES_QUICK: [usize; 2] = [256, 1024];

/// (m, n, k) with m or n ≤ 64 and a long k.
const SKINNY: [(usize, usize, usize); 12] = [
    (1, 4096, 4096),
    (16, 4096, 4096),
    (64, 4096, 4096),
    (4096, 16, 4096),
    (4096, 64, 4096),
    (64, 64, 16384),
    (32, 1024, 16384),
    (1024, 32, 16384),
    (8, 8192, 8192),
    (64, 8192, 2048),
    (8192, 64, 2048),
    (48, 3000, 7000),
];
const SKINNY_QUICK: [(usize, usize, usize); 3] = [(1, 4096, 4096), (64, 64, 16384), (48, 3000, 7000)];

/// (m, n, k) with a short k.
const TALL: [(usize, usize, usize); 4] = [(8192, 8192, 64), (8192, 4096, 32), (16384, 1024, 128), (4096, 4096, 16)];
const TALL_QUICK: [(usize, usize, usize); 1] = [(4096, 4096, 16)];

/// Random shapes: m, n, k log-uniform in [1, RANDOM_MAX].
const RANDOM_COUNT: usize = 32;
const RANDOM_COUNT_QUICK: usize = 8;
const RANDOM_MAX: usize = 8192;
/// Uniform random shapes: m, n, k uniform in [1, RANDOM_MAX], the plain reading of "drawn at
/// random from [1, 8192]³". Most are large on every side (compute-bound), where the log-uniform
/// group is mostly narrow or short; the two together cover both ends. Their own stream (the seed
/// xor [`UNIFORM_STREAM`]), so adding them moved no log-uniform shape.
const UNIFORM_COUNT: usize = 32;
const UNIFORM_COUNT_QUICK: usize = 4;
const UNIFORM_STREAM: u64 = 0x756E_6966_6F72_6D00;

/// Elements checked at random positions (besides the corners, last row and last column).
const CHECK_SAMPLES: usize = 256;
/// Below this many floating-point operations a GEMM is dominated by the launch.
const LAUNCH_BOUND_FLOPS: f64 = 1e6;
/// Ratios (torch_ms / ours_ms) below this are counted as slow in the summary.
const SLOW_RATIO: f64 = 0.70;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Precision {
    F32,
    Tf32,
    Bf16,
}

impl Precision {
    const ALL: [Precision; 3] = [Precision::F32, Precision::Tf32, Precision::Bf16];

    fn name(self) -> &'static str {
        match self {
            Precision::F32 => "f32",
            Precision::Tf32 => "tf32",
            Precision::Bf16 => "bf16",
        }
    }

    fn parse(s: &str) -> Option<Precision> {
        Precision::ALL.into_iter().find(|p| p.name() == s)
    }

    /// Check tolerance in units of Σ|a·b|: TF32 rounds inputs to 10 mantissa bits; bf16 inputs
    /// are rounded in the reference too, so only f32 accumulation error remains.
    fn tolerance(self) -> f64 {
        match self {
            Precision::F32 | Precision::Bf16 => 1e-5,
            Precision::Tf32 => 2e-3,
        }
    }

    /// The inputs as the kernel sees them.
    fn round(self) -> fn(f32) -> f32 {
        fn exact(x: f32) -> f32 {
            x
        }
        fn to_bf16(x: f32) -> f32 {
            bf16_to_f32(f32_to_bf16(x))
        }
        match self {
            Precision::F32 | Precision::Tf32 => exact,
            Precision::Bf16 => to_bf16,
        }
    }
}

/// op(A)·op(B): whether A and B are transposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Layout {
    ta: bool,
    tb: bool,
}

impl Layout {
    const NN: Layout = Layout { ta: false, tb: false };
    const NT: Layout = Layout { ta: false, tb: true };
    const TN: Layout = Layout { ta: true, tb: false };
    const TT: Layout = Layout { ta: true, tb: true };
    const ALL: [Layout; 4] = [Layout::NN, Layout::NT, Layout::TN, Layout::TT];

    fn name(self) -> &'static str {
        match (self.ta, self.tb) {
            (false, false) => "nn",
            (false, true) => "nt",
            (true, false) => "tn",
            (true, true) => "tt",
        }
    }

    fn transposes(self) -> (Transpose, Transpose) {
        let t = |yes| if yes { Transpose::Yes } else { Transpose::No };
        (t(self.ta), t(self.tb))
    }
}

/// One product shape of a group.
#[derive(Debug, Clone, Copy)]
struct Shape {
    group: &'static str,
    layout: Layout,
    m: usize,
    n: usize,
    k: usize,
}

impl Shape {
    fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }

    /// A's stored (rows, cols).
    fn a_stored(&self) -> (usize, usize) {
        if self.layout.ta { (self.k, self.m) } else { (self.m, self.k) }
    }

    /// B's stored (rows, cols).
    fn b_stored(&self) -> (usize, usize) {
        if self.layout.tb { (self.n, self.k) } else { (self.k, self.n) }
    }

    fn dims(&self) -> String {
        format!("{}x{}x{}", self.m, self.n, self.k)
    }
}

/// The join key with the torch companion's output: (precision, layout, m, n, k).
type Key = ProductKey;

fn key(p: Precision, s: &Shape) -> Key {
    (p.name().to_string(), s.layout.name().to_string(), s.m, s.n, s.k)
}

/// The command line.
struct Options {
    quick: bool,
    groups: Vec<&'static str>,
    precisions: Vec<Precision>,
    /// From `--seed`; else from the torch file, else from the clock.
    seed: Option<u64>,
    csv: String,
    list: bool,
    torch: Option<String>,
    /// The kernel the `f32` precision runs (`--f32-kernel`, default `Auto`): for measuring
    /// each tile kernel (with its own split-K choice) against the same cuBLAS times.
    f32_kernel: GemmKernel,
}

const USAGE: &str = "usage: gemm_sweep [--quick] [--groups square,mlp,skinny,tall,random,uniform] \
[--precisions f32,tf32,bf16] [--seed N] [--csv PATH] [--list] [--torch PATH] [--f32-kernel NAME]";

fn parse_args(args: impl Iterator<Item = String>) -> std::result::Result<Options, String> {
    let mut o = Options {
        quick: false,
        groups: GROUPS.to_vec(),
        precisions: Precision::ALL.to_vec(),
        seed: None,
        csv: "gemm_sweep.csv".to_string(),
        list: false,
        torch: None,
        f32_kernel: GemmKernel::Auto,
    };
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || inline.clone().or_else(|| args.next()).ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--bench" => {}
            "--quick" => o.quick = true,
            "--list" => o.list = true,
            "--groups" => {
                let v = value()?;
                let mut groups = Vec::new();
                for g in v.split(',').filter(|g| !g.is_empty()) {
                    let g = GROUPS.into_iter().find(|x| *x == g).ok_or_else(|| format!("unknown group {g:?} (known: {})", GROUPS.join(",")))?;
                    groups.push(g);
                }
                // Run in the canonical order whatever the order asked.
                o.groups = GROUPS.into_iter().filter(|g| groups.contains(g)).collect();
            }
            "--precisions" => {
                let v = value()?;
                let mut ps = Vec::new();
                for p in v.split(',').filter(|p| !p.is_empty()) {
                    ps.push(Precision::parse(p).ok_or_else(|| format!("unknown precision {p:?} (known: f32,tf32,bf16)"))?);
                }
                o.precisions = Precision::ALL.into_iter().filter(|p| ps.contains(p)).collect();
            }
            "--seed" => {
                let v = value()?;
                o.seed = Some(v.parse().map_err(|_| format!("--seed wants an unsigned integer, got {v:?}"))?);
            }
            "--csv" => o.csv = value()?,
            "--torch" => o.torch = Some(value()?),
            "--f32-kernel" => {
                let v = value()?;
                o.f32_kernel = GemmKernel::LADDER
                    .into_iter()
                    .chain([GemmKernel::Auto])
                    .find(|k| format!("{k:?}") == v)
                    .ok_or_else(|| format!("unknown --f32-kernel {v:?} (a GemmKernel name)"))?;
            }
            "--help" | "-h" => return Err(String::new()),
            _ => return Err(format!("unknown argument {arg:?}")),
        }
    }
    if o.groups.is_empty() {
        return Err("--groups selects no group".into());
    }
    if o.precisions.is_empty() {
        return Err("--precisions selects no precision".into());
    }
    Ok(o)
}

/// SplitMix64: the seed stream for shapes and per-shape inputs.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed from the clock, small enough to type back in.
fn clock_seed() -> u64 {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    (nanos % 1_000_000_000) as u64
}

/// `count` random shapes of `group` from the stream at `state`: m, n and k drawn by `dim`, then a
/// layout.
fn push_random(out: &mut Vec<Shape>, group: &'static str, count: usize, mut state: u64, dim: impl Fn(&mut u64) -> usize) {
    for _ in 0..count {
        let (m, n, k) = (dim(&mut state), dim(&mut state), dim(&mut state));
        let layout = Layout::ALL[(splitmix(&mut state) % 4) as usize];
        out.push(Shape { group, layout, m, n, k });
    }
}

/// Every shape of the selected groups, in run order; deterministic given `seed` (which only the
/// random groups use).
fn shapes(o: &Options, seed: u64) -> Vec<Shape> {
    let mut out = Vec::new();
    let with_layouts = |out: &mut Vec<Shape>, group, layouts: &[Layout], (m, n, k)| {
        for &layout in layouts {
            out.push(Shape { group, layout, m, n, k });
        }
    };
    for &group in &o.groups {
        match group {
            "square" => {
                let sizes: &[usize] = if o.quick { &SQUARE_QUICK } else { &SQUARE };
                for &n in sizes {
                    with_layouts(&mut out, group, &Layout::ALL, (n, n, n));
                }
            }
            "mlp" => {
                let batches: &[usize] = if o.quick { &MLP_BATCHES_QUICK } else { &MLP_BATCHES };
                let mut seen = HashSet::new();
                for &(input, output) in &MLP_LAYERS {
                    for &b in batches {
                        // Forward x·Wᵀ, input gradient dY·W, weight gradient dYᵀ·x.
                        for (layout, m, n, k) in [(Layout::NT, b, output, input), (Layout::NN, b, input, output), (Layout::TN, output, input, b)] {
                            if seen.insert((layout, m, n, k)) {
                                out.push(Shape { group, layout, m, n, k });
                            }
                        }
                    }
                }
            }
            "skinny" => {
                let list: &[_] = if o.quick { &SKINNY_QUICK } else { &SKINNY };
                for &mnk in list {
                    with_layouts(&mut out, group, &[Layout::NN, Layout::NT], mnk);
                }
            }
            "tall" => {
                let list: &[_] = if o.quick { &TALL_QUICK } else { &TALL };
                for &mnk in list {
                    with_layouts(&mut out, group, &[Layout::NN, Layout::NT], mnk);
                }
            }
            // The quick lists are prefixes of the full ones (same streams).
            "random" => {
                let count = if o.quick { RANDOM_COUNT_QUICK } else { RANDOM_COUNT };
                push_random(&mut out, group, count, seed, |state| {
                    let u = (splitmix(state) >> 11) as f64 / (1u64 << 53) as f64;
                    ((u * (RANDOM_MAX as f64).ln()).exp().round() as usize).clamp(1, RANDOM_MAX)
                });
            }
            "uniform" => {
                let count = if o.quick { UNIFORM_COUNT_QUICK } else { UNIFORM_COUNT };
                push_random(&mut out, group, count, seed ^ UNIFORM_STREAM, |state| 1 + (splitmix(state) % RANDOM_MAX as u64) as usize);
            }
            _ => unreachable!("groups are validated when parsed"),
        }
    }
    out
}

/// The host inputs of one shape, as stored.
struct HostInputs {
    shape: Shape,
    a: Vec<f32>,
    b: Vec<f32>,
}

impl HostInputs {
    fn a_at(&self, i: usize, p: usize) -> f32 {
        let s = &self.shape;
        if s.layout.ta { self.a[p * s.m + i] } else { self.a[i * s.k + p] }
    }

    fn b_at(&self, p: usize, j: usize) -> f32 {
        let s = &self.shape;
        if s.layout.tb { self.b[j * s.k + p] } else { self.b[p * s.n + j] }
    }

    /// (Σ a·b, Σ|a·b|) for C[i][j].
    fn dot(&self, i: usize, j: usize, round: fn(f32) -> f32) -> (f64, f64) {
        let (mut dot, mut mag) = (0.0f64, 0.0f64);
        for p in 0..self.shape.k {
            let t = round(self.a_at(i, p)) as f64 * round(self.b_at(p, j)) as f64;
            dot += t;
            mag += t.abs();
        }
        (dot, mag)
    }

    /// (Σ a·b, Σ|a·b|) for the whole row i of C, reading B along its rows.
    fn row(&self, i: usize, round: fn(f32) -> f32) -> Vec<(f64, f64)> {
        let s = &self.shape;
        if s.layout.tb {
            return (0..s.n).map(|j| self.dot(i, j, round)).collect();
        }
        let mut acc = vec![(0.0f64, 0.0f64); s.n];
        for p in 0..s.k {
            let a = round(self.a_at(i, p)) as f64;
            for (r, &b) in acc.iter_mut().zip(&self.b[p * s.n..(p + 1) * s.n]) {
                let t = a * round(b) as f64;
                r.0 += t;
                r.1 += t.abs();
            }
        }
        acc
    }

    /// (Σ a·b, Σ|a·b|) for the whole column j of C, reading A along its rows.
    fn col(&self, j: usize, round: fn(f32) -> f32) -> Vec<(f64, f64)> {
        let s = &self.shape;
        if !s.layout.ta {
            return (0..s.m).map(|i| self.dot(i, j, round)).collect();
        }
        let mut acc = vec![(0.0f64, 0.0f64); s.m];
        for p in 0..s.k {
            let b = round(self.b_at(p, j)) as f64;
            for (r, &a) in acc.iter_mut().zip(&self.a[p * s.m..(p + 1) * s.m]) {
                let t = round(a) as f64 * b;
                r.0 += t;
                r.1 += t.abs();
            }
        }
        acc
    }
}

/// The check of one output.
struct Check {
    /// Largest |got − want| / Σ|a·b| over the checked elements (∞ for a NaN).
    worst: f64,
    ok: bool,
    /// Where the failure is, for the table.
    note: String,
}

/// Checks C (row-major m×n) against f64: no NaN anywhere; the corners, the last row, the last
/// column and `CHECK_SAMPLES` random elements within `tol` of Σ|a·b|.
fn check(x: &HostInputs, c: &[f32], p: Precision, seed: u64) -> Check {
    let (m, n) = (x.shape.m, x.shape.n);
    if let Some(idx) = c.iter().position(|v| v.is_nan()) {
        let (nans, (i, j)) = (c.iter().filter(|v| v.is_nan()).count(), (idx / n, idx % n));
        return Check { worst: f64::INFINITY, ok: false, note: format!("{nans} NaN, first at ({i},{j})") };
    }
    let round = p.round();
    let tol = p.tolerance();
    let mut worst = (0.0f64, (0, 0));
    let mut score = |i: usize, j: usize, (want, mag): (f64, f64)| {
        let e = (c[i * n + j] as f64 - want).abs() / mag.max(f64::MIN_POSITIVE);
        // NaN-aware: a NaN error counts as the worst.
        let e = if e.is_nan() { f64::INFINITY } else { e };
        if e > worst.0 {
            worst = (e, (i, j));
        }
    };
    for (j, v) in x.row(m - 1, round).into_iter().enumerate() {
        score(m - 1, j, v);
    }
    for (i, v) in x.col(n - 1, round).into_iter().enumerate() {
        score(i, n - 1, v);
    }
    for (i, j) in [(0, 0), (0, n - 1), (m - 1, 0), (m - 1, n - 1)] {
        score(i, j, x.dot(i, j, round));
    }
    let mut state = seed ^ 0xC0FF_EE00;
    for _ in 0..CHECK_SAMPLES {
        let i = (splitmix(&mut state) % m as u64) as usize;
        let j = (splitmix(&mut state) % n as u64) as usize;
        score(i, j, x.dot(i, j, round));
    }
    let (worst, (i, j)) = worst;
    let ok = worst <= tol;
    let note = if ok { String::new() } else { format!("err {worst:.1e} > {tol:.0e} at ({i},{j})") };
    Check { worst, ok, note }
}

/// What happened to one case.
enum Outcome {
    Measured {
        check: Check,
        timing: Option<Timing>,
    },
    /// The op (or an allocation, upload or copy) returned an error.
    Error(String),
}

/// One row of the table and the CSV.
struct Row {
    shape: Shape,
    precision: Precision,
    outcome: Outcome,
    torch_ms: Option<f64>,
}

impl Row {
    fn ok(&self) -> bool {
        matches!(&self.outcome, Outcome::Measured { check, timing: Some(_) } if check.ok)
    }

    fn ms(&self) -> Option<f64> {
        match &self.outcome {
            Outcome::Measured { timing: Some(t), .. } => Some(t.ms),
            _ => None,
        }
    }

    fn tflops(&self) -> Option<f64> {
        self.ms().map(|ms| self.shape.flops() / (ms * 1e-3) / 1e12)
    }

    /// torch_ms / ours_ms: above 1 we are faster.
    fn ratio(&self) -> Option<f64> {
        Some(self.torch_ms? / self.ms()?).filter(|r| r.is_finite() && *r > 0.0)
    }

    fn launch_bound(&self) -> bool {
        self.shape.flops() < LAUNCH_BOUND_FLOPS
    }

    fn status(&self) -> String {
        match &self.outcome {
            Outcome::Error(e) => format!("ERROR {e}"),
            Outcome::Measured { check, .. } if !check.ok => format!("FAIL {}", check.note),
            Outcome::Measured { check, timing: None } => format!("ok {:.1e}, timing failed", check.worst),
            Outcome::Measured { check, .. } => format!("ok {:.1e}", check.worst),
        }
    }

    fn print(&self) {
        let s = &self.shape;
        let opt = |v: Option<f64>, prec: usize| v.map_or("-".to_string(), |v| format!("{v:.prec$}"));
        let lb = if self.launch_bound() { " launch-bound" } else { "" };
        println!(
            "{:<6} {:<4} {} {:>5} {:>5} {:>5} {:>10} ms {:>6} TF  torch {:>10}  ratio {:>5}  {}{lb}",
            s.group,
            self.precision.name(),
            s.layout.name(),
            s.m,
            s.n,
            s.k,
            opt(self.ms(), 4),
            opt(self.tflops(), 2),
            opt(self.torch_ms, 4),
            opt(self.ratio(), 2),
            self.status(),
        );
    }

    const CSV_HEADER: &str = "group,precision,layout,m,n,k,gflop,ours_ms,tflops,reps,graph,torch_ms,ratio,launch_bound,check,max_err,note";

    fn csv(&self) -> String {
        let s = &self.shape;
        let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.6}"));
        let (reps, graph, check, err, note) = match &self.outcome {
            Outcome::Error(e) => (String::new(), String::new(), "error", String::new(), e.clone()),
            Outcome::Measured { check, timing } => (
                timing.as_ref().map_or(String::new(), |t| t.reps.to_string()),
                timing.as_ref().map_or(String::new(), |t| t.graph.to_string()),
                if check.ok { "ok" } else { "fail" },
                format!("{:.3e}", check.worst),
                check.note.clone(),
            ),
        };
        format!(
            "{},{},{},{},{},{},{:.6},{},{},{reps},{graph},{},{},{},{check},{err},\"{}\"",
            s.group,
            self.precision.name(),
            s.layout.name(),
            s.m,
            s.n,
            s.k,
            s.flops() / 1e9,
            opt(self.ms()),
            opt(self.tflops()),
            opt(self.torch_ms),
            opt(self.ratio()),
            self.launch_bound(),
            note.replace('"', "'"),
        )
    }
}

/// The case list's first line: the seed and the options that select the cases.
fn list_line(o: &Options, seed: u64) -> String {
    let precisions: Vec<&str> = o.precisions.iter().map(|p| p.name()).collect();
    format!("gemm_sweep seed={seed} quick={} groups={} precisions={}", o.quick, o.groups.join(","), precisions.join(","))
}

/// The sweep's state: the GPU, the options, the rows so far and the CSV they go to.
struct Sweep<'a> {
    gpu: &'a Gpu,
    seed: u64,
    precisions: Vec<Precision>,
    f32_kernel: GemmKernel,
    torch: Option<TorchTimes>,
    rows: Vec<Row>,
    csv: Option<File>,
}

impl Sweep<'_> {
    /// Prints a row, appends it to the CSV (flushed, so a run cut short keeps its rows) and keeps it.
    fn record(&mut self, shape: Shape, precision: Precision, outcome: Outcome) {
        let torch_ms = self.torch.as_ref().and_then(|t| t.ms.get(&key(precision, &shape)).copied());
        let row = Row { shape, precision, outcome, torch_ms };
        row.print();
        if let Some(csv) = &mut self.csv
            && let Err(e) = writeln!(csv, "{}", row.csv()).and_then(|()| csv.flush())
        {
            eprintln!("gemm_sweep: writing the CSV: {e}");
            self.csv = None;
        }
        self.rows.push(row);
    }

    /// Whether the context still works after an error (a faulted kernel poisons it for good).
    fn healthy(&self) -> bool {
        match self.gpu.synchronize() {
            Ok(()) => true,
            Err(e) => {
                eprintln!("gemm_sweep: the GPU context is unusable ({e}); stopping the sweep");
                false
            }
        }
    }

    /// Every selected precision of one shape, on the same random inputs. Returns false when the
    /// GPU context is unusable (the sweep then stops).
    fn run_shape(&mut self, idx: usize, shape: Shape) -> bool {
        let gpu = self.gpu;
        let case_seed = {
            let mut s = self.seed ^ (idx as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407);
            splitmix(&mut s)
        };
        let (ar, ac) = shape.a_stored();
        let (br, bc) = shape.b_stored();
        let x = HostInputs { shape, a: random_f32(case_seed, ar * ac, -1.0, 1.0), b: random_f32(case_seed ^ 0x5555_5555, br * bc, -1.0, 1.0) };
        let (ta, tb) = shape.layout.transposes();
        let what = |p: Precision| format!("{} {} {} {}", shape.group, p.name(), shape.layout.name(), shape.dims());
        // The output, and the f32 operands f32 and tf32 share (dropped before the bf16 upload,
        // so at most one pair of operands is on the device).
        let mut out: Option<DeviceMatrix> = None;
        let mut f32_operands: Option<(DeviceMatrix, DeviceMatrix)> = None;
        for p in self.precisions.clone() {
            let outcome = (|| -> Result<Outcome> {
                let c = match &mut out {
                    Some(c) => c,
                    None => out.insert(DeviceMatrix::filled(gpu, shape.m, shape.n, f32::NAN)?),
                };
                Ok(match p {
                    Precision::F32 | Precision::Tf32 => {
                        let (a, b) = match &f32_operands {
                            Some(ab) => ab,
                            None => f32_operands.insert((DeviceMatrix::from_host(gpu, ar, ac, &x.a)?, DeviceMatrix::from_host(gpu, br, bc, &x.b)?)),
                        };
                        let kernel = if p == Precision::Tf32 { GemmKernel::Tf32Auto } else { self.f32_kernel };
                        let mut op = |c: &mut DeviceMatrix| gemm(gpu, a, ta, b, tb, Epilogue::default(), c, kernel);
                        run_case(gpu, &x, p, case_seed, c, &mut op, &what(p))
                    }
                    Precision::Bf16 => {
                        f32_operands = None;
                        let a = DeviceMatrixBf16::from_f32(gpu, ar, ac, &x.a)?;
                        let b = DeviceMatrixBf16::from_f32(gpu, br, bc, &x.b)?;
                        let mut op = |c: &mut DeviceMatrix| gemm_bf16(gpu, &a, ta, &b, tb, Epilogue::default(), c);
                        run_case(gpu, &x, p, case_seed, c, &mut op, &what(p))
                    }
                })
            })();
            let failed = matches!(&outcome, Err(_) | Ok(Outcome::Error(_)));
            let outcome = outcome.unwrap_or_else(|e| Outcome::Error(e.to_string()));
            self.record(shape, p, outcome);
            if failed && !self.healthy() {
                return false;
            }
        }
        true
    }
}

/// Checks then times one case. An error of the op itself is an `Outcome::Error`; so is one
/// while timing (the check result is dropped then).
fn run_case(
    gpu: &Gpu,
    x: &HostInputs,
    p: Precision,
    seed: u64,
    c: &mut DeviceMatrix,
    op: &mut dyn FnMut(&mut DeviceMatrix) -> Result<()>,
    what: &str,
) -> Outcome {
    let checked = (|| -> Result<Check> {
        c.fill(gpu, f32::NAN)?;
        op(c)?;
        Ok(check(x, &c.to_host(gpu)?, p, seed))
    })();
    let check = match checked {
        Ok(check) => check,
        Err(e) => return Outcome::Error(e.to_string()),
    };
    // A failed check is still timed: the table shows both.
    match measure(gpu, &mut || op(c), what) {
        Ok(timing) => Outcome::Measured { check, timing: Some(timing) },
        Err(e) if check.ok => Outcome::Error(format!("timing: {e}")),
        Err(e) => {
            eprintln!("  {what}: timing failed too: {e}");
            Outcome::Measured { check, timing: None }
        }
    }
}

fn geomean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

/// One summary line for a set of rows (one precision, all groups or one).
fn summary_line(label: &str, rows: &[&Row], have_torch: bool) -> String {
    let failed = rows.iter().filter(|r| !r.ok()).count();
    let mut s = format!("{label:<12} {:>4} cases, {failed} failed", rows.len());
    if !have_torch {
        let tf: Vec<f64> = rows.iter().filter(|r| !r.launch_bound()).filter_map(|r| r.tflops()).collect();
        if let Some(g) = geomean(&tf) {
            let _ = write!(s, "; geomean {g:.2} TFLOP/s over {} cases >= 1 MFLOP", tf.len());
        }
        return s;
    }
    let all: Vec<f64> = rows.iter().filter_map(|r| r.ratio()).collect();
    let big: Vec<(&Row, f64)> = rows.iter().filter(|r| !r.launch_bound()).filter_map(|r| Some((*r, r.ratio()?))).collect();
    let big_ratios: Vec<f64> = big.iter().map(|(_, r)| *r).collect();
    let fmt = |g: Option<f64>| g.map_or("-".to_string(), |g| format!("{g:.3}"));
    let _ = write!(s, "; ratio geomean {} (all, {}) {} (>=1 MFLOP, {})", fmt(geomean(&all)), all.len(), fmt(geomean(&big_ratios)), big_ratios.len());
    if let Some((w, r)) = big.iter().min_by(|a, b| a.1.total_cmp(&b.1)) {
        let _ = write!(s, "; worst {r:.3} {} {} {}", w.shape.group, w.shape.layout.name(), w.shape.dims());
    }
    let slow = big_ratios.iter().filter(|r| **r < SLOW_RATIO).count();
    let _ = write!(s, "; {slow} below {SLOW_RATIO:.2}");
    let lb: Vec<f64> = rows.iter().filter(|r| r.launch_bound()).filter_map(|r| r.ratio()).collect();
    if !lb.is_empty() {
        let _ = write!(s, "; launch-bound below 1: {}/{}", lb.iter().filter(|r| **r < 1.0).count(), lb.len());
    }
    let missing = rows.iter().filter(|r| r.ms().is_some() && r.ratio().is_none()).count();
    if missing > 0 {
        let _ = write!(s, "; {missing} without a torch time");
    }
    s
}

/// The summary, printed last: per precision over all groups, then per group.
fn print_summary(rows: &[Row], precisions: &[Precision], groups: &[&str], have_torch: bool) {
    println!();
    if have_torch {
        println!("== summary: ratio = torch_ms / ours_ms (above 1 we are faster); launch-bound = under 1 MFLOP (target >= 1) ==");
    } else {
        println!("== summary (no --torch file: throughput only) ==");
    }
    for &p in precisions {
        let of_p: Vec<&Row> = rows.iter().filter(|r| r.precision == p).collect();
        if of_p.is_empty() {
            continue;
        }
        println!("{}", summary_line(&format!("{} all", p.name()), &of_p, have_torch));
        for &g in groups {
            let of_g: Vec<&Row> = of_p.iter().copied().filter(|r| r.shape.group == g).collect();
            if !of_g.is_empty() {
                println!("{}", summary_line(&format!("  {g}"), &of_g, have_torch));
            }
        }
    }
}

fn main() -> ExitCode {
    let o = match parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("gemm_sweep: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let torch = match o.torch.as_deref().map(read_torch).transpose() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("gemm_sweep: {e}");
            return ExitCode::from(2);
        }
    };
    let (seed, source) = match (o.seed, torch.as_ref().and_then(|t| t.seed)) {
        (Some(s), _) => (s, "--seed"),
        (None, Some(s)) => (s, "the --torch file"),
        (None, None) => (clock_seed(), "the clock"),
    };
    let shapes = shapes(&o, seed);
    if o.list {
        // A closed pipe (`| head`) ends the listing quietly.
        let mut out = std::io::stdout().lock();
        let listed = (|| -> std::io::Result<()> {
            writeln!(out, "# {}", list_line(&o, seed))?;
            writeln!(out, "precision,layout,m,n,k,group")?;
            for s in &shapes {
                for p in &o.precisions {
                    let (l, g) = (s.layout.name(), s.group);
                    writeln!(out, "{},{l},{},{},{},{g}", p.name(), s.m, s.n, s.k)?;
                }
            }
            out.flush()
        })();
        if let Err(e) = listed
            && e.kind() != std::io::ErrorKind::BrokenPipe
        {
            eprintln!("gemm_sweep: writing the case list: {e}");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    println!("gemm_sweep: seed {seed} (from {source}; rerun with --seed {seed}), {} shapes x {} precisions", shapes.len(), o.precisions.len());
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("gemm_sweep: no usable GPU: {e}");
            eprintln!("gemm_sweep: this benchmark needs a CUDA GPU (only --list runs without one)");
            return ExitCode::FAILURE;
        }
    };
    let info = gpu.info();
    println!("GPU: {} (cc {}.{}, {} SMs), PTX {}", info.name, info.compute_capability.0, info.compute_capability.1, info.multiprocessors, gpu.ptx_arch());
    if let Some(t) = &torch {
        for c in &t.comments {
            println!("torch file: {c}");
        }
        let ours = list_line(&o, seed);
        match &t.list_line {
            Some(l) if *l != ours => println!("WARNING: the torch file's case list was made with `{l}`, this run is `{ours}`"),
            None => println!("WARNING: the torch file does not say which case list it timed"),
            _ => {}
        }
    }
    let csv = match File::create(&o.csv).and_then(|mut f| writeln!(f, "{}", Row::CSV_HEADER).map(|()| f)) {
        Ok(f) => Some(f),
        Err(e) => {
            eprintln!("gemm_sweep: cannot write {}: {e}", o.csv);
            return ExitCode::FAILURE;
        }
    };
    println!("group  prec lay     m     n     k    ours ms       TF/s        torch ms  ratio  check (max err / Σ|a·b|)");
    let have_torch = torch.is_some();
    let mut sweep = Sweep { gpu: &gpu, seed, precisions: o.precisions.clone(), f32_kernel: o.f32_kernel, torch, rows: Vec::new(), csv };
    let mut stopped = false;
    for (idx, &shape) in shapes.iter().enumerate() {
        if !sweep.run_shape(idx, shape) {
            stopped = true;
            break;
        }
    }
    let rows = sweep.rows;
    print_summary(&rows, &o.precisions, &o.groups, have_torch);
    let expected = shapes.len() * o.precisions.len();
    let bad = rows.iter().filter(|r| !r.ok()).count() + (expected - rows.len());
    println!("CSV: {}", o.csv);
    if stopped {
        println!("STOPPED after {} of {expected} cases (GPU context unusable)", rows.len());
    }
    if bad > 0 {
        println!("RESULT: {bad} of {expected} cases failed the check, errored or did not run: exit status 1");
        ExitCode::FAILURE
    } else {
        println!("RESULT: all {expected} cases passed the check");
        ExitCode::SUCCESS
    }
}

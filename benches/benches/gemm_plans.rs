//! Every plan of the GEMM cost model, timed: for each shape and layout, every tile kernel the
//! `Auto` rule of a precision chooses among, at every split count it may use, plus `Auto`
//! itself. This is the data the constants of `host::ops::matmul::plan` are fitted to (see
//! docs/gemm-sweep.md): the model's pick can be compared with the fastest plan measured.
//!
//! Each plan's output is compared with the first plan's (the same inputs; a difference above
//! 1e-2 of the largest output is reported as `mismatch`, the run goes on), then timed with
//! `benches::graph_timing::measure_with` (graph replays of about 0.3 ms, median).
//!
//! ```text
//! gemm_plans [--precisions f32,tf32,bf16] [--layouts nn,nt,tn,tt] [--shapes MxNxK,...]
//!            [--plans NAME,...] [--profile N] [--slim-max N]
//! ```
//! prints CSV: precision, layout, m, n, k, plan, splits, ms, tflops, note. `--plans` keeps the
//! plans whose kernel name is listed (`Auto`, `Wgmma64x64`, `Wgmma+aligned`: BF16 operands off
//! the 32-byte sectors copied into aligned rows first, `Wgmma64x128+mc`: tiles in multicast
//! pairs, `Wgmma64x128+mc2x2`: in clusters of 2 × 2 tiles, …). `--profile N` runs each plan N times after its check instead of timing it: a
//! short, fixed list of launches for a profiler (Nsight Compute) to attribute. `--slim-max N`
//! times the 64×32 tiles where their 32-wide side covers up to N rows or columns (default
//! `SLIM_MAX_COLUMNS`, where `Auto` weighs them).

use std::process::ExitCode;

use benches::graph_timing::measure_with;
use benches::metrics::random_f32;
use benches::torch_times::layout_transposes;
use host::buffer_bf16::DeviceMatrixBf16;
use host::ops::matmul::plan::{F32_TILES, SPLIT_CHOICES, TileModel, rows_off_sectors};
use host::ops::matmul::{
    Bf16Kernel, Bf16Plan, Epilogue, GemmKernel, GemmPlan, Multicast, Transpose, gemm, gemm_bf16_with, gemm_bf16_with_plan, gemm_with_plan,
};
use host::{DeviceMatrix, Gpu, Result};

/// Longest k for which the BF16 short-k tensor-core tile (`Bf16Kernel::ShortKMma`) is among the
/// plans timed: it runs any k, one 64-deep chunk after another, built for a few.
const SHORTK_MMA_PLAN_MAX_K: usize = 256;

/// The default shapes (m, n, k): squares, the MLP's layers at a few batches, skinny and tall
/// products, and odd sizes.
const SHAPES: [(usize, usize, usize); 30] = [
    (128, 128, 128),
    (256, 256, 256),
    (384, 384, 384),
    (512, 512, 512),
    (768, 768, 768),
    (1000, 1000, 1000),
    (1024, 1024, 1024),
    (1536, 1536, 1536),
    (2048, 2048, 2048),
    (3000, 3000, 3000),
    (4096, 4096, 4096),
    (64, 1024, 784),
    (256, 1024, 784),
    (256, 1024, 1024),
    (256, 784, 1024),
    (1024, 784, 256),
    (1024, 1024, 256),
    (1024, 1024, 1024),
    (4096, 1024, 1024),
    (1024, 4096, 4096),
    (10, 1024, 4096),
    (1024, 784, 4096),
    (64, 64, 16384),
    (64, 4096, 4096),
    (4096, 64, 1024),
    (4096, 4096, 16),
    (8192, 8192, 64),
    (777, 555, 333),
    (33, 2000, 5000),
    (1000, 3000, 700),
];

#[derive(Clone, Copy, PartialEq)]
enum Plan {
    F32(GemmPlan),
    Bf16(Bf16Plan),
    Auto,
}

fn candidates(precision: &str, (ta, tb): (bool, bool), (m, n, k): (usize, usize, usize), slim_max: usize) -> Vec<Plan> {
    let mut out = vec![Plan::Auto];
    // Every split count `model` allows for an m×n product over `kk` (k, or the FP32-on-TF32
    // kernels' three segments).
    let mut add = |model: Option<TileModel>, kk: usize, mk: &dyn Fn(u32) -> Plan| {
        for s in SPLIT_CHOICES {
            if model.is_some_and(|md| md.accepts(m, n, kk, s)) {
                out.push(mk(s));
            }
        }
    };
    match precision {
        "f32" => {
            for kernel in F32_TILES {
                add(TileModel::of(kernel), k, &|splits| Plan::F32(GemmPlan { kernel, splits }));
            }
            // FP32 on TF32 tensor cores: the TF32 models over the three segments' k.
            for kernel in [GemmKernel::Tf32x3Wgmma, GemmKernel::Tf32x3Wgmma128x128] {
                add(TileModel::of(kernel), host::ops::matmul::x3_k(k).1, &|splits| Plan::F32(GemmPlan { kernel, splits }));
            }
            // The same with the operands split in the kernel: its model over k itself.
            let kernel = GemmKernel::Tf32x3Split;
            add(TileModel::of(kernel), k, &|splits| Plan::F32(GemmPlan { kernel, splits }));
            // The skinny kernel `Auto` also runs (timed so its rule can be checked against the
            // tiles; not fitted); the launch-bound one is added below.
            if n <= 16 && !ta {
                add(TileModel::of(GemmKernel::RowDot), k, &|splits| Plan::F32(GemmPlan { kernel: GemmKernel::RowDot, splits }));
            }
            // The few-rows column kernel (n-contiguous op(B)), likewise timed beside the tiles.
            if m <= kernels::matmul::COLDOT_MAX_ROWS && !tb {
                add(TileModel::of(GemmKernel::ColDot), k, &|splits| Plan::F32(GemmPlan { kernel: GemmKernel::ColDot, splits }));
            }
        }
        "tf32" => {
            for kernel in [
                GemmKernel::Tf32Wgmma,
                GemmKernel::Tf32Wgmma128x208,
                GemmKernel::Tf32Wgmma64x128,
                GemmKernel::Tf32Wgmma64x64,
                GemmKernel::Tf32WgmmaRegA,
                GemmKernel::Tf32WgmmaRegAWide,
                GemmKernel::Tf32,
                GemmKernel::Tf32Tile64,
            ] {
                add(TileModel::of(kernel), k, &|splits| Plan::F32(GemmPlan { kernel, splits }));
            }
            // The `cp.async`-fed tiles, over m×n or over n×m (as Cᵀ): the splits either accepts
            // (the other's are refused when run, an error row).
            for kernel in [GemmKernel::Tf32WgmmaCp, GemmKernel::Tf32WgmmaCp64] {
                let model = TileModel::of(kernel);
                for s in SPLIT_CHOICES {
                    if model.is_some_and(|md| md.accepts(m, n, k, s) || md.accepts(n, m, k, s)) {
                        out.push(Plan::F32(GemmPlan { kernel, splits: s }));
                    }
                }
            }
        }
        _ => {
            for kernel in [
                Bf16Kernel::Wgmma,
                Bf16Kernel::Wgmma128x208,
                Bf16Kernel::Wgmma128x192,
                Bf16Kernel::Wgmma64x128,
                Bf16Kernel::Wgmma64x64,
                Bf16Kernel::MmaLdmatrix,
                Bf16Kernel::MmaTile64,
            ] {
                add(TileModel::of_bf16(kernel), k, &|splits| Plan::Bf16(Bf16Plan::new(kernel, splits)));
            }
            // The swapped kernels and the 64×32 tiles (where their 32-wide side is at most
            // `SLIM_MAX_COLUMNS`): split counts over each one's own tile space.
            for kernel in [Bf16Kernel::WgmmaSwapped, Bf16Kernel::Wgmma64x32, Bf16Kernel::Wgmma64x32Swapped] {
                let (sm, sn) = kernel.tile_space(m, n);
                if kernel != Bf16Kernel::WgmmaSwapped && sn > slim_max {
                    continue;
                }
                let model = TileModel::of_bf16(kernel);
                for s in SPLIT_CHOICES {
                    if model.is_some_and(|md| md.accepts(sm, sn, k, s)) {
                        out.push(Plan::Bf16(Bf16Plan::new(kernel, s)));
                    }
                }
            }
        }
    }
    // The `wgmma` plans again with operands off the 32-byte sectors copied into aligned rows
    // first (where some operand is: its packed rows of bf16 are).
    let (a_cols, b_cols) = (if ta { m } else { k }, if tb { k } else { n });
    if precision == "bf16" && (rows_off_sectors(2 * a_cols) || rows_off_sectors(2 * b_cols)) {
        let aligned: Vec<Plan> = out
            .iter()
            .filter_map(|p| match p {
                Plan::Bf16(b) if b.kernel.is_wgmma() => Some(Plan::Bf16(Bf16Plan { align_rows: true, ..*b })),
                _ => None,
            })
            .collect();
        out.extend(aligned);
    }
    // The `wgmma` plans again in multicast clusters of every shape that fits (pairs only where
    // the tile rows pair up, as `Auto` runs them).
    if precision == "bf16" {
        let shapes = [(2, 1), (2, 2)];
        let clustered: Vec<Plan> = out
            .iter()
            .filter_map(|p| match p {
                Plan::Bf16(b) if !b.align_rows => Some(*b),
                _ => None,
            })
            .flat_map(|b| shapes.map(|(along_m, along_n)| Bf16Plan { multicast: Multicast { along_m, along_n }, ..b }))
            .filter(|b| {
                b.multicast_fits() && (b.multicast != Multicast::PAIRS || TileModel::of_bf16(b.kernel).is_some_and(|md| m.div_ceil(md.bm).is_multiple_of(2)))
            })
            .map(Plan::Bf16)
            .collect();
        out.extend(clustered);
    }
    narrow(&mut out, precision, m, n, k);
    if k <= kernels::matmul::SHORTK_MAX {
        out.push(if precision == "bf16" {
            Plan::Bf16(Bf16Plan::new(Bf16Kernel::ShortK, 1))
        } else {
            Plan::F32(GemmPlan { kernel: GemmKernel::ShortK, splits: 1 })
        });
    }
    if precision == "bf16" && k <= SHORTK_MMA_PLAN_MAX_K {
        out.push(Plan::Bf16(Bf16Plan::new(Bf16Kernel::ShortKMma, 1)));
    }
    if precision == "f32" {
        out.push(Plan::F32(GemmPlan { kernel: GemmKernel::SmemTiled, splits: 1 }));
    }
    out
}

/// The warp-per-column kernel (at most 4 rows or columns) and the narrow kernels (at most 16),
/// the latter in both forms, at every split count their
/// model allows over (narrow side, big side).
fn narrow(out: &mut Vec<Plan>, precision: &str, m: usize, n: usize, k: usize) {
    let (small, big) = kernels::matmul::narrow_sides(m, n);
    if small > kernels::matmul::NARROW_MAX {
        return;
    }
    // The warp-per-column kernel (on Cᵀ for a few columns).
    if small <= host::ops::matmul::WARPDOT_MAX_ROWS {
        out.push(if precision == "bf16" {
            Plan::Bf16(Bf16Plan::new(Bf16Kernel::WarpDot, 1))
        } else {
            Plan::F32(GemmPlan { kernel: GemmKernel::WarpDot, splits: 1 })
        });
    }
    for (f, b) in [(GemmKernel::NarrowMn, Bf16Kernel::NarrowMn), (GemmKernel::NarrowK, Bf16Kernel::NarrowK)] {
        for s in SPLIT_CHOICES {
            if TileModel::of(f).is_some_and(|md| md.accepts(small, big, k, s)) {
                out.push(if precision == "bf16" { Plan::Bf16(Bf16Plan::new(b, s)) } else { Plan::F32(GemmPlan { kernel: f, splits: s }) });
            }
        }
    }
}

fn name(p: Plan) -> String {
    match p {
        Plan::F32(g) => format!("{:?},{}", g.kernel, g.splits),
        Plan::Bf16(b) => format!("{},{}", b.label(), b.splits),
        Plan::Auto => "Auto,0".into(),
    }
}

fn parse_list(v: &str) -> Vec<String> {
    v.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect()
}

fn main() -> ExitCode {
    let mut precisions = parse_list("f32,tf32,bf16");
    let mut layouts = parse_list("nn,nt,tn");
    let mut shapes: Vec<(usize, usize, usize)> = SHAPES.to_vec();
    let mut opts = Options { slim_max: host::ops::matmul::plan::SLIM_MAX_COLUMNS, ..Options::default() };
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    for pair in args.chunks(2) {
        let (flag, value) = (pair[0].as_str(), pair.get(1).map(String::as_str).unwrap_or(""));
        match flag {
            "--precisions" => precisions = parse_list(value),
            "--plans" => opts.plans = Some(parse_list(value)),
            "--profile" => match value.parse() {
                Ok(n) => opts.profile = Some(n),
                Err(_) => {
                    eprintln!("--profile wants a count; got {value:?}");
                    return ExitCode::FAILURE;
                }
            },
            "--slim-max" => match value.parse() {
                Ok(n) => opts.slim_max = n,
                Err(_) => {
                    eprintln!("--slim-max wants a count; got {value:?}");
                    return ExitCode::FAILURE;
                }
            },
            "--layouts" => layouts = parse_list(value),
            "--shapes" => {
                let parsed: Option<Vec<_>> = value
                    .split(',')
                    .map(|s| {
                        let d: Vec<usize> = s.split('x').filter_map(|x| x.parse().ok()).collect();
                        (d.len() == 3).then(|| (d[0], d[1], d[2]))
                    })
                    .collect();
                let Some(p) = parsed else {
                    eprintln!("--shapes wants MxNxK,...; got {value:?}");
                    return ExitCode::FAILURE;
                };
                shapes = p;
            }
            _ => {
                eprintln!(
                    "usage: gemm_plans [--precisions f32,tf32,bf16] [--layouts nn,nt,tn,tt] [--shapes MxNxK,...] [--plans NAME,...] [--profile N] [--slim-max N]"
                );
                return ExitCode::FAILURE;
            }
        }
    }
    match run(&precisions, &layouts, &shapes, &opts) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(mismatches) => {
            eprintln!("{mismatches} plans disagreed with the first plan of their shape");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("gemm_plans: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Which plans run, and whether they are timed or only launched for a profiler.
#[derive(Default)]
struct Options {
    plans: Option<Vec<String>>,
    profile: Option<usize>,
    /// Widest 32-wide side (n, or m swapped) at which the 64×32 tiles are timed.
    slim_max: usize,
}

impl Options {
    fn keeps(&self, plan: Plan) -> bool {
        let name = name(plan);
        let kernel = name.split(',').next().unwrap_or("");
        self.plans.as_ref().is_none_or(|list| list.iter().any(|p| p == kernel))
    }
}

fn run(precisions: &[String], layouts: &[String], shapes: &[(usize, usize, usize)], opts: &Options) -> Result<usize> {
    let gpu = Gpu::new()?;
    eprintln!("{:?}", gpu.info());
    println!("precision,layout,m,n,k,plan,splits,ms,tflops,note");
    let mut mismatches = 0;
    for (i, &(m, n, k)) in shapes.iter().enumerate() {
        for layout in layouts {
            let (ta, tb) = layout_transposes(layout);
            let (ar, ac) = if ta == Transpose::Yes { (k, m) } else { (m, k) };
            let (br, bc) = if tb == Transpose::Yes { (n, k) } else { (k, n) };
            let ha = random_f32(7 + i as u64, ar * ac, -1.0, 1.0);
            let hb = random_f32(1007 + i as u64, br * bc, -1.0, 1.0);
            let a = DeviceMatrix::from_host(&gpu, ar, ac, &ha)?;
            let b = DeviceMatrix::from_host(&gpu, br, bc, &hb)?;
            let a16 = DeviceMatrixBf16::from_f32(&gpu, ar, ac, &ha)?;
            let b16 = DeviceMatrixBf16::from_f32(&gpu, br, bc, &hb)?;
            let mut c = DeviceMatrix::zeros(&gpu, m, n)?;
            for precision in precisions {
                let mut reference: Option<Vec<f32>> = None;
                for plan in candidates(precision, (ta == Transpose::Yes, tb == Transpose::Yes), (m, n, k), opts.slim_max).into_iter().filter(|&p| opts.keeps(p))
                {
                    let op = |c: &mut DeviceMatrix| -> Result<()> {
                        let e = Epilogue::default();
                        match (plan, precision.as_str()) {
                            (Plan::F32(p), _) => gemm_with_plan(&gpu, &a, ta, &b, tb, e, c, p),
                            (Plan::Bf16(p), _) => gemm_bf16_with_plan(&gpu, &a16, ta, &b16, tb, e, c, p),
                            (Plan::Auto, "f32") => gemm(&gpu, &a, ta, &b, tb, e, c, GemmKernel::Auto),
                            (Plan::Auto, "tf32") => gemm(&gpu, &a, ta, &b, tb, e, c, GemmKernel::Tf32Auto),
                            (Plan::Auto, _) => gemm_bf16_with(&gpu, &a16, ta, &b16, tb, e, c, Bf16Kernel::Auto),
                        }
                    };
                    let row = format!("{precision},{layout},{m},{n},{k},{}", name(plan));
                    let checked = (|| -> Result<Vec<f32>> {
                        c.fill(&gpu, f32::NAN)?;
                        op(&mut c)?;
                        c.to_host(&gpu)
                    })();
                    let out = match checked {
                        Ok(out) => out,
                        Err(e) => {
                            println!("{row},,,error: {}", e.to_string().replace(',', ";"));
                            continue;
                        }
                    };
                    let mut note = String::new();
                    match &reference {
                        None => reference = Some(out),
                        Some(r) => {
                            let scale = r.iter().fold(1e-6f32, |s, x| s.max(x.abs()));
                            let worst = r.iter().zip(&out).map(|(x, y)| if y.is_finite() { (x - y).abs() } else { f32::INFINITY }).fold(0.0f32, f32::max);
                            if worst > 1e-2 * scale {
                                note = format!("mismatch {:.1e}", worst / scale);
                                mismatches += 1;
                            }
                        }
                    }
                    if let Some(times) = opts.profile {
                        let launched = (0..times).try_for_each(|_| op(&mut c)).and_then(|()| gpu.synchronize());
                        match launched {
                            Ok(()) => println!("{row},,,profiled {times}x{note}"),
                            Err(e) => println!("{row},,,error: {}", e.to_string().replace(',', ";")),
                        }
                        continue;
                    }
                    match measure_with(&gpu, &mut || op(&mut c), &row, (0.3, 20.0, 5)) {
                        Ok(t) => {
                            let tflops = 2.0 * (m * n * k) as f64 / (t.ms * 1e-3) / 1e12;
                            println!("{row},{:.6},{tflops:.2},{note}", t.ms);
                        }
                        Err(e) => println!("{row},,,timing error: {}", e.to_string().replace(',', ";")),
                    }
                }
            }
        }
    }
    Ok(mismatches)
}

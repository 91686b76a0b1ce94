//! CPU-vs-GPU report for every op: a Markdown table per op and a log-log chart of time against
//! size, with the GPU's own ceilings measured in the same run.
//!
//!     bench_report --out DIR [--torch anchor.csv] [--ops vec_add,sigmoid,...]
//!
//! Writes `DIR/report.md` and `DIR/<op>.png` (vec_add, sigmoid, mat_add, matmul, dense). Each
//! GPU result is checked against the CPU before it is timed. Times are medians: CPU series with
//! the host clock, GPU kernels with CUDA events, "GPU + copies" with the host clock around
//! upload, kernel and download. `--torch` reads the PyTorch anchor's lines
//! (`op,shape,dtype,median_ms,metric`) and adds a "vs PyTorch" column. `--ops` runs only the
//! ops named (all five by default).
//!
//! Runs as a prebuilt binary (the PTX and the chart font are embedded).

mod chart;
mod elementwise;
mod products;
mod table;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use benches::anchor::{AnchorRow, parse_anchor_csv};
use benches::metrics::{gb_per_s, relative_error, tflop_per_s};
use benches::timing::{Repeat, Stats, copy_bandwidth_gbs, time_cpu_ms, time_end_to_end_ms, time_kernel_ms};
use cust::device::{Device, DeviceAttribute};
use host::{Error, Gpu};

use chart::chart;
use elementwise::{mat_add, sigmoid, vec_add};
use products::{dense, matmul};
use table::{cpu_model, findings, write_table};

const CPU: Repeat = Repeat::new(1, 3, 100, 0.4);
const KERNEL: Repeat = Repeat::new(3, 10, 200, 0.2);
const END_TO_END: Repeat = Repeat::new(2, 5, 100, 0.4);

type Res<T> = Result<T, String>;

fn main() {
    if let Err(e) = run() {
        eprintln!("bench_report: {e}");
        std::process::exit(1);
    }
}

struct Args {
    out: PathBuf,
    torch: Option<PathBuf>,
    /// Only these ops (None: all).
    ops: Option<Vec<String>>,
}

fn parse_args() -> Res<Args> {
    let usage = "usage: bench_report --out DIR [--torch anchor.csv] [--ops vec_add,sigmoid,mat_add,matmul,dense]";
    let mut out = None;
    let mut torch = None;
    let mut ops = None;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(it.next().ok_or(usage)?)),
            "--torch" => torch = Some(PathBuf::from(it.next().ok_or(usage)?)),
            "--ops" => ops = Some(it.next().ok_or(usage)?.split(',').map(str::to_string).collect()),
            "-h" | "--help" => {
                println!("{usage}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument `{other}`; {usage}")),
        }
    }
    Ok(Args { out: out.ok_or(usage)?, torch, ops })
}

/// What one row's work is, for its throughput.
#[derive(Clone, Copy)]
enum Work {
    Bytes(u64),
    Flops(u64),
}

/// One size of one op: medians per series (ms), the verification error, the PyTorch anchor.
struct Row {
    label: String,
    x: f64,
    work: Work,
    times: BTreeMap<&'static str, f64>,
    /// The fastest GPU kernel's series name at this size.
    best_kernel: &'static str,
    /// Which kernel that is, where the series stands for several (matmul's fastest f32 kernel).
    best_name: Option<&'static str>,
    max_error: f64,
    torch: Option<AnchorRow>,
    in_l2: bool,
}

/// A series of an op: its table header and how it is drawn.
struct Series {
    key: &'static str,
    header: &'static str,
    gpu: bool,
}

struct OpReport {
    key: &'static str,
    title: &'static str,
    x_label: &'static str,
    series: Vec<Series>,
    rows: Vec<Row>,
    /// Kernels timed at every size besides those in `series` (key, name): matmul's GEMM ladder.
    ladder: Vec<(&'static str, &'static str)>,
    /// Base of the x axis's logarithmic ticks (2 for power-of-two matrix sizes).
    x_base: f64,
    notes: Vec<String>,
}

struct Ctx {
    gpu: Gpu,
    anchor: Vec<AnchorRow>,
    copy_gbs: f64,
    l2_bytes: u64,
}

fn run() -> Res<()> {
    let args = parse_args()?;
    benches::png_chart::register_font()?;
    std::fs::create_dir_all(&args.out).map_err(|e| format!("creating {}: {e}", args.out.display()))?;
    let anchor = match &args.torch {
        Some(p) => parse_anchor_csv(&std::fs::read_to_string(p).map_err(|e| format!("reading {}: {e}", p.display()))?),
        None => Vec::new(),
    };
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(Error::NoDevice) => {
            return Err(format!("{}: the report compares CPU and GPU and needs one", Error::NoDevice));
        }
        Err(e) => return Err(e.to_string()),
    };
    let info = gpu.info().clone();
    eprintln!("GPU {} ({} SMs, PTX {}); {} CPU threads", info.name, info.multiprocessors, gpu.ptx_arch(), rayon::current_num_threads());
    let l2_bytes = Device::get_device(info.ordinal)
        .and_then(|d| d.get_attribute(DeviceAttribute::L2CacheSize))
        .map_err(|e| format!("cuDeviceGetAttribute(L2_CACHE_SIZE): {e}"))? as u64;
    let copy_bytes = (1usize << 30).min(info.total_memory / 8);
    let (copy_gbs, copy_stats) = copy_bandwidth_gbs(&gpu, copy_bytes, 50).map_err(|e| e.to_string())?;
    eprintln!("device-to-device copy of {} MiB: {copy_gbs:.0} GB/s (read + write)", copy_bytes >> 20);
    let ctx = Ctx { gpu, anchor, copy_gbs, l2_bytes };

    let mut ops = Vec::new();
    for (name, f) in [("vec_add", vec_add as fn(&Ctx) -> Res<OpReport>), ("sigmoid", sigmoid), ("mat_add", mat_add), ("matmul", matmul), ("dense", dense)] {
        if args.ops.as_ref().is_some_and(|o| !o.iter().any(|x| x == name)) {
            continue;
        }
        eprintln!("== {name}");
        ops.push(f(&ctx)?);
    }
    // The FLOP/s ceiling: the best f32 product measured here (ours, or cuBLAS through the anchor).
    let ours = ops.iter().filter(|o| o.key == "matmul").flat_map(|o| &o.rows).map(|r| rate(r, r.times[r.best_kernel])).fold(0.0, f64::max);
    let cublas = ctx.anchor.iter().filter(|r| r.op == "matmul" && r.dtype == "f32").map(|r| r.metric).fold(0.0, f64::max);
    let flops_ceiling = ours.max(cublas);

    let mut md = String::new();
    let cpu_name = cpu_model();
    let _ = writeln!(md, "# CPU vs GPU: {}\n", info.name);
    let _ = writeln!(
        md,
        "GPU: {} (compute capability {}.{}, {} SMs, {:.0} GiB, L2 {} MiB), PTX {}. CPU: {} ({} threads for the threaded series).\n",
        info.name,
        info.compute_capability.0,
        info.compute_capability.1,
        info.multiprocessors,
        info.total_memory as f64 / (1u64 << 30) as f64,
        ctx.l2_bytes >> 20,
        ctx.gpu.ptx_arch(),
        cpu_name,
        rayon::current_num_threads()
    );
    let _ = writeln!(md, "Ceilings measured in this run:\n");
    let _ = writeln!(
        md,
        "- memory bandwidth: device-to-device copy of {} MiB, **{:.0} GB/s** counting bytes read + written (median of {}, {:.3}–{:.3} ms);",
        copy_bytes >> 20,
        copy_gbs,
        copy_stats.samples,
        copy_stats.min_ms,
        copy_stats.max_ms
    );
    let cublas_note = if cublas > 0.0 { format!(", PyTorch/cuBLAS f32 (TF32 off) {cublas:.1} TFLOP/s") } else { String::new() };
    if ours > 0.0 {
        let _ = writeln!(
            md,
            "- f32 matmul: best of our kernels **{ours:.1} TFLOP/s**{cublas_note}; fractions of FLOP/s below are of {flops_ceiling:.1} TFLOP/s.\n"
        );
    } else {
        let _ = writeln!(md, "- f32 matmul: not run (`--ops`){cublas_note}.\n");
    }
    let _ = writeln!(
        md,
        "How to read the tables: times are medians; **GPU kernel** is CUDA-event time of the launch alone (inputs already on the device), \
         **GPU + copies** is the host clock around upload of the inputs, the kernel and download of the output (pageable host memory, \
         buffers allocated beforehand). Speedups are CPU time ÷ GPU time (below 1: the GPU is slower). Throughput is of the fastest GPU kernel: \
         elementwise ops count each input read once and each output written once (GB/s); products count 2·m·n·k FLOP. \
         A † marks sizes whose working set fits in the {} MiB L2 cache, where GB/s can exceed DRAM bandwidth and launch latency dominates. \
         Every GPU result was checked against the CPU first (relative L2 error column). `vs PyTorch` is our kernel time ÷ PyTorch's for the same op \
         and size from the anchor run on the same machine (above 1: PyTorch is faster).\n",
        ctx.l2_bytes >> 20
    );
    let _ = writeln!(md, "## Findings\n\n{}\n", findings(&ops));
    for op in &ops {
        write_table(&mut md, op, &ctx, flops_ceiling);
        let png = format!("{}.png", op.key);
        chart(&args.out.join(&png), op, &info.name, &cpu_name)?;
        let _ = writeln!(md, "![{}]({png})\n", op.title);
    }
    let path = args.out.join("report.md");
    std::fs::write(&path, md).map_err(|e| format!("writing {}: {e}", path.display()))?;
    eprintln!("wrote {} and {} charts", path.display(), ops.len());
    Ok(())
}

/// Rate of a row's work at `ms`: GB/s or TFLOP/s.
fn rate(row: &Row, ms: f64) -> f64 {
    match row.work {
        Work::Bytes(b) => gb_per_s(b as f64, ms),
        Work::Flops(f) => tflop_per_s(f as f64, ms),
    }
}

fn g<T>(r: host::Result<T>) -> Res<T> {
    r.map_err(|e| e.to_string())
}

fn median_cpu(f: impl FnMut()) -> f64 {
    Stats::from_sorted(&time_cpu_ms(CPU, f)).median_ms
}

fn median_kernel(gpu: &Gpu, f: impl FnMut() -> host::Result<()>) -> Res<f64> {
    Ok(Stats::from_sorted(&g(time_kernel_ms(gpu, KERNEL, f))?).median_ms)
}

fn median_e2e(gpu: &Gpu, f: impl FnMut() -> host::Result<()>) -> Res<f64> {
    Ok(Stats::from_sorted(&g(time_end_to_end_ms(gpu, END_TO_END, f))?).median_ms)
}

/// Checks a GPU output (downloaded) against the CPU's; returns the relative error.
fn check(what: &str, got: &[f32], want: &[f32], tol: f64) -> Res<f64> {
    let err = relative_error(got, want);
    if err > tol {
        return Err(format!("{what}: GPU result differs from the CPU (relative error {err:.3e} > {tol:.1e}); nothing timed"));
    }
    Ok(err)
}

/// The fastest of the GPU kernel series in `times` among `keys`.
fn fastest(times: &BTreeMap<&'static str, f64>, keys: &[&'static str]) -> &'static str {
    keys.iter().copied().filter(|k| times.contains_key(k)).min_by(|a, b| times[a].total_cmp(&times[b])).unwrap_or(keys[0])
}

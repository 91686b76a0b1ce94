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

#[path = "../../benches/src/cpu.rs"]
mod cpu;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cust::device::{Device, DeviceAttribute};
use host::bench::{
    AnchorRow, Repeat, Stats, context_synchronize, copy_bandwidth_gbs, download_into,
    elementwise_bytes, find_anchor, gb_per_s, matmul_flops, parse_anchor_csv, random_f32,
    relative_error, tflop_per_s, time_cpu_ms, time_end_to_end_ms, time_kernel_ms,
};
use host::ops::activation::{SigmoidKernel, sigmoid_into};
use host::ops::dense::dense_into;
use host::ops::elementwise::{MatAddKernel, VecAddKernel, mat_add_into_with, vec_add_into};
use host::ops::matmul::{Epilogue, GemmKernel, MatmulKernel, Transpose, gemm, matmul_into};
use host::{Activation, DeviceMatrix, DeviceVector, Error, Gpu};

/// DejaVu Sans (Bitstream Vera license, see benches/assets/DejaVuSans-LICENSE), embedded so the
/// charts need no system fonts.
static FONT: &[u8] = include_bytes!("../../benches/assets/DejaVuSans.ttf");

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
    Ok(Args {
        out: out.ok_or(usage)?,
        torch,
        ops,
    })
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
    plotters::style::register_font("sans-serif", plotters::style::FontStyle::Normal, FONT)
        .map_err(|_| "embedded font is invalid")?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("creating {}: {e}", args.out.display()))?;
    let anchor = match &args.torch {
        Some(p) => parse_anchor_csv(
            &std::fs::read_to_string(p).map_err(|e| format!("reading {}: {e}", p.display()))?,
        ),
        None => Vec::new(),
    };
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(Error::NoDevice) => {
            return Err(format!(
                "{}: the report compares CPU and GPU and needs one",
                Error::NoDevice
            ));
        }
        Err(e) => return Err(e.to_string()),
    };
    let info = gpu.info().clone();
    eprintln!(
        "GPU {} ({} SMs, PTX {}); {} CPU threads",
        info.name,
        info.multiprocessors,
        gpu.ptx_arch(),
        rayon::current_num_threads()
    );
    let l2_bytes = Device::get_device(info.ordinal)
        .and_then(|d| d.get_attribute(DeviceAttribute::L2CacheSize))
        .map_err(|e| format!("cuDeviceGetAttribute(L2_CACHE_SIZE): {e}"))?
        as u64;
    let copy_bytes = (1usize << 30).min(info.total_memory / 8);
    let (copy_gbs, copy_stats) =
        copy_bandwidth_gbs(&gpu, copy_bytes, 50).map_err(|e| e.to_string())?;
    eprintln!(
        "device-to-device copy of {} MiB: {copy_gbs:.0} GB/s (read + write)",
        copy_bytes >> 20
    );
    let ctx = Ctx {
        gpu,
        anchor,
        copy_gbs,
        l2_bytes,
    };

    let mut ops = Vec::new();
    for (name, f) in [
        ("vec_add", vec_add as fn(&Ctx) -> Res<OpReport>),
        ("sigmoid", sigmoid),
        ("mat_add", mat_add),
        ("matmul", matmul),
        ("dense", dense),
    ] {
        if args.ops.as_ref().is_some_and(|o| !o.iter().any(|x| x == name)) {
            continue;
        }
        eprintln!("== {name}");
        ops.push(f(&ctx)?);
    }
    // The FLOP/s ceiling: the best f32 product measured here (ours, or cuBLAS through the anchor).
    let ours = ops
        .iter()
        .filter(|o| o.key == "matmul")
        .flat_map(|o| &o.rows)
        .map(|r| rate(r, r.times[r.best_kernel]))
        .fold(0.0, f64::max);
    let cublas = ctx
        .anchor
        .iter()
        .filter(|r| r.op == "matmul" && r.dtype == "f32")
        .map(|r| r.metric)
        .fold(0.0, f64::max);
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
        return Err(format!(
            "{what}: GPU result differs from the CPU (relative error {err:.3e} > {tol:.1e}); nothing timed"
        ));
    }
    Ok(err)
}

/// The fastest of the GPU kernel series in `times` among `keys`.
fn fastest(times: &BTreeMap<&'static str, f64>, keys: &[&'static str]) -> &'static str {
    keys.iter()
        .copied()
        .filter(|k| times.contains_key(k))
        .min_by(|a, b| times[a].total_cmp(&times[b]))
        .unwrap_or(keys[0])
}

fn vector_sizes() -> Vec<usize> {
    (10..=28).step_by(2).map(|p| 1usize << p).collect()
}

fn vec_add(ctx: &Ctx) -> Res<OpReport> {
    let gpu = &ctx.gpu;
    let mut rows = Vec::new();
    for n in vector_sizes() {
        let (a, b) = (
            random_f32(n as u64, n, -1.0, 1.0),
            random_f32(n as u64 + 1, n, -1.0, 1.0),
        );
        let mut out = vec![f32::NAN; n];
        let mut times = BTreeMap::new();
        times.insert(
            "cpu_loop",
            median_cpu(|| cpu::vec_add_loop(&a, &b, &mut out)),
        );
        let want = out.clone();
        times.insert("cpu_par", median_cpu(|| cpu::vec_add_par(&a, &b, &mut out)));
        let mut da = g(DeviceVector::from_host(gpu, &a))?;
        let mut db = g(DeviceVector::from_host(gpu, &b))?;
        let mut dc = g(DeviceVector::filled(gpu, n, f32::NAN))?;
        let mut max_error = 0.0f64;
        for (key, kernel) in [
            ("gpu_naive", VecAddKernel::Naive),
            ("gpu_vec4", VecAddKernel::Vectorized),
        ] {
            g(dc.fill(gpu, f32::NAN))?;
            g(vec_add_into(gpu, &da, &db, &mut dc, kernel))?;
            max_error = max_error.max(check("vec_add", &g(dc.to_host(gpu))?, &want, 0.0)?);
            times.insert(
                key,
                median_kernel(gpu, || vec_add_into(gpu, &da, &db, &mut dc, kernel))?,
            );
        }
        let best = fastest(&times, &["gpu_naive", "gpu_vec4"]);
        let kernel = if best == "gpu_naive" {
            VecAddKernel::Naive
        } else {
            VecAddKernel::Vectorized
        };
        out.fill(f32::NAN);
        times.insert(
            "gpu_e2e",
            median_e2e(gpu, || {
                da.copy_from_host(gpu, &a)?;
                db.copy_from_host(gpu, &b)?;
                context_synchronize(gpu)?;
                vec_add_into(gpu, &da, &db, &mut dc, kernel)?;
                download_into(gpu, &dc, &mut out)?;
                Ok(())
            })?,
        );
        max_error = max_error.max(check("vec_add (with copies)", &out, &want, 0.0)?);
        // The same copies from and to page-locked host memory, which the copy engines read and
        // write directly (pageable memory is staged through a driver buffer).
        g(gpu.bind())?;
        let lock = |e: cust::error::CudaError| format!("cuMemAllocHost: {e}");
        let pa = cust::memory::LockedBuffer::from_slice(&a).map_err(lock)?;
        let pb = cust::memory::LockedBuffer::from_slice(&b).map_err(lock)?;
        let mut pc = cust::memory::LockedBuffer::new(&f32::NAN, n).map_err(lock)?;
        times.insert(
            "gpu_e2e_pinned",
            median_e2e(gpu, || {
                da.copy_from_host(gpu, &pa)?;
                db.copy_from_host(gpu, &pb)?;
                context_synchronize(gpu)?;
                vec_add_into(gpu, &da, &db, &mut dc, kernel)?;
                download_into(gpu, &dc, &mut pc)?;
                Ok(())
            })?,
        );
        max_error = max_error.max(check("vec_add (pinned copies)", &pc, &want, 0.0)?);
        drop((pa, pb, pc));
        let bytes = elementwise_bytes(n, 2, 1);
        rows.push(Row {
            label: format!("2^{} = {n}", n.trailing_zeros()),
            x: n as f64,
            work: Work::Bytes(bytes),
            best_kernel: best,
            best_name: None,
            max_error,
            torch: find_anchor(&ctx.anchor, "vec_add", &n.to_string(), "f32").cloned(),
            in_l2: bytes <= ctx.l2_bytes,
            times,
        });
        eprintln!("vec_add {n}: {:?}", rows.last().map(|r| &r.times));
    }
    Ok(OpReport {
        key: "vec_add",
        title: "Vector add c = a + b (f32)",
        x_label: "vector length n (f32 elements)",
        series: vec![
            Series { key: "cpu_loop", header: "CPU loop", gpu: false },
            Series { key: "cpu_par", header: "CPU threads (rayon)", gpu: false },
            Series { key: "gpu_naive", header: "GPU kernel, 1 elem/thread", gpu: true },
            Series { key: "gpu_vec4", header: "GPU kernel, float4 ×4 per thread", gpu: true },
            Series { key: "gpu_e2e", header: "GPU + copies", gpu: true },
            Series { key: "gpu_e2e_pinned", header: "GPU + copies, pinned host memory", gpu: true },
        ],
        rows,
        ladder: Vec::new(),
        x_base: 10.0,
        notes: vec![
            "12 bytes per element (two 4-byte reads, one write). \"GPU + copies\" uses ordinary (pageable) host vectors as the article does; \"pinned\" uses page-locked host buffers (cuMemAllocHost) for the same copies.".into(),
        ],
    })
}

fn sigmoid(ctx: &Ctx) -> Res<OpReport> {
    let gpu = &ctx.gpu;
    let mut rows = Vec::new();
    for n in vector_sizes() {
        let x = random_f32(n as u64 + 7, n, -8.0, 8.0);
        let mut out = vec![f32::NAN; n];
        let mut times = BTreeMap::new();
        times.insert("cpu_loop", median_cpu(|| cpu::sigmoid_loop(&x, &mut out)));
        let want = out.clone();
        times.insert("cpu_par", median_cpu(|| cpu::sigmoid_par(&x, &mut out)));
        let mut dx = g(DeviceVector::from_host(gpu, &x))?;
        let mut dy = g(DeviceVector::filled(gpu, n, f32::NAN))?;
        let mut max_error = 0.0f64;
        for (key, kernel) in [
            ("gpu_naive", SigmoidKernel::Naive),
            ("gpu_vec4", SigmoidKernel::Vectorized),
        ] {
            g(dy.fill(gpu, f32::NAN))?;
            g(sigmoid_into(gpu, &dx, &mut dy, kernel))?;
            max_error = max_error.max(check("sigmoid", &g(dy.to_host(gpu))?, &want, 1e-6)?);
            times.insert(
                key,
                median_kernel(gpu, || sigmoid_into(gpu, &dx, &mut dy, kernel))?,
            );
        }
        let best = fastest(&times, &["gpu_naive", "gpu_vec4"]);
        let kernel = if best == "gpu_naive" {
            SigmoidKernel::Naive
        } else {
            SigmoidKernel::Vectorized
        };
        out.fill(f32::NAN);
        times.insert(
            "gpu_e2e",
            median_e2e(gpu, || {
                dx.copy_from_host(gpu, &x)?;
                context_synchronize(gpu)?;
                sigmoid_into(gpu, &dx, &mut dy, kernel)?;
                download_into(gpu, &dy, &mut out)?;
                Ok(())
            })?,
        );
        max_error = max_error.max(check("sigmoid (with copies)", &out, &want, 1e-6)?);
        let bytes = elementwise_bytes(n, 1, 1);
        rows.push(Row {
            label: format!("2^{} = {n}", n.trailing_zeros()),
            x: n as f64,
            work: Work::Bytes(bytes),
            best_kernel: best,
            best_name: None,
            max_error,
            torch: find_anchor(&ctx.anchor, "sigmoid", &n.to_string(), "f32").cloned(),
            in_l2: bytes <= ctx.l2_bytes,
            times,
        });
        eprintln!("sigmoid {n}: {:?}", rows.last().map(|r| &r.times));
    }
    Ok(OpReport {
        key: "sigmoid",
        title: "Sigmoid y = 1/(1+exp(-x)) (f32)",
        x_label: "vector length n (f32 elements)",
        series: vec![
            Series {
                key: "cpu_loop",
                header: "CPU loop",
                gpu: false,
            },
            Series {
                key: "cpu_par",
                header: "CPU threads (rayon)",
                gpu: false,
            },
            Series {
                key: "gpu_naive",
                header: "GPU kernel, 1 elem/thread",
                gpu: true,
            },
            Series {
                key: "gpu_vec4",
                header: "GPU kernel, float4 ×4 per thread",
                gpu: true,
            },
            Series {
                key: "gpu_e2e",
                header: "GPU + copies",
                gpu: true,
            },
        ],
        rows,
        ladder: Vec::new(),
        x_base: 10.0,
        notes: vec!["8 bytes per element (one read, one write).".into()],
    })
}

fn mat_add(ctx: &Ctx) -> Res<OpReport> {
    let gpu = &ctx.gpu;
    let mut rows = Vec::new();
    for n in [64usize, 128, 256, 512, 1024, 2048, 4096, 8192] {
        let (a, b) = (
            random_f32(n as u64 + 11, n * n, -1.0, 1.0),
            random_f32(n as u64 + 12, n * n, -1.0, 1.0),
        );
        let mut out = vec![f32::NAN; n * n];
        let mut times = BTreeMap::new();
        times.insert(
            "cpu_loop",
            median_cpu(|| cpu::mat_add_loop(&a, &b, &mut out, n, n)),
        );
        let want = out.clone();
        times.insert(
            "cpu_par",
            median_cpu(|| cpu::mat_add_par(&a, &b, &mut out, n)),
        );
        let mut da = g(DeviceMatrix::from_host(gpu, n, n, &a))?;
        let mut db = g(DeviceMatrix::from_host(gpu, n, n, &b))?;
        let mut dc = g(DeviceMatrix::filled(gpu, n, n, f32::NAN))?;
        let mut max_error = 0.0f64;
        for (key, kernel) in [("gpu_2d", MatAddKernel::Blocks2d), ("gpu_flat", MatAddKernel::Flat)] {
            g(dc.fill(gpu, f32::NAN))?;
            g(mat_add_into_with(gpu, &da, &db, &mut dc, kernel))?;
            max_error = max_error.max(check("mat_add", &g(dc.to_host(gpu))?, &want, 0.0)?);
            times.insert(key, median_kernel(gpu, || mat_add_into_with(gpu, &da, &db, &mut dc, kernel))?);
        }
        let best = fastest(&times, &["gpu_2d", "gpu_flat"]);
        let kernel = if best == "gpu_2d" { MatAddKernel::Blocks2d } else { MatAddKernel::Flat };
        out.fill(f32::NAN);
        times.insert(
            "gpu_e2e",
            median_e2e(gpu, || {
                da.copy_from_host(gpu, &a)?;
                db.copy_from_host(gpu, &b)?;
                context_synchronize(gpu)?;
                mat_add_into_with(gpu, &da, &db, &mut dc, kernel)?;
                download_into(gpu, dc.as_vector(), &mut out)?;
                Ok(())
            })?,
        );
        max_error = max_error.max(check("mat_add (with copies)", &out, &want, 0.0)?);
        let bytes = elementwise_bytes(n * n, 2, 1);
        rows.push(Row {
            label: format!("{n}×{n}"),
            x: n as f64,
            work: Work::Bytes(bytes),
            best_kernel: best,
            best_name: None,
            max_error,
            torch: find_anchor(&ctx.anchor, "mat_add", &n.to_string(), "f32").cloned(),
            in_l2: bytes <= ctx.l2_bytes,
            times,
        });
        eprintln!("mat_add {n}: {:?}", rows.last().map(|r| &r.times));
    }
    Ok(OpReport {
        key: "mat_add",
        title: "Matrix add C = A + B (N×N f32)",
        x_label: "matrix size N (N×N f32)",
        series: vec![
            Series {
                key: "cpu_loop",
                header: "CPU loop",
                gpu: false,
            },
            Series {
                key: "cpu_par",
                header: "CPU threads (rayon)",
                gpu: false,
            },
            Series {
                key: "gpu_2d",
                header: "GPU kernel (2-D blocks)",
                gpu: true,
            },
            Series {
                key: "gpu_flat",
                header: "GPU kernel, flat float4 ×4 per thread",
                gpu: true,
            },
            Series {
                key: "gpu_e2e",
                header: "GPU + copies",
                gpu: true,
            },
        ],
        rows,
        ladder: Vec::new(),
        x_base: 2.0,
        notes: vec!["12 bytes per element.".into()],
    })
}

/// The GPU products this build has, besides the article's naive kernel: every rung of the GEMM
/// ladder, with whether it rounds inputs below f32 (such kernels are checked at a looser
/// tolerance and shown, but do not count as the f32 result).
fn gemm_variants() -> Vec<(&'static str, &'static str, GemmKernel, bool)> {
    GemmKernel::LADDER
        .iter()
        .map(|&k| {
            let reduced = k.is_reduced_precision();
            let key: &'static str = Box::leak(format!("gemm_{k:?}").into_boxed_str());
            let name: &'static str = Box::leak(
                if reduced {
                    format!("GPU {k:?} (tensor cores, inputs rounded to TF32)")
                } else {
                    format!("{k:?}")
                }
                .into_boxed_str(),
            );
            (key, name, k, reduced)
        })
        .collect()
}

fn matmul(ctx: &Ctx) -> Res<OpReport> {
    let gpu = &ctx.gpu;
    let variants = gemm_variants();
    let mut rows = Vec::new();
    for n in [64usize, 128, 256, 512, 1024, 2048, 4096] {
        let (a, b) = (
            random_f32(n as u64 + 21, n * n, -1.0, 1.0),
            random_f32(n as u64 + 22, n * n, -1.0, 1.0),
        );
        let mut out = vec![f32::NAN; n * n];
        let mut times = BTreeMap::new();
        // The article's triple loop: up to 1024 (about a second per run there; 2048 takes 8×).
        if n <= 1024 {
            times.insert(
                "cpu_loop",
                median_cpu(|| cpu::matmul_loop(&a, &b, &mut out, n, n, n)),
            );
        }
        times.insert(
            "cpu_par",
            median_cpu(|| cpu::matmul_par(&a, &b, &mut out, n, n)),
        );
        let mut na = cpu::NalgebraMatmul::new(&a, &b, n, n, n);
        times.insert("cpu_nalgebra", median_cpu(|| na.run()));
        let want = na.result().to_vec();
        let mut da = g(DeviceMatrix::from_host(gpu, n, n, &a))?;
        let mut db = g(DeviceMatrix::from_host(gpu, n, n, &b))?;
        let mut dc = g(DeviceMatrix::filled(gpu, n, n, f32::NAN))?;
        g(matmul_into(gpu, &da, &db, &mut dc, MatmulKernel::Naive))?;
        let mut max_error = check("matmul naive", &g(dc.to_host(gpu))?, &want, 1e-5)?;
        times.insert(
            "gpu_naive",
            median_kernel(gpu, || {
                matmul_into(gpu, &da, &db, &mut dc, MatmulKernel::Naive)
            })?,
        );
        let mut f32_keys = vec!["gpu_naive"];
        for &(key, _, kernel, reduced) in &variants {
            let run = |da: &DeviceMatrix, db: &DeviceMatrix, dc: &mut DeviceMatrix| {
                gemm(
                    gpu,
                    da,
                    Transpose::No,
                    db,
                    Transpose::No,
                    Epilogue::default(),
                    dc,
                    kernel,
                )
            };
            g(dc.fill(gpu, f32::NAN))?;
            g(run(&da, &db, &mut dc))?;
            let err = check(
                key,
                &g(dc.to_host(gpu))?,
                &want,
                if reduced { 5e-3 } else { 1e-5 },
            )?;
            times.insert(key, median_kernel(gpu, || run(&da, &db, &mut dc))?);
            if !reduced {
                max_error = max_error.max(err);
                f32_keys.push(key);
            }
        }
        let best = fastest(&times, &f32_keys);
        let best_kernel = variants.iter().find(|v| v.0 == best).map(|v| v.2);
        let best_name = variants
            .iter()
            .find(|v| v.0 == best)
            .map_or("naive (article)", |v| v.1);
        times.insert("gpu_best", times[best]);
        out.fill(f32::NAN);
        times.insert(
            "gpu_e2e",
            median_e2e(gpu, || {
                da.copy_from_host(gpu, &a)?;
                db.copy_from_host(gpu, &b)?;
                context_synchronize(gpu)?;
                match best_kernel {
                    Some(k) => gemm(
                        gpu,
                        &da,
                        Transpose::No,
                        &db,
                        Transpose::No,
                        Epilogue::default(),
                        &mut dc,
                        k,
                    )?,
                    None => matmul_into(gpu, &da, &db, &mut dc, MatmulKernel::Naive)?,
                }
                download_into(gpu, dc.as_vector(), &mut out)?;
                Ok(())
            })?,
        );
        max_error = max_error.max(check("matmul (with copies)", &out, &want, 1e-5)?);
        rows.push(Row {
            label: format!("{n}"),
            x: n as f64,
            work: Work::Flops(matmul_flops(n, n, n)),
            best_kernel: "gpu_best",
            best_name: Some(best_name),
            max_error,
            torch: find_anchor(&ctx.anchor, "matmul", &n.to_string(), "f32").cloned(),
            in_l2: false,
            times,
        });
        eprintln!("matmul {n}: {:?}", rows.last().map(|r| &r.times));
    }
    let mut series = vec![
        Series {
            key: "cpu_loop",
            header: "CPU loop (i-j-k)",
            gpu: false,
        },
        Series {
            key: "cpu_par",
            header: "CPU threads (rayon, i-k-j)",
            gpu: false,
        },
        Series {
            key: "cpu_nalgebra",
            header: "CPU nalgebra (1 thread)",
            gpu: false,
        },
        Series {
            key: "gpu_naive",
            header: "GPU naive kernel (article)",
            gpu: true,
        },
    ];
    series.push(Series {
        key: "gpu_best",
        header: "GPU fastest f32 kernel",
        gpu: true,
    });
    for &(key, header, _, reduced) in &variants {
        if reduced {
            series.push(Series {
                key,
                header,
                gpu: true,
            });
        }
    }
    series.push(Series {
        key: "gpu_e2e",
        header: "GPU + copies (fastest kernel)",
        gpu: true,
    });
    Ok(OpReport {
        key: "matmul",
        title: "Matmul C = A·B (N×N f32)",
        x_label: "matrix size N (N×N by N×N, f32)",
        series,
        rows,
        ladder: std::iter::once(("gpu_naive", "naive (article)")).chain(variants.iter().map(|v| (v.0, v.1))).collect(),
        x_base: 2.0,
        notes: vec![
            "2·N³ FLOP per product. The CPU loop runs up to N = 1024; the reference for larger N is nalgebra (checked against the loop at the smaller sizes).".into(),
        ],
    })
}

fn dense(ctx: &Ctx) -> Res<OpReport> {
    let gpu = &ctx.gpu;
    let act = Activation::Sigmoid;
    let mut rows = Vec::new();
    for (batch, in_f, out_f) in [
        (1usize, 1024usize, 1024usize),
        (256, 1024, 1024),
        (4096, 4096, 4096),
    ] {
        let x = random_f32(31, batch * in_f, -1.0, 1.0);
        let w = random_f32(32, out_f * in_f, -0.05, 0.05);
        let bias = random_f32(33, out_f, -0.5, 0.5);
        let mut out = vec![f32::NAN; batch * out_f];
        let mut times = BTreeMap::new();
        if batch * in_f * out_f <= 1 << 28 {
            times.insert(
                "cpu_loop",
                median_cpu(|| cpu::dense_loop(&x, &w, &bias, &mut out, batch, in_f, out_f, act)),
            );
        }
        times.insert(
            "cpu_par",
            median_cpu(|| cpu::dense_par(&x, &w, &bias, &mut out, in_f, out_f, act)),
        );
        let mut nd = cpu::NalgebraDense::new(&x, &w, &bias, batch, in_f, out_f, act);
        times.insert("cpu_nalgebra", median_cpu(|| nd.run()));
        let want = nd.result().to_vec();
        let mut dx = g(DeviceMatrix::from_host(gpu, batch, in_f, &x))?;
        let dw = g(DeviceMatrix::from_host(gpu, out_f, in_f, &w))?;
        let db = g(DeviceVector::from_host(gpu, &bias))?;
        let mut dy = g(DeviceMatrix::filled(gpu, batch, out_f, f32::NAN))?;
        g(dense_into(gpu, &dx, &dw, &db, act, &mut dy))?;
        let mut max_error = check("dense", &g(dy.to_host(gpu))?, &want, 1e-5)?;
        times.insert(
            "gpu",
            median_kernel(gpu, || dense_into(gpu, &dx, &dw, &db, act, &mut dy))?,
        );
        let bias_act = Epilogue::bias_act(&db, act);
        g(dy.fill(gpu, f32::NAN))?;
        g(gemm(
            gpu,
            &dx,
            Transpose::No,
            &dw,
            Transpose::Yes,
            bias_act,
            &mut dy,
            GemmKernel::Auto,
        ))?;
        max_error = max_error.max(check("dense via gemm", &g(dy.to_host(gpu))?, &want, 1e-5)?);
        times.insert(
            "gpu_gemm",
            median_kernel(gpu, || {
                gemm(
                    gpu,
                    &dx,
                    Transpose::No,
                    &dw,
                    Transpose::Yes,
                    bias_act,
                    &mut dy,
                    GemmKernel::Auto,
                )
            })?,
        );
        let best = fastest(&times, &["gpu", "gpu_gemm"]);
        out.fill(f32::NAN);
        times.insert(
            "gpu_e2e",
            median_e2e(gpu, || {
                dx.copy_from_host(gpu, &x)?;
                context_synchronize(gpu)?;
                if best == "gpu" {
                    dense_into(gpu, &dx, &dw, &db, act, &mut dy)?;
                } else {
                    gemm(
                        gpu,
                        &dx,
                        Transpose::No,
                        &dw,
                        Transpose::Yes,
                        bias_act,
                        &mut dy,
                        GemmKernel::Auto,
                    )?;
                }
                download_into(gpu, dy.as_vector(), &mut out)?;
                Ok(())
            })?,
        );
        max_error = max_error.max(check("dense (with copies)", &out, &want, 1e-5)?);
        let shape = format!("{batch}x{in_f}x{out_f}");
        rows.push(Row {
            label: format!("{batch}×{in_f}→{out_f}"),
            x: (batch * in_f * out_f) as f64,
            work: Work::Flops(matmul_flops(batch, out_f, in_f)),
            best_kernel: best,
            best_name: None,
            max_error,
            torch: find_anchor(&ctx.anchor, "linear_sigmoid", &shape, "f32").cloned(),
            in_l2: false,
            times,
        });
        eprintln!("dense {shape}: {:?}", rows.last().map(|r| &r.times));
    }
    Ok(OpReport {
        key: "dense",
        title: "Dense layer y = σ(x·Wᵀ + b) (f32)",
        x_label: "multiply-adds per call (batch·in·out)",
        series: vec![
            Series { key: "cpu_loop", header: "CPU loop", gpu: false },
            Series { key: "cpu_par", header: "CPU threads (rayon)", gpu: false },
            Series { key: "cpu_nalgebra", header: "CPU nalgebra + bias/σ", gpu: false },
            Series { key: "gpu", header: "GPU dense kernel", gpu: true },
            Series { key: "gpu_gemm", header: "GPU gemm, fused bias+σ", gpu: true },
            Series { key: "gpu_e2e", header: "GPU + copies (x up, y down)", gpu: true },
        ],
        rows,
        ladder: Vec::new(),
        x_base: 10.0,
        notes: vec!["Shapes are batch×in→out, those of the PyTorch anchor's linear+sigmoid. Weights stay on the device in the \"+ copies\" series.".into()],
    })
}

fn fmt_time(ms: f64) -> String {
    if ms < 1e-3 {
        format!("{:.0} ns", ms * 1e6)
    } else if ms < 1.0 {
        format!("{:.1} µs", ms * 1e3)
    } else if ms < 1000.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{:.2} s", ms / 1e3)
    }
}

fn fmt_speedup(x: f64) -> String {
    if x >= 10.0 {
        format!("{x:.0}×")
    } else if x >= 1.0 {
        format!("{x:.1}×")
    } else {
        format!("{x:.2}×")
    }
}

/// Best CPU time of a row and its series name.
fn best_cpu<'a>(op: &'a OpReport, row: &Row) -> Option<(&'a str, f64)> {
    op.series
        .iter()
        .filter(|s| !s.gpu)
        .filter_map(|s| row.times.get(s.key).map(|&t| (s.header, t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

fn write_table(md: &mut String, op: &OpReport, ctx: &Ctx, flops_ceiling: f64) {
    let _ = writeln!(md, "## {}\n", op.title);
    for n in &op.notes {
        let _ = writeln!(md, "{n}");
    }
    let _ = writeln!(md);
    let present: Vec<&Series> = op
        .series
        .iter()
        .filter(|s| op.rows.iter().any(|r| r.times.contains_key(s.key)))
        .collect();
    let named = op.rows.iter().any(|r| r.best_name.is_some());
    let mut header = String::from(if named {
        "| size | fastest f32 kernel |"
    } else {
        "| size |"
    });
    let mut rule = String::from(if named { "|---:|:---|" } else { "|---:|" });
    for s in &present {
        let _ = write!(header, " {} |", s.header);
        rule.push_str("---:|");
    }
    header.push_str(" kernel speedup vs CPU loop | + copies vs CPU loop | kernel speedup vs best CPU | throughput (% of ceiling) | rel. error |");
    rule.push_str("---:|---:|---:|---:|---:|");
    let has_torch = op.rows.iter().any(|r| r.torch.is_some());
    if has_torch {
        header.push_str(" vs PyTorch (time ours ÷ theirs) |");
        rule.push_str("---:|");
    }
    let _ = writeln!(md, "{header}\n{rule}");
    for row in &op.rows {
        let mut line = format!("| {}{} |", row.label, if row.in_l2 { " †" } else { "" });
        if named {
            let _ = write!(line, " {} |", row.best_name.unwrap_or("—"));
        }
        for s in &present {
            match row.times.get(s.key) {
                Some(&t) if s.key == row.best_kernel => {
                    let _ = write!(line, " **{}** |", fmt_time(t));
                }
                Some(&t) => {
                    let _ = write!(line, " {} |", fmt_time(t));
                }
                None => line.push_str(" — |"),
            }
        }
        let kernel = row.times[row.best_kernel];
        let e2e = row.times.get("gpu_e2e").copied();
        match row.times.get("cpu_loop") {
            Some(&cl) => {
                let _ = write!(
                    line,
                    " {} | {} |",
                    fmt_speedup(cl / kernel),
                    e2e.map_or("—".into(), |e| fmt_speedup(cl / e))
                );
            }
            None => line.push_str(" — | — |"),
        }
        match best_cpu(op, row) {
            Some((_, t)) => {
                let _ = write!(line, " {} |", fmt_speedup(t / kernel));
            }
            None => line.push_str(" — |"),
        }
        let r = rate(row, kernel);
        let _ = match row.work {
            Work::Bytes(_) => write!(line, " {r:.0} GB/s ({:.0}%) |", 100.0 * r / ctx.copy_gbs),
            Work::Flops(_) => write!(
                line,
                " {r:.2} TFLOP/s ({:.0}%) |",
                100.0 * r / flops_ceiling
            ),
        };
        let _ = write!(line, " {:.0e} |", row.max_error);
        if has_torch {
            match &row.torch {
                Some(t) => {
                    let _ = write!(
                        line,
                        " {:.2} (PyTorch {}) |",
                        kernel / t.median_ms,
                        fmt_time(t.median_ms)
                    );
                }
                None => line.push_str(" — |"),
            }
        }
        let _ = writeln!(md, "{line}");
    }
    let _ = writeln!(
        md,
        "\nBold: the fastest GPU kernel at that size (used for the speedups, throughput and \"+ copies\").\n"
    );
    if !op.ladder.is_empty() {
        let _ = writeln!(
            md,
            "Every GPU kernel at every size, TFLOP/s (kernel time by events; each checked against nalgebra first: f32 kernels to a relative error of 1e-5, reduced-precision ones to 5e-3):\n"
        );
        let mut header = String::from("| kernel |");
        let mut rule = String::from("|:---|");
        for row in &op.rows {
            let _ = write!(header, " {} |", row.label);
            rule.push_str("---:|");
        }
        let _ = writeln!(md, "{header}\n{rule}");
        for &(key, name) in &op.ladder {
            let mut line = format!("| {name} |");
            for row in &op.rows {
                match row.times.get(key) {
                    Some(&t) => {
                        let _ = write!(line, " {:.2} |", rate(row, t));
                    }
                    None => line.push_str(" — |"),
                }
            }
            let _ = writeln!(md, "{line}");
        }
        let _ = writeln!(md);
    }
}

/// The article's two findings, stated from this run's numbers.
fn findings(ops: &[OpReport]) -> String {
    let mut s = String::new();
    if let Some(op) = ops.iter().find(|o| o.key == "vec_add") {
        let beats = |key: &str| {
            op.rows
                .iter()
                .find(|r| r.times.get(key).is_some_and(|&g| g < r.times["cpu_loop"]))
                .map(|r| r.x as usize)
        };
        let last = op.rows.last().expect("vec_add has rows");
        let (cl, k, e) = (
            last.times["cpu_loop"],
            last.times[last.best_kernel],
            last.times["gpu_e2e"],
        );
        let cp = last.times["cpu_par"];
        let pinned = last.times.get("gpu_e2e_pinned").copied();
        let _ = writeln!(
            s,
            "1. **Vector add: the GPU wins only at large n, and the copies eat the gain.** The GPU kernel first beats the single-threaded CPU loop at n = {}; \
             at n = {} the kernel takes {} against the loop's {} ({}), but with the copies to and from the device it takes {} ({} the loop's speed{}). \
             The threaded CPU ({}) {}. Upload and download move the same 12 bytes per element as the kernel, over the host link instead of HBM{}.",
            beats(last.best_kernel).map_or("no size measured".into(), |n| n.to_string()),
            last.x as usize,
            fmt_time(k),
            fmt_time(cl),
            fmt_speedup(cl / k),
            fmt_time(e),
            fmt_speedup(cl / e),
            match beats("gpu_e2e") {
                Some(n) => format!("; with copies the GPU beats the loop from n = {n}"),
                None => "; with copies the GPU never beats the loop at any size measured".into(),
            },
            fmt_time(cp),
            if cp < e {
                "also beats the GPU with copies".to_string()
            } else {
                "is slower than the GPU with copies".to_string()
            },
            match pinned {
                Some(p) => format!(
                    "; from page-locked host memory the whole round trip takes {} ({} the loop, {} the threaded CPU): faster copies, still {:.0}× the kernel alone",
                    fmt_time(p),
                    fmt_speedup(cl / p),
                    fmt_speedup(cp / p),
                    p / k
                ),
                None => String::new(),
            },
        );
    }
    if let Some(op) = ops.iter().find(|o| o.key == "matmul") {
        let mut parts = Vec::new();
        for r in &op.rows {
            if let Some(&cl) = r.times.get("cpu_loop") {
                parts.push(format!(
                    "N = {}: {}",
                    r.x as usize,
                    fmt_speedup(cl / r.times[r.best_kernel])
                ));
            }
        }
        let last = op.rows.last().expect("matmul has rows");
        let k = last.times[last.best_kernel];
        let _ = writeln!(
            s,
            "2. **Matmul: the gap widens with N.** Speedup of the fastest GPU kernel over the CPU loop: {}. At N = {} the GPU kernel takes {} \
             against {} for nalgebra on one core ({}) and {} for the threaded CPU ({}); the copies (3·N² floats for 2·N³ FLOP) cost {} in all ({}).",
            parts.join(", "),
            last.x as usize,
            fmt_time(k),
            fmt_time(last.times["cpu_nalgebra"]),
            fmt_speedup(last.times["cpu_nalgebra"] / k),
            fmt_time(last.times["cpu_par"]),
            fmt_speedup(last.times["cpu_par"] / k),
            fmt_time(last.times["gpu_e2e"]),
            fmt_speedup(last.times["cpu_nalgebra"] / last.times["gpu_e2e"]) + " vs nalgebra",
        );
    }
    s
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

/// One line of a chart: legend, whether it is a GPU series, and its (size, ms) points.
type ChartLine = (String, bool, Vec<(f64, f64)>);

fn chart(path: &Path, op: &OpReport, gpu_name: &str, cpu_name: &str) -> Res<()> {
    use plotters::prelude::*;
    let e = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let (w, h) = (1200u32, 760u32);
    let mut buf = vec![255u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(|x| e(&x))?;
        let mut lines: Vec<ChartLine> = op
            .series
            .iter()
            .map(|s| {
                (
                    s.header.to_string(),
                    s.gpu,
                    op.rows
                        .iter()
                        .filter_map(|r| r.times.get(s.key).map(|&t| (r.x, t)))
                        .collect::<Vec<_>>(),
                )
            })
            .filter(|l| !l.2.is_empty())
            .collect();
        let torch: Vec<(f64, f64)> = op
            .rows
            .iter()
            .filter_map(|r| r.torch.as_ref().map(|t| (r.x, t.median_ms)))
            .collect();
        if !torch.is_empty() {
            lines.push(("PyTorch (same GPU, anchor run)".into(), true, torch));
        }
        let all = lines.iter().flat_map(|l| l.2.iter());
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y) in all {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        let mut c = ChartBuilder::on(&root)
            .caption(
                format!("{} — {gpu_name} vs {cpu_name}", op.title),
                ("sans-serif", 22),
            )
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(100)
            .build_cartesian_2d(
                (x0 / 1.5..x1 * 1.5).log_scale().base(op.x_base),
                (y0 / 2.0..y1 * 3.0).log_scale(),
            )
            .map_err(|x| e(&x))?;
        c.configure_mesh()
            .x_desc(op.x_label)
            .y_desc("time per call (log scale)")
            .x_label_formatter(&|v| fmt_count(*v))
            .y_label_formatter(&|v| fmt_tick(*v))
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 18))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(|x| e(&x))?;
        let cpu_colors = [
            RGBColor(200, 40, 40),
            RGBColor(240, 140, 20),
            RGBColor(150, 90, 40),
        ];
        let gpu_colors = [
            RGBColor(30, 90, 200),
            RGBColor(20, 160, 160),
            RGBColor(110, 60, 190),
            RGBColor(40, 150, 40),
            RGBColor(90, 90, 90),
        ];
        let (mut ci, mut gi) = (0, 0);
        for (name, is_gpu, pts) in lines {
            let color = if is_gpu {
                gi += 1;
                gpu_colors[(gi - 1) % gpu_colors.len()]
            } else {
                ci += 1;
                cpu_colors[(ci - 1) % cpu_colors.len()]
            };
            let style =
                color.stroke_width(if name.contains("copies") || name.starts_with("PyTorch") {
                    2
                } else {
                    3
                });
            c.draw_series(LineSeries::new(pts.clone(), style))
                .map_err(|x| e(&x))?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
                });
            if is_gpu {
                c.draw_series(
                    pts.iter()
                        .map(|&p| TriangleMarker::new(p, 6, color.filled())),
                )
                .map_err(|x| e(&x))?;
            } else {
                c.draw_series(pts.iter().map(|&p| Circle::new(p, 5, color.filled())))
                    .map_err(|x| e(&x))?;
            }
        }
        c.configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 16))
            .draw()
            .map_err(|x| e(&x))?;
        root.present().map_err(|x| e(&x))?;
    }
    let file = std::fs::File::create(path).map_err(|x| e(&x))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|x| e(&x))?;
    writer.write_image_data(&buf).map_err(|x| e(&x))?;
    Ok(())
}

/// Axis labels for counts: 1000, 10k, 1M, 2.5M, 1G.
fn fmt_count(v: f64) -> String {
    let short = |x: f64, unit: &str| {
        if (x - x.round()).abs() < 0.05 {
            format!("{x:.0}{unit}")
        } else {
            format!("{x:.1}{unit}")
        }
    };
    if v >= 1e9 {
        short(v / 1e9, "G")
    } else if v >= 1e6 {
        short(v / 1e6, "M")
    } else if v >= 1e4 {
        short(v / 1e3, "k")
    } else {
        format!("{v:.0}")
    }
}

/// Axis labels for times in ms: 1 µs, 10 µs, 1 ms, 1 s (no trailing digits on round ticks).
fn fmt_tick(ms: f64) -> String {
    let (x, unit) = if ms >= 1000.0 {
        (ms / 1e3, "s")
    } else if ms >= 1.0 {
        (ms, "ms")
    } else if ms >= 1e-3 {
        (ms * 1e3, "µs")
    } else {
        (ms * 1e6, "ns")
    };
    if (x - x.round()).abs() < 0.05 * x.max(1.0) {
        format!("{x:.0} {unit}")
    } else {
        format!("{x:.1} {unit}")
    }
}

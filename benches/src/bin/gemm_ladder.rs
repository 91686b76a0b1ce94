//! The GEMM ladder benchmark: every GEMM variant at several square sizes, each checked on fresh
//! random inputs (output poisoned with NaN first; every element checked for NaN, sampled
//! elements against an f64 dot product) and then timed with CUDA events (median). Also the dense
//! layer's fused epilogue against the bare product, and the layouts the MLP uses.
//!
//! ```text
//! cargo run --release -p benches --bin gemm_ladder -- [--sizes 1024,2048,4096,8192] [--anchor FILE]
//! ```
//! `--anchor FILE` reads the PyTorch anchor's output (`matmul,<n>,<f32|tf32|bf16>,<ms>,<TFLOP/s>`
//! lines, from `torch_anchor.py` run in the same session) and adds the ratio to cuBLAS.
//! Exits with status 1 if any check fails.

use std::collections::HashMap;
use std::process::ExitCode;

use benches::anchor::parse_anchor_csv;
use benches::timing::{median, time_gpu_ms};
use host::buffer_bf16::{DeviceMatrixBf16, bf16_to_f32, f32_to_bf16};
use host::ops::matmul::{Activation, Bf16Kernel, Epilogue, GemmKernel, Transpose, gemm, gemm_bf16_with};
use host::{DeviceMatrix, DeviceVector, Gpu, Result};

/// Deterministic uniform values in [-1, 1) (xorshift), fast enough for 8192² inputs.
fn random(seed: u64, n: usize) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32) / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

/// What one timed configuration produced.
struct Row {
    name: String,
    n: usize,
    ms: f64,
    tflops: f64,
    /// Largest |got − want| / Σ|a||b| over the sampled elements.
    err: f64,
    ok: bool,
    anchor: Option<&'static str>,
}

/// Operands for one size: f32 (and bf16 copies, the f32 values rounded) on the device.
struct Inputs {
    n: usize,
    a: Vec<f32>,
    b: Vec<f32>,
    da: DeviceMatrix,
    db: DeviceMatrix,
}

/// Checks C (row-major n×n) = op(A)·op(B) (+ epilogue when `bias`): no NaN anywhere, and 256
/// sampled elements against f64. `round` maps inputs as the kernel sees them (bf16 rounding).
#[allow(clippy::too_many_arguments)]
fn check(x: &Inputs, c: &[f32], tb: bool, bias: Option<&[f32]>, act: Activation, round: fn(f32) -> f32, tol: f64) -> (f64, bool) {
    let n = x.n;
    if let Some(i) = c.iter().position(|v| v.is_nan()) {
        eprintln!("  NaN at element {i} (unwritten or wrong)");
        return (f64::INFINITY, false);
    }
    let idx = random(99 + n as u64, 512);
    let mut worst = 0.0f64;
    for s in 0..256 {
        let i = (((idx[2 * s] + 1.0) * 0.5 * n as f32) as usize).min(n - 1);
        let j = (((idx[2 * s + 1] + 1.0) * 0.5 * n as f32) as usize).min(n - 1);
        let (mut dot, mut mag) = (0.0f64, 0.0f64);
        for p in 0..n {
            let a = round(x.a[i * n + p]) as f64;
            let b = round(if tb { x.b[j * n + p] } else { x.b[p * n + j] }) as f64;
            dot += a * b;
            mag += (a * b).abs();
        }
        let want = match bias {
            Some(bias) => act.apply((dot + bias[j] as f64) as f32) as f64,
            None => dot,
        };
        worst = worst.max((c[i * n + j] as f64 - want).abs() / mag.max(f64::MIN_POSITIVE));
    }
    (worst, worst <= tol)
}

/// Median milliseconds of `f`, with enough repetitions for about 0.3 s (3 to 30).
fn time(gpu: &Gpu, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    let first = median(&time_gpu_ms(gpu, 1, 1, &mut f)?);
    let iters = ((300.0 / first.max(1e-3)) as usize).clamp(3, 30);
    Ok(median(&time_gpu_ms(gpu, 1, iters, f)?))
}

/// One line per measurement as it happens (stderr), so a run cut short still says something.
fn progress(r: &Row) {
    eprintln!("{} n={}: {:.3} ms, {:.2} TFLOP/s, err {:.1e} {}", r.name, r.n, r.ms, r.tflops, r.err, if r.ok { "ok" } else { "FAIL" });
}

fn tflops(n: usize, ms: f64) -> f64 {
    2.0 * (n as f64).powi(3) / (ms * 1e-3) / 1e12
}

/// f32 tolerance in units of Σ|a||b|; TF32 ~1e-3 relative per product; bf16 inputs are
/// pre-rounded in the reference, so only f32 accumulation error remains.
fn tol(kernel: GemmKernel) -> f64 {
    if kernel.is_reduced_precision() { 2e-3 } else { 1e-5 }
}

fn run(sizes: &[usize], anchor: &HashMap<(usize, String), f64>) -> Result<bool> {
    let gpu = &Gpu::new()?;
    println!(
        "GPU: {} (cc {}.{}, {} SMs), PTX {}",
        gpu.info().name,
        gpu.info().compute_capability.0,
        gpu.info().compute_capability.1,
        gpu.info().multiprocessors,
        gpu.ptx_arch()
    );
    let mut rows: Vec<Row> = Vec::new();
    fn ident(x: f32) -> f32 {
        x
    }
    fn to_bf16(x: f32) -> f32 {
        bf16_to_f32(f32_to_bf16(x))
    }
    for &n in sizes {
        let (a, b) = (random(1 + n as u64, n * n), random(2 + n as u64, n * n));
        let da = DeviceMatrix::from_host(gpu, n, n, &a)?;
        let db = DeviceMatrix::from_host(gpu, n, n, &b)?;
        let x = Inputs { n, a, b, da, db };
        let mut dc = DeviceMatrix::filled(gpu, n, n, f32::NAN)?;
        for kernel in GemmKernel::LADDER {
            if kernel == GemmKernel::WarpDot {
                continue; // built for a few rows of C: timed on the batch-1 layer below
            }
            let slow = matches!(kernel, GemmKernel::Naive | GemmKernel::SmemTiled | GemmKernel::BlockTile1d);
            if slow && n > 4096 {
                continue;
            }
            dc.fill(gpu, f32::NAN)?;
            gemm(gpu, &x.da, Transpose::No, &x.db, Transpose::No, Epilogue::default(), &mut dc, kernel)?;
            let (err, ok) = check(&x, &dc.to_host(gpu)?, false, None, Activation::Identity, ident, tol(kernel));
            let ms = time(gpu, || gemm(gpu, &x.da, Transpose::No, &x.db, Transpose::No, Epilogue::default(), &mut dc, kernel))?;
            let anchor = Some(if kernel.is_reduced_precision() { "tf32" } else { "f32" });
            rows.push(Row { name: format!("{kernel:?}"), n, ms, tflops: tflops(n, ms), err, ok, anchor });
            progress(rows.last().unwrap());
        }
        // BF16 tensor cores: the same values rounded to bf16.
        let ha = DeviceMatrixBf16::from_f32(gpu, n, n, &x.a)?;
        let hb = DeviceMatrixBf16::from_f32(gpu, n, n, &x.b)?;
        for kernel in Bf16Kernel::ALL {
            if matches!(kernel, Bf16Kernel::WarpDot | Bf16Kernel::RowDot | Bf16Kernel::ColDot) {
                continue; // built for a few rows or columns of C, not for squares
            }
            if matches!(kernel, Bf16Kernel::ShortK | Bf16Kernel::ShortKMma) {
                continue; // built for a short k (ShortK refuses k > 32)
            }
            dc.fill(gpu, f32::NAN)?;
            gemm_bf16_with(gpu, &ha, Transpose::No, &hb, Transpose::No, Epilogue::default(), &mut dc, kernel)?;
            let (err, ok) = check(&x, &dc.to_host(gpu)?, false, None, Activation::Identity, to_bf16, 1e-5);
            let ms = time(gpu, || gemm_bf16_with(gpu, &ha, Transpose::No, &hb, Transpose::No, Epilogue::default(), &mut dc, kernel))?;
            rows.push(Row { name: format!("Bf16 {kernel:?}"), n, ms, tflops: tflops(n, ms), err, ok, anchor: Some("bf16") });
            progress(rows.last().unwrap());
        }
        // The Hopper kernel on the dense layer's layout (both operands k-contiguous).
        if gpu.supports(&kernels::matmul::GEMM_WGMMA_BF16_KK) {
            let kernel = Bf16Kernel::Wgmma;
            dc.fill(gpu, f32::NAN)?;
            gemm_bf16_with(gpu, &ha, Transpose::No, &hb, Transpose::Yes, Epilogue::default(), &mut dc, kernel)?;
            let (err, ok) = check(&x, &dc.to_host(gpu)?, true, None, Activation::Identity, to_bf16, 1e-5);
            let ms = time(gpu, || gemm_bf16_with(gpu, &ha, Transpose::No, &hb, Transpose::Yes, Epilogue::default(), &mut dc, kernel))?;
            rows.push(Row { name: format!("Bf16 {kernel:?} x·Wᵀ"), n, ms, tflops: tflops(n, ms), err, ok, anchor: Some("bf16") });
            progress(rows.last().unwrap());
        }
        drop((ha, hb));
        // The dense layer's forward x·Wᵀ: bare, and with the fused bias + ReLU epilogue.
        let bias_h = random(3 + n as u64, n);
        let bias = DeviceVector::from_host(gpu, &bias_h)?;
        let hopper = gpu.supports(&kernels::matmul::GEMM_WGMMA_TF32_KK);
        for kernel in [GemmKernel::Auto, GemmKernel::WarpTiledFast, GemmKernel::WarpTiledWide, GemmKernel::Tf32, GemmKernel::Tf32Bk64, GemmKernel::Tf32Wgmma] {
            if kernel == GemmKernel::Tf32Wgmma && !hopper {
                continue;
            }
            let t = tol(kernel);
            let anchor = Some(if kernel.is_reduced_precision() { "tf32" } else { "f32" });
            dc.fill(gpu, f32::NAN)?;
            gemm(gpu, &x.da, Transpose::No, &x.db, Transpose::Yes, Epilogue::default(), &mut dc, kernel)?;
            let (err, ok) = check(&x, &dc.to_host(gpu)?, true, None, Activation::Identity, ident, t);
            let ms = time(gpu, || gemm(gpu, &x.da, Transpose::No, &x.db, Transpose::Yes, Epilogue::default(), &mut dc, kernel))?;
            rows.push(Row { name: format!("{kernel:?} x·Wᵀ"), n, ms, tflops: tflops(n, ms), err, ok, anchor });
            progress(rows.last().unwrap());
            let epi = Epilogue::bias_act(&bias, Activation::Relu);
            dc.fill(gpu, f32::NAN)?;
            gemm(gpu, &x.da, Transpose::No, &x.db, Transpose::Yes, epi, &mut dc, kernel)?;
            let (err, ok) = check(&x, &dc.to_host(gpu)?, true, Some(&bias_h), Activation::Relu, ident, t);
            let ms = time(gpu, || gemm(gpu, &x.da, Transpose::No, &x.db, Transpose::Yes, epi, &mut dc, kernel))?;
            rows.push(Row { name: format!("{kernel:?} relu(x·Wᵀ+b)"), n, ms, tflops: tflops(n, ms), err, ok, anchor });
            progress(rows.last().unwrap());
            // The bare product once more, after the fused one: a clock that dropped during the
            // last minutes of tensor-core work shows here, not as an epilogue cost.
            let ms = time(gpu, || gemm(gpu, &x.da, Transpose::No, &x.db, Transpose::Yes, Epilogue::default(), &mut dc, kernel))?;
            rows.push(Row { name: format!("{kernel:?} x·Wᵀ again"), n, ms, tflops: tflops(n, ms), err: 0.0, ok: true, anchor });
            progress(rows.last().unwrap());
        }
        // The backward layouts: dY·W is NN (above); dWᵀ-style Aᵀ·B.
        for kernel in [GemmKernel::Auto, GemmKernel::WarpTiledFast, GemmKernel::WarpTiledWide] {
            let ms = time(gpu, || gemm(gpu, &x.da, Transpose::Yes, &x.db, Transpose::No, Epilogue::default(), &mut dc, kernel))?;
            rows.push(Row { name: format!("{kernel:?} Aᵀ·B (timing only)"), n, ms, tflops: tflops(n, ms), err: 0.0, ok: true, anchor: Some("f32") });
        }
    }
    println!("\n{:<28} {:>6} {:>10} {:>9} {:>10} {:>9}  check", "variant", "n", "ms", "TFLOP/s", "cuBLAS", "ratio");
    let mut all_ok = true;
    for r in &rows {
        let base = r.anchor.and_then(|d| anchor.get(&(r.n, d.to_string())).copied());
        let (bs, ratio) = match base {
            Some(t) => (format!("{t:.1} {}", r.anchor.unwrap_or("")), format!("{:.1}%", 100.0 * r.tflops / t)),
            None => ("-".into(), "-".into()),
        };
        println!(
            "{:<28} {:>6} {:>10.3} {:>9.2} {:>10} {:>9}  {} (err {:.1e})",
            r.name,
            r.n,
            r.ms,
            r.tflops,
            bs,
            ratio,
            if r.ok { "ok" } else { "FAIL" },
            r.err
        );
        all_ok &= r.ok;
    }
    // Epilogue cost: fused bias+ReLU over the bare product.
    for &n in sizes {
        for k in ["Auto", "WarpTiledFast", "WarpTiledWide", "Tf32", "Tf32Bk64", "Tf32Wgmma"] {
            let get = |name: String| rows.iter().find(|r| r.n == n && r.name == name).map(|r| r.tflops);
            if let (Some(bare), Some(fused), Some(again)) = (get(format!("{k} x·Wᵀ")), get(format!("{k} relu(x·Wᵀ+b)")), get(format!("{k} x·Wᵀ again")))
            {
                println!(
                    "fused epilogue {k} n={n}: {:.1}% of the bare x·Wᵀ timed before it, {:.1}% of the bare x·Wᵀ timed after it",
                    100.0 * fused / bare,
                    100.0 * fused / again
                );
            }
        }
    }
    all_ok &= batch1_dense(gpu)?;
    for r in &rows {
        println!("ladder,{},{},{:.4},{:.3},{:.2e},{}", r.name, r.n, r.ms, r.tflops, r.err, r.ok);
    }
    Ok(all_ok)
}

/// The batch-1 dense layer σ(x·Wᵀ + b), x 1×1024, W 1024×1024 (the anchor's `linear_sigmoid`
/// 1x1024x1024): kernel time per variant, checked against f64 first.
fn batch1_dense(gpu: &Gpu) -> Result<bool> {
    let (k, n) = (1024, 1024);
    let (x, w, b) = (random(5, k), random(6, n * k), random(7, n));
    let (dx, dw, db) = (DeviceMatrix::from_host(gpu, 1, k, &x)?, DeviceMatrix::from_host(gpu, n, k, &w)?, DeviceVector::from_host(gpu, &b)?);
    let mut dy = DeviceMatrix::filled(gpu, 1, n, f32::NAN)?;
    let epi = Epilogue::bias_act(&db, Activation::Sigmoid);
    let mut ok = true;
    for kernel in [GemmKernel::Auto, GemmKernel::WarpDot, GemmKernel::SmemTiled, GemmKernel::WarpTiled] {
        dy.fill(gpu, f32::NAN)?;
        gemm(gpu, &dx, Transpose::No, &dw, Transpose::Yes, epi, &mut dy, kernel)?;
        let y = dy.to_host(gpu)?;
        let worst = (0..n)
            .map(|j| {
                let dot: f64 = (0..k).map(|p| x[p] as f64 * w[j * k + p] as f64).sum();
                let want = Activation::Sigmoid.apply((dot + b[j] as f64) as f32) as f64;
                (y[j] as f64 - want).abs()
            })
            .fold(0.0f64, |a, e| if e.is_nan() { f64::INFINITY } else { a.max(e) });
        let good = worst <= 1e-5;
        ok &= good;
        let us = 1e3 * median(&time_gpu_ms(gpu, 10, 200, || gemm(gpu, &dx, Transpose::No, &dw, Transpose::Yes, epi, &mut dy, kernel))?);
        println!("dense batch 1 (1x1024x1024, bias+sigmoid) {kernel:?}: {us:.2} us, max error {worst:.1e} {}", if good { "ok" } else { "FAIL" });
    }
    Ok(ok)
}

/// `matmul,<n>,<dtype>,<ms>,<TFLOP/s>` lines of the PyTorch anchor.
fn read_anchor(path: &str) -> HashMap<(usize, String), f64> {
    let mut m = HashMap::new();
    if let Ok(text) = std::fs::read_to_string(path) {
        for row in parse_anchor_csv(&text).into_iter().filter(|r| r.op == "matmul") {
            if let Ok(n) = row.shape.parse::<usize>() {
                m.insert((n, row.dtype), row.metric);
            }
        }
    } else {
        eprintln!("anchor file {path} not readable: ratios omitted");
    }
    m
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut sizes = vec![1024, 2048, 4096, 8192];
    let mut anchor = HashMap::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--sizes" => sizes = it.next().map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect()).unwrap_or_default(),
            "--anchor" => anchor = it.next().map(|p| read_anchor(p)).unwrap_or_default(),
            other => {
                eprintln!("unknown argument {other}; usage: gemm_ladder [--sizes 1024,2048] [--anchor FILE]");
                return ExitCode::FAILURE;
            }
        }
    }
    match run(&sizes, &anchor) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("some checks FAILED");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

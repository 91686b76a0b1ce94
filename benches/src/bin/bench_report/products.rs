//! The product rows of the report: matrix multiply (the article's naive kernel and every rung
//! of the GEMM ladder) and the dense layer.

use std::collections::BTreeMap;

use benches::anchor::find_anchor;
use benches::cpu;
use benches::metrics::{matmul_flops, random_f32};
use benches::timing::{context_synchronize, download_into};
use host::ops::dense::dense_into;
use host::ops::matmul::{Epilogue, GemmKernel, MatmulKernel, Transpose, gemm, matmul_into};
use host::{Activation, DeviceMatrix, DeviceVector};

use crate::{Ctx, OpReport, Res, Row, Series, Work, check, fastest, g, median_cpu, median_e2e, median_kernel};

/// The GPU products this build has, besides the article's naive kernel: every rung of the GEMM
/// ladder, with whether it rounds inputs below f32 (such kernels are checked at a looser
/// tolerance and shown, but do not count as the f32 result).
pub(crate) fn gemm_variants() -> Vec<(&'static str, &'static str, GemmKernel, bool)> {
    GemmKernel::LADDER
        .iter()
        .map(|&k| {
            let reduced = k.is_reduced_precision();
            let key: &'static str = Box::leak(format!("gemm_{k:?}").into_boxed_str());
            let name: &'static str =
                Box::leak(if reduced { format!("GPU {k:?} (tensor cores, inputs rounded to TF32)") } else { format!("{k:?}") }.into_boxed_str());
            (key, name, k, reduced)
        })
        .collect()
}

pub(crate) fn matmul(ctx: &Ctx) -> Res<OpReport> {
    let gpu = &ctx.gpu;
    let variants = gemm_variants();
    let mut rows = Vec::new();
    for n in [64usize, 128, 256, 512, 1024, 2048, 4096] {
        let (a, b) = (random_f32(n as u64 + 21, n * n, -1.0, 1.0), random_f32(n as u64 + 22, n * n, -1.0, 1.0));
        let mut out = vec![f32::NAN; n * n];
        let mut times = BTreeMap::new();
        // The article's triple loop: up to 1024 (about a second per run there; 2048 takes 8×).
        if n <= 1024 {
            times.insert("cpu_loop", median_cpu(|| cpu::matmul_loop(&a, &b, &mut out, n, n, n)));
        }
        times.insert("cpu_par", median_cpu(|| cpu::matmul_par(&a, &b, &mut out, n, n)));
        let mut na = cpu::NalgebraMatmul::new(&a, &b, n, n, n);
        times.insert("cpu_nalgebra", median_cpu(|| na.run()));
        let want = na.result().to_vec();
        let mut da = g(DeviceMatrix::from_host(gpu, n, n, &a))?;
        let mut db = g(DeviceMatrix::from_host(gpu, n, n, &b))?;
        let mut dc = g(DeviceMatrix::filled(gpu, n, n, f32::NAN))?;
        g(matmul_into(gpu, &da, &db, &mut dc, MatmulKernel::Naive))?;
        let mut max_error = check("matmul naive", &g(dc.to_host(gpu))?, &want, 1e-5)?;
        times.insert("gpu_naive", median_kernel(gpu, || matmul_into(gpu, &da, &db, &mut dc, MatmulKernel::Naive))?);
        let mut f32_keys = vec!["gpu_naive"];
        for &(key, _, kernel, reduced) in &variants {
            let run =
                |da: &DeviceMatrix, db: &DeviceMatrix, dc: &mut DeviceMatrix| gemm(gpu, da, Transpose::No, db, Transpose::No, Epilogue::default(), dc, kernel);
            g(dc.fill(gpu, f32::NAN))?;
            g(run(&da, &db, &mut dc))?;
            let err = check(key, &g(dc.to_host(gpu))?, &want, if reduced { 5e-3 } else { 1e-5 })?;
            times.insert(key, median_kernel(gpu, || run(&da, &db, &mut dc))?);
            if !reduced {
                max_error = max_error.max(err);
                f32_keys.push(key);
            }
        }
        let best = fastest(&times, &f32_keys);
        let best_kernel = variants.iter().find(|v| v.0 == best).map(|v| v.2);
        let best_name = variants.iter().find(|v| v.0 == best).map_or("naive (article)", |v| v.1);
        times.insert("gpu_best", times[best]);
        out.fill(f32::NAN);
        times.insert(
            "gpu_e2e",
            median_e2e(gpu, || {
                da.copy_from_host(gpu, &a)?;
                db.copy_from_host(gpu, &b)?;
                context_synchronize(gpu)?;
                match best_kernel {
                    Some(k) => gemm(gpu, &da, Transpose::No, &db, Transpose::No, Epilogue::default(), &mut dc, k)?,
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
        Series { key: "cpu_loop", header: "CPU loop (i-j-k)", gpu: false },
        Series { key: "cpu_par", header: "CPU threads (rayon, i-k-j)", gpu: false },
        Series { key: "cpu_nalgebra", header: "CPU nalgebra (1 thread)", gpu: false },
        Series { key: "gpu_naive", header: "GPU naive kernel (article)", gpu: true },
    ];
    series.push(Series { key: "gpu_best", header: "GPU fastest f32 kernel", gpu: true });
    for &(key, header, _, reduced) in &variants {
        if reduced {
            series.push(Series { key, header, gpu: true });
        }
    }
    series.push(Series { key: "gpu_e2e", header: "GPU + copies (fastest kernel)", gpu: true });
    Ok(OpReport {
        key: "matmul",
        title: "Matmul C = A·B (N×N f32)",
        x_label: "matrix size N (N×N by N×N, f32)",
        series,
        rows,
        ladder: std::iter::once(("gpu_naive", "naive (article)")).chain(variants.iter().map(|v| (v.0, v.1))).collect(),
        x_base: 2.0,
        notes: vec![
            "2·N³ FLOP per product. The CPU loop runs up to N = 1024; the reference for larger N is nalgebra (checked against the loop at the smaller sizes)."
                .into(),
        ],
    })
}

pub(crate) fn dense(ctx: &Ctx) -> Res<OpReport> {
    let gpu = &ctx.gpu;
    let act = Activation::Sigmoid;
    let mut rows = Vec::new();
    for (batch, in_f, out_f) in [(1usize, 1024usize, 1024usize), (256, 1024, 1024), (4096, 4096, 4096)] {
        let x = random_f32(31, batch * in_f, -1.0, 1.0);
        let w = random_f32(32, out_f * in_f, -0.05, 0.05);
        let bias = random_f32(33, out_f, -0.5, 0.5);
        let mut out = vec![f32::NAN; batch * out_f];
        let mut times = BTreeMap::new();
        if batch * in_f * out_f <= 1 << 28 {
            times.insert("cpu_loop", median_cpu(|| cpu::dense_loop(&x, &w, &bias, &mut out, batch, in_f, out_f, act)));
        }
        times.insert("cpu_par", median_cpu(|| cpu::dense_par(&x, &w, &bias, &mut out, in_f, out_f, act)));
        let mut nd = cpu::NalgebraDense::new(&x, &w, &bias, batch, in_f, out_f, act);
        times.insert("cpu_nalgebra", median_cpu(|| nd.run()));
        let want = nd.result().to_vec();
        let mut dx = g(DeviceMatrix::from_host(gpu, batch, in_f, &x))?;
        let dw = g(DeviceMatrix::from_host(gpu, out_f, in_f, &w))?;
        let db = g(DeviceVector::from_host(gpu, &bias))?;
        let mut dy = g(DeviceMatrix::filled(gpu, batch, out_f, f32::NAN))?;
        g(dense_into(gpu, &dx, &dw, &db, act, &mut dy))?;
        let mut max_error = check("dense", &g(dy.to_host(gpu))?, &want, 1e-5)?;
        times.insert("gpu", median_kernel(gpu, || dense_into(gpu, &dx, &dw, &db, act, &mut dy))?);
        let bias_act = Epilogue::bias_act(&db, act);
        g(dy.fill(gpu, f32::NAN))?;
        g(gemm(gpu, &dx, Transpose::No, &dw, Transpose::Yes, bias_act, &mut dy, GemmKernel::Auto))?;
        max_error = max_error.max(check("dense via gemm", &g(dy.to_host(gpu))?, &want, 1e-5)?);
        times.insert("gpu_gemm", median_kernel(gpu, || gemm(gpu, &dx, Transpose::No, &dw, Transpose::Yes, bias_act, &mut dy, GemmKernel::Auto))?);
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
                    gemm(gpu, &dx, Transpose::No, &dw, Transpose::Yes, bias_act, &mut dy, GemmKernel::Auto)?;
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

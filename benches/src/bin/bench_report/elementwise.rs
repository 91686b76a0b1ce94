//! The elementwise rows of the report: vector add, sigmoid, matrix add.

use std::collections::BTreeMap;

use benches::anchor::find_anchor;
use benches::cpu;
use benches::metrics::{elementwise_bytes, random_f32};
use benches::timing::{context_synchronize, download_into};
use host::ops::activation::{SigmoidKernel, sigmoid_into};
use host::ops::elementwise::{MatAddKernel, VecAddKernel, mat_add_into_with, vec_add_into};
use host::{DeviceMatrix, DeviceVector};

use crate::{Ctx, OpReport, Res, Row, Series, Work, check, fastest, g, median_cpu, median_e2e, median_kernel};

pub(crate) fn vector_sizes() -> Vec<usize> {
    (10..=28).step_by(2).map(|p| 1usize << p).collect()
}

pub(crate) fn vec_add(ctx: &Ctx) -> Res<OpReport> {
    let gpu = &ctx.gpu;
    let mut rows = Vec::new();
    for n in vector_sizes() {
        let (a, b) = (random_f32(n as u64, n, -1.0, 1.0), random_f32(n as u64 + 1, n, -1.0, 1.0));
        let mut out = vec![f32::NAN; n];
        let mut times = BTreeMap::new();
        times.insert("cpu_loop", median_cpu(|| cpu::vec_add_loop(&a, &b, &mut out)));
        let want = out.clone();
        times.insert("cpu_par", median_cpu(|| cpu::vec_add_par(&a, &b, &mut out)));
        let mut da = g(DeviceVector::from_host(gpu, &a))?;
        let mut db = g(DeviceVector::from_host(gpu, &b))?;
        let mut dc = g(DeviceVector::filled(gpu, n, f32::NAN))?;
        let mut max_error = 0.0f64;
        for (key, kernel) in [("gpu_naive", VecAddKernel::Naive), ("gpu_vec4", VecAddKernel::Vectorized)] {
            g(dc.fill(gpu, f32::NAN))?;
            g(vec_add_into(gpu, &da, &db, &mut dc, kernel))?;
            max_error = max_error.max(check("vec_add", &g(dc.to_host(gpu))?, &want, 0.0)?);
            times.insert(key, median_kernel(gpu, || vec_add_into(gpu, &da, &db, &mut dc, kernel))?);
        }
        let best = fastest(&times, &["gpu_naive", "gpu_vec4"]);
        let kernel = if best == "gpu_naive" { VecAddKernel::Naive } else { VecAddKernel::Vectorized };
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

pub(crate) fn sigmoid(ctx: &Ctx) -> Res<OpReport> {
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
        for (key, kernel) in [("gpu_naive", SigmoidKernel::Naive), ("gpu_vec4", SigmoidKernel::Vectorized)] {
            g(dy.fill(gpu, f32::NAN))?;
            g(sigmoid_into(gpu, &dx, &mut dy, kernel))?;
            max_error = max_error.max(check("sigmoid", &g(dy.to_host(gpu))?, &want, 1e-6)?);
            times.insert(key, median_kernel(gpu, || sigmoid_into(gpu, &dx, &mut dy, kernel))?);
        }
        let best = fastest(&times, &["gpu_naive", "gpu_vec4"]);
        let kernel = if best == "gpu_naive" { SigmoidKernel::Naive } else { SigmoidKernel::Vectorized };
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
            Series { key: "cpu_loop", header: "CPU loop", gpu: false },
            Series { key: "cpu_par", header: "CPU threads (rayon)", gpu: false },
            Series { key: "gpu_naive", header: "GPU kernel, 1 elem/thread", gpu: true },
            Series { key: "gpu_vec4", header: "GPU kernel, float4 ×4 per thread", gpu: true },
            Series { key: "gpu_e2e", header: "GPU + copies", gpu: true },
        ],
        rows,
        ladder: Vec::new(),
        x_base: 10.0,
        notes: vec!["8 bytes per element (one read, one write).".into()],
    })
}

pub(crate) fn mat_add(ctx: &Ctx) -> Res<OpReport> {
    let gpu = &ctx.gpu;
    let mut rows = Vec::new();
    for n in [64usize, 128, 256, 512, 1024, 2048, 4096, 8192] {
        let (a, b) = (random_f32(n as u64 + 11, n * n, -1.0, 1.0), random_f32(n as u64 + 12, n * n, -1.0, 1.0));
        let mut out = vec![f32::NAN; n * n];
        let mut times = BTreeMap::new();
        times.insert("cpu_loop", median_cpu(|| cpu::mat_add_loop(&a, &b, &mut out, n, n)));
        let want = out.clone();
        times.insert("cpu_par", median_cpu(|| cpu::mat_add_par(&a, &b, &mut out, n)));
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
            Series { key: "cpu_loop", header: "CPU loop", gpu: false },
            Series { key: "cpu_par", header: "CPU threads (rayon)", gpu: false },
            Series { key: "gpu_2d", header: "GPU kernel (2-D blocks)", gpu: true },
            Series { key: "gpu_flat", header: "GPU kernel, flat float4 ×4 per thread", gpu: true },
            Series { key: "gpu_e2e", header: "GPU + copies", gpu: true },
        ],
        rows,
        ladder: Vec::new(),
        x_base: 2.0,
        notes: vec!["12 bytes per element.".into()],
    })
}

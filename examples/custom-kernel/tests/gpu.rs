//! The example's kernels against their CPU references on the GPU: fresh inputs, outputs poisoned
//! with NaN first, odd sizes. Without a CUDA device the GPU tests are reported as ignored (never
//! as passed); the CPU checks run everywhere.

use std::sync::Arc;

use custom_kernel::{KERNELS, cpu, first_mismatch, row_softmax, saxpy, transpose};
use host::{DeviceMatrix, DeviceVector, Error, Gpu};
use libtest_mimic::{Arguments, Failed, Trial};

/// Seeded inputs in [-4, 4) (SplitMix64).
fn inputs(seed: u64, n: usize) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32 * 8.0 - 4.0
        })
        .collect()
}

fn check(what: &str, got: &[f32], want: &[f32], rtol: f32, atol: f32) -> Result<(), Failed> {
    match first_mismatch(got, want, rtol, atol) {
        None => Ok(()),
        Some((i, g, w)) => Err(format!("{what}: index {i}: GPU {g}, CPU {w} (of {} values)", want.len()).into()),
    }
}

fn gpu_err(e: Error) -> Failed {
    e.to_string().into()
}

fn saxpy_test(gpu: &Gpu, n: usize) -> Result<(), Failed> {
    let kernels = gpu.load_kernels(&KERNELS).map_err(gpu_err)?;
    let (a, x, y0) = (1.5f32, inputs(n as u64, n), inputs(n as u64 + 1, n));
    let dx = DeviceVector::from_host(gpu, &x).map_err(gpu_err)?;
    let mut dy = DeviceVector::from_host(gpu, &y0).map_err(gpu_err)?;
    saxpy(&kernels, a, &dx, &mut dy).map_err(gpu_err)?;
    let got = dy.to_host(gpu).map_err(gpu_err)?;
    let mut want = y0;
    cpu::saxpy(a, &x, &mut want);
    check(&format!("saxpy n={n}"), &got, &want, 1e-6, 1e-6)
}

fn transpose_test(gpu: &Gpu, rows: usize, cols: usize) -> Result<(), Failed> {
    let kernels = gpu.load_kernels(&KERNELS).map_err(gpu_err)?;
    let src = inputs((rows * 7919 + cols) as u64, rows * cols);
    let dsrc = DeviceMatrix::from_host(gpu, rows, cols, &src).map_err(gpu_err)?;
    let mut ddst = DeviceMatrix::filled(gpu, cols, rows, f32::NAN).map_err(gpu_err)?;
    transpose(&kernels, &dsrc, &mut ddst).map_err(gpu_err)?;
    let got = ddst.to_host(gpu).map_err(gpu_err)?;
    check(&format!("transpose {rows}x{cols}"), &got, &cpu::transpose(&src, rows, cols), 0.0, 0.0)
}

fn softmax_test(gpu: &Gpu, rows: usize, cols: usize) -> Result<(), Failed> {
    let kernels = gpu.load_kernels(&KERNELS).map_err(gpu_err)?;
    let x = inputs((rows * 31 + cols) as u64, rows * cols);
    let dx = DeviceMatrix::from_host(gpu, rows, cols, &x).map_err(gpu_err)?;
    let mut dy = DeviceMatrix::filled(gpu, rows, cols, f32::NAN).map_err(gpu_err)?;
    row_softmax(&kernels, &dx, &mut dy).map_err(gpu_err)?;
    let got = dy.to_host(gpu).map_err(gpu_err)?;
    check(&format!("row_softmax {rows}x{cols}"), &got, &cpu::row_softmax(&x, cols), 1e-5, 1e-7)
}

type GpuTest = Box<dyn FnOnce(&Gpu) -> Result<(), Failed> + Send>;

fn main() {
    let args = Arguments::from_args();
    let gpu = match Gpu::new() {
        Ok(g) => Some(Arc::new(g)),
        Err(Error::NoDevice) => {
            eprintln!("no CUDA device: the GPU tests are reported as ignored (not passed)");
            None
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let mut trials = Vec::new();
    let mut on_gpu = |name: String, f: GpuTest| {
        let g = gpu.clone();
        let ignored = g.is_none();
        trials.push(Trial::test(name, move || f(g.as_deref().ok_or("no GPU")?)).with_ignored_flag(ignored));
    };
    for n in [1usize, 31, 1025, (1 << 20) + 3] {
        on_gpu(format!("gpu::saxpy::n_{n}"), Box::new(move |g| saxpy_test(g, n)));
    }
    for (rows, cols) in [(1, 1), (31, 33), (64, 32), (1000, 257)] {
        on_gpu(format!("gpu::transpose::{rows}x{cols}"), Box::new(move |g| transpose_test(g, rows, cols)));
    }
    for (rows, cols) in [(1, 1), (3, 31), (17, 1000), (256, 4097)] {
        on_gpu(format!("gpu::row_softmax::{rows}x{cols}"), Box::new(move |g| softmax_test(g, rows, cols)));
    }
    trials.push(Trial::test("cpu::embedded_ptx_has_every_kernel", || {
        for (arch, ptx, _) in KERNELS.images {
            let ptx = std::str::from_utf8(ptx).map_err(|_| format!("{arch}: PTX is not text"))?;
            for k in KERNELS.kernels.iter().filter(|k| k.available_on(arch)) {
                if !ptx.contains(&format!(".entry {}(", k.name)) {
                    return Err(format!("{arch}: no entry {}", k.name).into());
                }
            }
        }
        Ok(())
    }));
    trials.push(Trial::test("cpu::references", || {
        let t = cpu::transpose(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 2, 3);
        check("transpose", &t, &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0], 0.0, 0.0)?;
        let s = cpu::row_softmax(&[0.0, 0.0, 1000.0, 1000.0], 2);
        check("softmax", &s, &[0.5; 4], 0.0, 0.0)
    }));
    libtest_mimic::run(&args, trials).exit();
}

//! Each bad input maps to one typed error. Shape mismatches of every op are also covered next to
//! the op's own tests (tests/ops); here: devices, PTX files, sizes and data lengths.

use std::process::Command;

use host::launch::{Dim3, LaunchConfig, MAX_GRID};
use host::module::{PTX_SM80, PTX_SM90A, SOURCE_HASH};
use host::ops::dense::{Activation, dense};
use host::ops::matmul::{Epilogue, GemmKernel, Transpose, gemm, matmul};
use host::{DeviceMatrix, DeviceVector, Error, Gpu};
use integration_tests::{Suite, expect_err, gpu};

const CHILD_ENV: &str = "RELIABILITY_CHILD_CHECK";

/// In the child process (GPUs hidden by `CUDA_VISIBLE_DEVICES=`): `Gpu::new` must return
/// `Error::NoDevice`. Exit code 0 = as expected, 1 = anything else.
pub fn run_child_check_if_requested() -> bool {
    if std::env::var_os(CHILD_ENV).is_none() {
        return false;
    }
    let code = match Gpu::new() {
        Err(Error::NoDevice) => 0,
        Err(e) => {
            eprintln!("expected NoDevice, got {e}");
            1
        }
        Ok(_) => {
            eprintln!("expected NoDevice, got a GPU");
            1
        }
    };
    std::process::exit(code)
}

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("reliability-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

pub fn register(s: &mut Suite) {
    s.cpu("bad_input::no_device_is_a_typed_error", |_| {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let status = Command::new(exe).env(CHILD_ENV, "1").env("CUDA_VISIBLE_DEVICES", "").status().map_err(|e| e.to_string())?;
        if status.success() { Ok(()) } else { Err(format!("child with no visible GPU: {status}")) }
    });
    s.cpu("bad_input::launch_limits", |_| {
        let n = (MAX_GRID.x as usize + 1) * 256;
        if !matches!(LaunchConfig::for_num_elems("t", n, 256), Err(Error::TooLarge { .. })) {
            return Err("a grid over the x limit must be TooLarge".into());
        }
        let c = LaunchConfig { grid: Dim3::x(1), block: Dim3::x(2048), shared_mem_bytes: 0, ..LaunchConfig::default() };
        if !matches!(c.validate("t", 49_152), Err(Error::TooLarge { .. })) {
            return Err("2048 threads per block must be TooLarge".into());
        }
        Ok(())
    });
    s.gpu("bad_input::device_index_out_of_range", |_, _| {
        expect_err("device 4096", Gpu::with_device(4096), |e| matches!(e, Error::DeviceOutOfRange { index: 4096, .. }))
    });
    s.gpu("bad_input::ptx_files", |g, _| {
        expect_err("missing PTX", Gpu::with_ptx_file("/nonexistent/kernels.ptx"), |e| matches!(e, Error::PtxNotFound { .. }))?;
        let (sm80, sm90a) = (PTX_SM80.text(), PTX_SM90A.text());
        let stale = temp_file("stale.ptx", &sm80.replacen(SOURCE_HASH, "ffffffffffffffff", 1));
        expect_err("stale PTX", Gpu::with_ptx_file(&stale), |e| matches!(e, Error::StalePtx { .. }))?;
        // PTX for an architecture above the device's.
        let (major, minor) = g.info().compute_capability;
        let newer = format!("sm_{}{}", major + 1, minor);
        let too_new = temp_file("too-new.ptx", &sm80.replacen(".target sm_80", &format!(".target {newer}"), 1));
        expect_err("newer arch", Gpu::with_ptx_file(&too_new), |e| matches!(e, Error::PtxArchUnsupported { .. }))?;
        let hopper = (major, minor) == (9, 0);
        let p = temp_file("other.ptx", if hopper { sm80 } else { sm90a });
        match Gpu::with_ptx_file(&p) {
            Ok(other) if hopper => {
                // sm_80 PTX runs on newer GPUs through the JIT: prove it computes.
                let a = gpu(DeviceVector::from_host(&other, &[1.0f32, 2.0, 3.0]))?;
                let c = gpu(host::ops::elementwise::vec_add(&other, &a, &a))?;
                if gpu(c.to_host(&other))? != [2.0, 4.0, 6.0] {
                    return Err("sm_80 PTX from a file computed a wrong sum".into());
                }
                Ok(())
            }
            Ok(_) => Err("sm_90a PTX loaded on a non-9.0 device".into()),
            Err(Error::PtxArchUnsupported { .. }) if !hopper => Ok(()),
            Err(e) => Err(format!("loading {}: {e}", p.display())),
        }
    });
    s.gpu("bad_input::data_length_and_shapes", |g, _| {
        expect_err("3x3 from 8 values", DeviceMatrix::from_host(g, 3, 3, &[0.0; 8]), |e| matches!(e, Error::DataLength { .. }))?;
        expect_err("overflowing shape", DeviceMatrix::zeros(g, usize::MAX, 2), |e| matches!(e, Error::TooLarge { .. }))?;
        let m = gpu(DeviceMatrix::zeros(g, 2, 3))?;
        expect_err("reshape 2x3 to 4x2", m.reshape(4, 2), |e| matches!(e, Error::DataLength { .. }))?;
        let a = gpu(DeviceMatrix::zeros(g, 2, 3))?;
        let b = gpu(DeviceMatrix::zeros(g, 2, 3))?;
        expect_err("matmul 2x3·2x3", matmul(g, &a, &b), |e| matches!(e, Error::ShapeMismatch { .. }))?;
        // Aᵀ·B is 3×3: a 2×2 output is rejected.
        let mut wrong = gpu(DeviceMatrix::zeros(g, 2, 2))?;
        let r = gemm(g, &a, Transpose::Yes, &b, Transpose::No, Epilogue::default(), &mut wrong, GemmKernel::Auto);
        expect_err("gemm Aᵀ·B into 2x2", r, |e| matches!(e, Error::ShapeMismatch { .. }))?;
        let w = gpu(DeviceMatrix::zeros(g, 4, 3))?;
        let bias = gpu(DeviceVector::zeros(g, 3))?;
        expect_err("dense bias 3 for 4 outputs", dense(g, &a, &w, &bias, Activation::Relu), |e| matches!(e, Error::ShapeMismatch { .. }))?;
        let mut v = gpu(DeviceVector::filled(g, 3, 0.0))?;
        expect_err("copy 4 into 3", v.copy_from_host(g, &[0.0; 4]), |e| matches!(e, Error::ShapeMismatch { .. }))
    });
}

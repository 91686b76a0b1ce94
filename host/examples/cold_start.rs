//! How long a program waits for its first kernel: from `main` to the first result copied back
//! (context creation, module load, one `vec_add`), and which kernel image was loaded. Run it with
//! `CUDA_CACHE_DISABLE=1` for a fresh machine's first run; `KERNELS_FORCE_PTX=1` loads the PTX
//! instead of the cubin, so the driver JIT-compiles the kernels as it did before cubins were
//! embedded. `scripts/cold-start.sh` runs both and times whole processes.
//!
//!     cargo run --release -p host --example cold_start

use std::process::ExitCode;
use std::time::Instant;

use host::ops::elementwise::vec_add;
use host::{DeviceVector, Gpu};

fn main() -> ExitCode {
    let start = Instant::now();
    match run(start) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cold_start: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(start: Instant) -> host::Result<()> {
    let gpu = Gpu::new()?;
    let loaded = start.elapsed();
    let a = DeviceVector::from_host(&gpu, &[1.0f32, 2.0, 3.0])?;
    let b = DeviceVector::from_host(&gpu, &[10.0f32, 20.0, 30.0])?;
    let c = vec_add(&gpu, &a, &b)?.to_host(&gpu)?;
    let done = start.elapsed();
    if c != [11.0, 22.0, 33.0] {
        return Err(host::Error::InvalidArgument { op: "cold_start", reason: format!("vec_add returned {c:?}, expected [11, 22, 33]") });
    }
    let (major, minor) = gpu.info().compute_capability;
    println!(
        "first kernel done {:.3} s after main (Gpu::new {:.3} s); kernels: {} {:?}; {} (sm_{major}{minor})",
        done.as_secs_f64(),
        loaded.as_secs_f64(),
        gpu.ptx_arch(),
        gpu.kernel_image(),
        gpu.info().name
    );
    Ok(())
}

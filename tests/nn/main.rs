//! The MLP: data loaders (digits, IDX with malformed files), gradient checks of the CPU
//! reference against finite differences, CPU training, safetensors round trips; on the GPU, the
//! new kernels against the CPU reference, GPU vs CPU training from the same initial weights and
//! batches, the default run's accuracy, and save → load → evaluate.

use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use host::Gpu;
use integration_tests::{Suite, TestResult};
use rand::rngs::StdRng;

mod data;
mod gpu;
mod grad;
mod kernels;
mod model_io;
mod precision;

/// A CUDA graph capture must not overlap synchronous copies (legacy default stream) from other
/// threads on the same device, so the tests that capture run alone and the other GPU tests of
/// this binary share the lock.
static CAPTURE: RwLock<()> = RwLock::new(());

fn shared() -> RwLockReadGuard<'static, ()> {
    CAPTURE.read().unwrap_or_else(|p| p.into_inner())
}

fn exclusive() -> RwLockWriteGuard<'static, ()> {
    CAPTURE.write().unwrap_or_else(|p| p.into_inner())
}

/// A GPU test that may run beside the others (it captures no graph).
pub fn gpu_shared(s: &mut Suite, name: impl Into<String>, f: impl FnOnce(&Gpu, &mut StdRng) -> TestResult + Send + 'static) {
    s.gpu(name, move |g, rng| {
        let _lock = shared();
        f(g, rng)
    });
}

/// A GPU test that captures CUDA graphs: it runs alone.
pub fn gpu_exclusive(s: &mut Suite, name: impl Into<String>, f: impl FnOnce(&Gpu, &mut StdRng) -> TestResult + Send + 'static) {
    s.gpu(name, move |g, rng| {
        let _lock = exclusive();
        f(g, rng)
    });
}

fn main() {
    let mut suite = Suite::default();
    data::register(&mut suite);
    grad::register(&mut suite);
    model_io::register(&mut suite);
    precision::register(&mut suite);
    kernels::register(&mut suite);
    gpu::register(&mut suite);
    suite.run()
}

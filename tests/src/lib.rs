//! Test support shared by the integration tests: a suite whose GPU tests are reported as
//! *ignored* (never passed) when no CUDA device is present, seeded random inputs with the seed
//! in every failure message, and NaN-aware comparisons that name the first bad index.
//!
//! `KERNELS_TEST_SCALE` (read by [`scale`] and nowhere else) sets the workload of the slow tests:
//! unset or `full` for the normal sizes, `sanitize` for runs under compute-sanitizer, where every
//! launch costs tens to hundreds of times more (`scripts/sanitize` sets it). The sanitize scale
//! runs fewer property cases, concurrency repeats, leak-loop iterations and training epochs; it
//! skips no test and keeps every assertion and tolerance.

use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

use host::{Error, Gpu};
use libtest_mimic::{Arguments, Failed, Trial};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub type TestResult = Result<(), String>;

type GpuTest = Box<dyn FnOnce(&Gpu, &mut StdRng) -> TestResult + Send>;
type CpuTest = Box<dyn FnOnce(&mut StdRng) -> TestResult + Send>;

/// A list of tests; [`Suite::run`] hands them to libtest-mimic.
#[derive(Default)]
pub struct Suite {
    gpu: Vec<(String, GpuTest)>,
    /// With `true` where the test is reported ignored.
    cpu: Vec<(String, CpuTest, bool)>,
    multi_gpu: Vec<(String, CpuTest)>,
}

impl Suite {
    /// A test that needs the GPU. Each gets its own stream and a RNG seeded from the run seed and
    /// its name.
    pub fn gpu(&mut self, name: impl Into<String>, f: impl FnOnce(&Gpu, &mut StdRng) -> TestResult + Send + 'static) {
        self.gpu.push((name.into(), Box::new(f)));
    }

    /// A test that runs anywhere.
    pub fn cpu(&mut self, name: impl Into<String>, f: impl FnOnce(&mut StdRng) -> TestResult + Send + 'static) {
        self.cpu.push((name.into(), Box::new(f), false));
    }

    /// A test that runs anywhere but needs what this build may lack (`available`: e.g. the
    /// cubins, embedded only where the build found ptxas); reported ignored without it.
    pub fn cpu_if(&mut self, available: bool, name: impl Into<String>, f: impl FnOnce(&mut StdRng) -> TestResult + Send + 'static) {
        self.cpu.push((name.into(), Box::new(f), !available));
    }

    /// A test that needs at least [`MULTI_GPU_MIN`] GPUs and NCCL; it opens its own devices.
    /// Reported as ignored (never passed) where either is missing.
    pub fn multi_gpu(&mut self, name: impl Into<String>, f: impl FnOnce(&mut StdRng) -> TestResult + Send + 'static) {
        self.multi_gpu.push((name.into(), Box::new(f)));
    }

    /// Runs the suite and exits with libtest's status.
    pub fn run(self) -> ! {
        self.run_with(Arguments::from_args())
    }

    /// Runs one test at a time (for tests that measure process-wide state such as free memory).
    pub fn run_serial(self) -> ! {
        let mut args = Arguments::from_args();
        args.test_threads = Some(1);
        self.run_with(args)
    }

    fn run_with(self, args: Arguments) -> ! {
        let seed = run_seed();
        let scale = scale(); // a bad KERNELS_TEST_SCALE stops the run here, before any test
        let gpu = match Gpu::new() {
            Ok(g) => {
                eprintln!(
                    "GPU: {} (compute capability {}.{}, PTX {}); seed {seed}; workload scale {scale:?}",
                    g.info().name,
                    g.info().compute_capability.0,
                    g.info().compute_capability.1,
                    g.ptx_arch()
                );
                Ok(Arc::new(g))
            }
            Err(Error::NoDevice) => {
                eprintln!("no CUDA device: the {} GPU tests are reported as ignored (not passed); seed {seed}", self.gpu.len());
                Err(None)
            }
            Err(e) => Err(Some(e.to_string())),
        };
        let mut trials = Vec::new();
        for (name, f, ignored) in self.cpu {
            let s = name_seed(seed, &name);
            trials.push(
                Trial::test(format!("cpu::{name}"), move || {
                    f(&mut StdRng::seed_from_u64(s)).map_err(|e| Failed::from(format!("{e}\n(seed {seed}: rerun with TEST_SEED={seed})")))
                })
                .with_ignored_flag(ignored),
            );
        }
        if !self.multi_gpu.is_empty() {
            let (devices, nccl) = (host::context::device_count(), host::nccl::Nccl::get().map(|n| n.path().to_string()));
            let ready = devices as usize >= MULTI_GPU_MIN && nccl.is_ok();
            if !ready {
                let why = match &nccl {
                    Ok(_) => String::new(),
                    Err(e) => format!(" ({e})"),
                };
                eprintln!(
                    "{} GPU(s), NCCL {}: the {} multi-GPU tests are reported as ignored (not passed){why}",
                    devices,
                    if nccl.is_ok() { "found" } else { "not found" },
                    self.multi_gpu.len()
                );
            } else {
                eprintln!("{devices} GPUs, NCCL {}", nccl.as_deref().unwrap_or(""));
            }
            for (name, f) in self.multi_gpu {
                let s = name_seed(seed, &name);
                trials.push(
                    Trial::test(format!("multi_gpu::{name}"), move || {
                        f(&mut StdRng::seed_from_u64(s)).map_err(|e| Failed::from(format!("{e}\n(seed {seed}: rerun with TEST_SEED={seed})")))
                    })
                    .with_ignored_flag(!ready),
                );
            }
        }
        for (name, f) in self.gpu {
            let s = name_seed(seed, &name);
            let gpu = gpu.clone();
            let ignored = matches!(gpu, Err(None));
            trials.push(
                Trial::test(format!("gpu::{name}"), move || {
                    let gpu = match gpu {
                        Ok(g) => g,
                        Err(Some(e)) => return Err(Failed::from(format!("GPU initialisation failed: {e}"))),
                        Err(None) => return Err(Failed::from("no CUDA device")),
                    };
                    let stream = gpu.fork_stream().map_err(|e| Failed::from(e.to_string()))?;
                    f(&stream, &mut StdRng::seed_from_u64(s))
                        .and_then(|()| stream.synchronize().map_err(|e| e.to_string()))
                        .map_err(|e| Failed::from(format!("{e}\n(seed {seed}: rerun with TEST_SEED={seed})")))
                })
                .with_ignored_flag(ignored),
            );
        }
        libtest_mimic::run(&args, trials).exit()
    }
}

/// GPUs a [`Suite::multi_gpu`] test needs.
pub const MULTI_GPU_MIN: usize = 2;

/// The environment variable that selects the [`Scale`].
pub const SCALE_ENV: &str = "KERNELS_TEST_SCALE";

/// Workload size of the slow tests (property cases, concurrency repeats, leak-loop iterations,
/// training epochs). Only the amount of repetition changes, never what a test asserts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// The normal sizes (`KERNELS_TEST_SCALE` unset, empty or `full`).
    Full,
    /// `KERNELS_TEST_SCALE=sanitize`: small enough for compute-sanitizer's racecheck.
    Sanitize,
}

/// The scale from `KERNELS_TEST_SCALE`, read once. Any other value than `full` or `sanitize`
/// panics with the accepted values, so a typo cannot silently run the full sizes.
pub fn scale() -> Scale {
    static SCALE: OnceLock<Scale> = OnceLock::new();
    *SCALE.get_or_init(|| match std::env::var(SCALE_ENV) {
        Err(std::env::VarError::NotPresent) => Scale::Full,
        Ok(v) if v.is_empty() || v == "full" => Scale::Full,
        Ok(v) if v == "sanitize" => Scale::Sanitize,
        Ok(v) => panic!("{SCALE_ENV}={v:?}: expected `full` (the default) or `sanitize`"),
        Err(e) => panic!("{SCALE_ENV}: {e}"),
    })
}

/// `full` at the normal scale, `sanitize` under `KERNELS_TEST_SCALE=sanitize`.
pub fn scaled<T>(full: T, sanitize: T) -> T {
    match scale() {
        Scale::Full => full,
        Scale::Sanitize => sanitize,
    }
}

/// `TEST_SEED` if set, else fresh from the clock.
pub fn run_seed() -> u64 {
    std::env::var("TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1))
}

fn name_seed(seed: u64, name: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    name.hash(&mut h);
    seed ^ h.finish()
}

/// `n` values uniform in [lo, hi).
pub fn uniform(rng: &mut StdRng, n: usize, lo: f32, hi: f32) -> Vec<f32> {
    (0..n).map(|_| rng.random_range(lo..hi)).collect()
}

/// Checks `got` against an f64 reference: |got − want| ≤ max(rtol·|want|, atol) elementwise, NaN
/// only where the reference is NaN, infinities equal. Reports the first offending index.
pub fn assert_close(what: &str, got: &[f32], want: &[f64], rtol: f64, atol: f64) -> TestResult {
    if got.len() != want.len() {
        return Err(format!("{what}: length {} vs reference {}", got.len(), want.len()));
    }
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let g = g as f64;
        let ok = if w.is_nan() {
            g.is_nan()
        } else if w.is_infinite() {
            g == w
        } else {
            !g.is_nan() && (g - w).abs() <= (rtol * w.abs()).max(atol)
        };
        if !ok {
            return Err(format!("{what}: element {i} is {g:e}, reference {w:e} (rtol {rtol:e}, atol {atol:e}; {} elements)", got.len()));
        }
    }
    Ok(())
}

/// Products below f32's normal range are rounded to a fixed grid of 2⁻¹⁴⁹ ≈ 1.4e-45, not
/// relatively: allow one grid step for each of up to 10⁴ such terms.
pub const SUBNORMAL_FLOOR: f64 = 1.4e-41;

/// Elementwise bound for sums of products: |got − want| ≤ tol·Σ|terms| (`magnitude`), the
/// natural scale of the rounding error of a dot product (plus [`SUBNORMAL_FLOOR`]), and NaN
/// checks.
pub fn assert_close_scaled(what: &str, got: &[f32], want: &[f64], magnitude: &[f64], tol: f64) -> TestResult {
    for (i, ((&g, &w), &m)) in got.iter().zip(want).zip(magnitude).enumerate() {
        let err = (g as f64 - w).abs();
        if g.is_nan() || err > tol * m + SUBNORMAL_FLOOR {
            return Err(format!("{what}: element {i} is {g:e}, reference {w:e}, error {err:e} > {tol:e}·{m:e} ({} elements)", got.len()));
        }
    }
    if got.len() != want.len() {
        return Err(format!("{what}: length {} vs reference {}", got.len(), want.len()));
    }
    Ok(())
}

/// Exact equality (for results IEEE arithmetic fixes, like a single f32 addition).
pub fn assert_bitwise_eq(what: &str, got: &[f32], want: &[f32]) -> TestResult {
    if got.len() != want.len() {
        return Err(format!("{what}: length {} vs reference {}", got.len(), want.len()));
    }
    match got.iter().zip(want).position(|(g, w)| g.to_bits() != w.to_bits() && !(g.is_nan() && w.is_nan())) {
        None => Ok(()),
        Some(i) => Err(format!("{what}: element {i} is {:e}, reference {:e}", got[i], want[i])),
    }
}

/// Turns a host error into a test failure message.
pub fn gpu<T>(r: host::Result<T>) -> Result<T, String> {
    r.map_err(|e| e.to_string())
}

/// Expects a specific error variant.
pub fn expect_err<T>(what: &str, r: host::Result<T>, pred: impl Fn(&Error) -> bool) -> TestResult {
    match r {
        Ok(_) => Err(format!("{what}: expected an error, got Ok")),
        Err(e) if pred(&e) => Ok(()),
        Err(e) => Err(format!("{what}: unexpected error: {e}")),
    }
}

/// Σ|a_ip|·|b_pj| for row-major A (m×k) and B (k×n): the scale of a matmul's rounding error.
pub fn matmul_magnitude(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f64> {
    let aa: Vec<f32> = a.iter().map(|v| v.abs()).collect();
    let bb: Vec<f32> = b.iter().map(|v| v.abs()).collect();
    host::reference::matmul_f64(&aa, &bb, m, k, n)
}

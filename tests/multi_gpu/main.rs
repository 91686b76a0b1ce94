//! Data-parallel training over NCCL: replicas stay bitwise identical and match one GPU at the same
//! global batch, a failed rank stops every rank within the timeout, and the multi-process path
//! (`scripts/launch-local`, TCP rendezvous) trains the same weights on each process. These need
//! two GPUs and NCCL and are reported as ignored elsewhere; the launcher and the missing-NCCL
//! error are checked anywhere.
//!
//! Run as a rank of a multi-process test (by the launcher), this binary trains instead of testing:
//! see [`WORKER_ENV`].

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use host::dist::DistEnv;
use host::nccl::Nccl;
use host::nn::data::{self, Dataset};
use host::nn::parallel::{self, InjectedFault, ParallelConfig};
use host::nn::train::{self, TrainConfig};
use host::nn::{Activation, Optimizer, Params};
use host::{Error, Gpu};
use integration_tests::{Suite, TestResult, assert_bitwise_eq, assert_close, gpu};

/// The multi-GPU cases use the same two GPUs: they run one at a time (two communicators on the same
/// devices at once can deadlock, and a graph capture must not meet another test's synchronous
/// copies on its device).
static SERIAL: Mutex<()> = Mutex::new(());

/// A case of [`Suite::multi_gpu`] that holds [`SERIAL`].
fn serial(f: impl FnOnce() -> TestResult) -> TestResult {
    let _one = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    f()
}

/// Set to a folder: this process is a rank of the two-process test; it trains and writes its
/// parameters there as `rank<R>.f32`.
const WORKER_ENV: &str = "KERNELS_MULTI_GPU_WORKER";

/// 2 GPUs at global batch B against 1 GPU at B, after one epoch (22 steps): the runs differ only
/// in how each batch's gradient sum is ordered (two halves added by NCCL against one GEMM
/// reduction), about 1e-7 relative per step in f32; the bound leaves a wide margin for its growth.
const PARAM_RTOL: f64 = 1e-3;
const PARAM_ATOL: f64 = 1e-4;
/// The mean loss of the epoch, same reason.
const LOSS_RTOL: f64 = 1e-4;

fn digits_split() -> Result<(Dataset, Dataset), String> {
    data::digits().and_then(|d| d.stratified_split(0.2, 11)).map_err(|e| e.to_string())
}

fn config(optimizer: Optimizer, graph: bool) -> TrainConfig {
    TrainConfig {
        hidden: vec![48, 32],
        act: Activation::Relu,
        epochs: 1,
        batch: 64,
        optimizer,
        seed: 5,
        log_every: 0,
        graph,
        init: None,
        precision: host::nn::Precision::F32,
    }
}

fn flat(p: &Params) -> Vec<f32> {
    p.layers.iter().flat_map(|l| l.w.iter().chain(&l.b).copied()).collect()
}

/// The single-GPU run every data-parallel run is compared with.
fn one_gpu(cfg: &TrainConfig, train: &Dataset, test: &Dataset) -> Result<train::TrainOutcome, String> {
    let g = gpu(Gpu::with_device(0))?;
    gpu(train::train_gpu(&g, cfg, train, test, &mut |_| {}))
}

fn matches_one_gpu(what: &str, got: &Params, loss: f64, want: &train::TrainOutcome) -> TestResult {
    let wl = want.epochs[0].mean_loss;
    let within = (loss - wl).abs() <= LOSS_RTOL * wl.abs(); // false for NaN too
    if !within {
        return Err(format!("{what}: mean loss {loss} on 2 GPUs, {wl} on one (relative tolerance {LOSS_RTOL:e})"));
    }
    let reference: Vec<f64> = flat(&want.params).iter().map(|&v| v as f64).collect();
    assert_close(&format!("{what}: parameters on 2 GPUs against 1 GPU"), &flat(got), &reference, PARAM_RTOL, PARAM_ATOL)
}

fn identical_and_matching(optimizer: Optimizer, graph: bool) -> TestResult {
    let (train, test) = digits_split()?;
    let cfg = config(optimizer, graph);
    let out = gpu(parallel::train_data_parallel(&cfg, &ParallelConfig::new(vec![0, 1]), &train, &test, &mut |_| {}))?;
    if out.world() != 2 {
        return Err(format!("{} replicas reported, expected 2", out.world()));
    }
    let (a, b) = (flat(&out.replicas[0].params), flat(&out.replicas[1].params));
    assert_bitwise_eq("replica 1 against replica 0", &b, &a)?;
    if graph && !out.outcome.graph {
        return Err("the steps after the first should replay a CUDA graph (all-reduces included)".into());
    }
    matches_one_gpu(&format!("{optimizer:?}"), &out.replicas[0].params, out.outcome.epochs[0].mean_loss, &one_gpu(&cfg, &train, &test)?)
}

fn fault_stops_every_rank() -> TestResult {
    let (train, test) = digits_split()?;
    let cfg = TrainConfig { epochs: 2, ..config(Optimizer::sgd(0.05, 0.9), true) };
    let timeout = Duration::from_secs(10);
    let par = ParallelConfig { timeout, fault: Some(InjectedFault { rank: 1, step: 5 }), ..ParallelConfig::new(vec![0, 1]) };
    let t0 = Instant::now();
    let (results, failed) = gpu(parallel::train_each(&cfg, &par, &train, &test, &mut |_| {}))?;
    let took = t0.elapsed();
    // Set-up (contexts, data, NCCL init) plus one timeout at most.
    let limit = timeout + Duration::from_secs(20);
    if took > limit {
        return Err(format!("the ranks took {took:?} to stop (limit {limit:?})"));
    }
    if failed != Some(1) {
        return Err(format!("the failed rank is reported as {failed:?}, expected 1"));
    }
    match &results[1] {
        Err(Error::RankFailed { rank: 1, source }) if source.to_string().contains("injected fault") => {}
        other => return Err(format!("rank 1: expected its injected fault, got {:?}", other.as_ref().err())),
    }
    match &results[0] {
        Err(Error::PeerFailed { rank: 0, failed: 1 }) => {}
        Err(Error::RankFailed { rank: 0, source }) if matches!(**source, Error::CollectiveTimeout { .. } | Error::Nccl { .. }) => {}
        other => return Err(format!("rank 0: expected an error naming rank 1 (or its timeout), got {:?}", other.as_ref().err())),
    }
    match parallel::train_data_parallel(&cfg, &par, &train, &test, &mut |_| {}) {
        Err(Error::RankFailed { rank: 1, .. }) => Ok(()),
        other => Err(format!("the combined result should name rank 1: {:?}", other.err())),
    }
}

/// `scripts/launch-local`: `KERNELS_LAUNCH_LOCAL`, else beside the bundle's `tests/` folder
/// (`scripts/gpu-bundle` copies it there), else in this checkout.
fn launcher() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("KERNELS_LAUNCH_LOCAL") {
        return Ok(PathBuf::from(p));
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let bundled = exe.parent().and_then(Path::parent).map(|d| d.join("launch-local"));
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/launch-local");
    bundled.into_iter().chain([checkout]).find(|p| p.is_file()).ok_or_else(|| "scripts/launch-local not found (set KERNELS_LAUNCH_LOCAL)".into())
}

/// A fresh folder under the system's temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Result<TempDir, String> {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let p = std::env::temp_dir().join(format!("kernels-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        Ok(TempDir(p))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

fn read_f32(path: &Path) -> Result<Vec<f32>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

fn two_processes() -> TestResult {
    let dir = TempDir::new("multi-gpu")?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = Command::new(launcher()?)
        .args(["2", "--"])
        .arg(&exe)
        .env(WORKER_ENV, &dir.0)
        .env("MASTER_ADDR", "127.0.0.1")
        .env("MASTER_PORT", free_port()?.to_string())
        .env("LAUNCH_GRACE", "30")
        .output()
        .map_err(|e| format!("cannot run the launcher: {e}"))?;
    if !out.status.success() {
        return Err(format!("launch-local 2 exited with {}:\n{}{}", out.status, String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)));
    }
    let (a, b) = (read_f32(&dir.0.join("rank0.f32"))?, read_f32(&dir.0.join("rank1.f32"))?);
    assert_bitwise_eq("process 1 against process 0", &b, &a)?;
    let (train, test) = digits_split()?;
    let want = one_gpu(&config(Optimizer::sgd(0.05, 0.9), true), &train, &test)?;
    let reference: Vec<f64> = flat(&want.params).iter().map(|&v| v as f64).collect();
    assert_close("parameters of 2 processes against 1 GPU", &a, &reference, PARAM_RTOL, PARAM_ATOL)
}

/// One rank of [`two_processes`].
fn worker(dir: &Path) -> Result<(), String> {
    let env = gpu(DistEnv::from_env())?.ok_or("WORLD_SIZE is not set")?;
    let (train, test) = digits_split()?;
    let cfg = config(Optimizer::sgd(0.05, 0.9), true);
    let (mine, _) = gpu(parallel::train_distributed(&env, &cfg, Duration::from_secs(60), &train, &test, &mut |_| {}))?;
    let bytes: Vec<u8> = flat(&mine.params).iter().flat_map(|v| v.to_le_bytes()).collect();
    let path = dir.join(format!("rank{}.f32", env.rank));
    std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn launcher_sets_the_variables() -> TestResult {
    let out = Command::new(launcher()?)
        .args(["2", "--", "sh", "-c", "echo \"$RANK/$LOCAL_RANK/$WORLD_SIZE/$MASTER_ADDR/$MASTER_PORT\""])
        .env("MASTER_PORT", "29999")
        .output()
        .map_err(|e| format!("cannot run the launcher: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    for want in ["[rank 0] 0/0/2/127.0.0.1/29999", "[rank 1] 1/1/2/127.0.0.1/29999"] {
        if !text.contains(want) {
            return Err(format!("launcher output lacks {want:?}:\n{text}"));
        }
    }
    let failing = Command::new(launcher()?).args(["2", "--", "sh", "-c", "exit $((RANK * 3))"]).status().map_err(|e| e.to_string())?;
    if failing.code() != Some(3) {
        return Err(format!("a failing rank should make the launcher exit 3, got {failing}"));
    }
    Ok(())
}

fn main() -> ExitCode {
    if let Some(dir) = std::env::var_os(WORKER_ENV) {
        return match worker(Path::new(&dir)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let mut s = Suite::default();
    s.cpu("launcher_sets_the_torchrun_variables", |_| launcher_sets_the_variables());
    s.cpu_if(!Nccl::available(), "several_gpus_without_nccl_say_what_to_install", |_| {
        let (train, test) = digits_split()?;
        let r = parallel::train_data_parallel(&config(Optimizer::sgd(0.05, 0.9), true), &ParallelConfig::new(vec![0, 1]), &train, &test, &mut |_| {});
        match r {
            Err(Error::NcclUnavailable { .. }) => Ok(()),
            other => Err(format!("expected NcclUnavailable, got {:?}", other.err())),
        }
    });
    for (name, opt, graph) in [
        ("sgd_momentum_graph", Optimizer::sgd(0.05, 0.9), true),
        ("sgd_momentum_eager", Optimizer::sgd(0.05, 0.9), false),
        ("plain_sgd_graph", Optimizer::sgd(0.05, 0.0), true),
        ("adam_graph", Optimizer::adam(1e-3), true),
    ] {
        s.multi_gpu(format!("replicas_identical_and_match_one_gpu_{name}"), move |_| serial(|| identical_and_matching(opt, graph)));
    }
    s.multi_gpu("a_failed_rank_stops_every_rank_within_the_timeout", |_| serial(fault_stops_every_rank));
    s.multi_gpu("two_processes_through_the_launcher", |_| serial(two_processes));
    s.run()
}

//! Data-parallel training over NCCL: one replica of the network per GPU, each on its own thread
//! (or process), context and stream, all starting from the same parameters.
//!
//! Every global batch (the same seeded shuffle as [`train_gpu`]) is split evenly: replica `r` of
//! `n` takes rows `r·B/n .. (r+1)·B/n` of it. Each replica runs the single-GPU [`Trainer`] step
//! with the loss averaged over the global batch, so summing the gradients over the replicas gives
//! the global mean. The sum is an NCCL all-reduce per layer (weight and bias gradients in one
//! group), queued on the replica's stream as soon as that layer's backward is done, then every
//! replica runs the same optimizer step on the same summed gradients and the weights stay
//! identical. The all-reduces are queued on the same stream as the backward pass, so they do not
//! yet overlap with it; they are recorded into the step's CUDA graph with the rest (NCCL ≥ 2.9
//! supports capturing collectives), and if a capture fails the trainer falls back to launching
//! each kernel and collective eagerly.
//!
//! Faults: every replica waits for its stream under a timeout at each progress point (at most
//! [`SYNC_EVERY`] steps apart), polling NCCL's asynchronous error. A replica that fails marks the
//! shared stop flag and aborts its communicator; the other replicas in the process see the flag
//! and stop with [`Error::PeerFailed`]; a replica in another process sees its collectives stall
//! and stops with [`Error::CollectiveTimeout`]. No rank hangs.

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use super::Params;
use super::data::Dataset;
use super::gpu::{DeviceDataset, Trainer};
use super::train::{EpochReport, Progress, TrainConfig, TrainOutcome, epoch_order, train_gpu};
use crate::buffer::DeviceVector;
use crate::context::Gpu;
use crate::dist::DistEnv;
use crate::error::{Error, Result, check};
use crate::nccl::{Communicator, Nccl, StopFlag, UniqueId};

/// The most steps a replica queues before it waits for its stream (the timeout covers the steps
/// queued between two waits).
pub const SYNC_EVERY: usize = 64;

/// Default timeout of communicator set-up and of each wait for queued collectives.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// How a data-parallel run is spread.
#[derive(Debug, Clone)]
pub struct ParallelConfig {
    /// One replica per entry (CUDA device ordinals); rank `r` runs on `devices[r]`.
    pub devices: Vec<u32>,
    /// Timeout of communicator set-up and of each wait for queued steps.
    pub timeout: Duration,
    /// For tests of the fault path: rank `rank` fails just before its global step `step`.
    pub fault: Option<InjectedFault>,
}

impl ParallelConfig {
    pub fn new(devices: Vec<u32>) -> ParallelConfig {
        ParallelConfig { devices, timeout: DEFAULT_TIMEOUT, fault: None }
    }
}

/// A failure injected into one rank, standing for a kernel error or an out-of-memory there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InjectedFault {
    pub rank: usize,
    /// 0-based step count over the whole run.
    pub step: usize,
}

/// What one replica did.
#[derive(Debug, Clone)]
pub struct ReplicaReport {
    pub rank: usize,
    pub device: u32,
    /// Its final parameters (identical on every replica).
    pub params: Params,
    /// Its epochs; `samples_per_sec` counts its own share of each global batch.
    pub epochs: Vec<EpochReport>,
}

/// The result of a data-parallel run: rank 0's outcome, whose `samples_per_sec` counts the
/// global batches (all GPUs together), and every replica's own report.
#[derive(Debug, Clone)]
pub struct ParallelOutcome {
    pub outcome: TrainOutcome,
    pub replicas: Vec<ReplicaReport>,
}

impl ParallelOutcome {
    pub fn world(&self) -> usize {
        self.replicas.len()
    }
}

/// Checks what a run on `world` replicas needs before any GPU work: a global batch that splits
/// evenly, and NCCL when `world > 1`.
pub fn check_parallel(cfg: &TrainConfig, world: usize) -> Result<()> {
    crate::nn::train::f32_only("DataParallel", cfg.precision)?;
    if world == 0 {
        return Err(Error::InvalidArgument { op: "DataParallel", reason: "no devices given".into() });
    }
    if !cfg.batch.is_multiple_of(world) {
        return Err(Error::InvalidArgument {
            op: "DataParallel",
            reason: format!("the global batch {} does not split evenly over {world} GPUs (it must be a multiple of {world})", cfg.batch),
        });
    }
    if world > 1 {
        Nccl::get()?;
    }
    Ok(())
}

/// Trains on every GPU in `par.devices`, one thread per replica. With one device this is
/// [`train_gpu`] on it (NCCL is not needed).
pub fn train_data_parallel(
    cfg: &TrainConfig,
    par: &ParallelConfig,
    train: &Dataset,
    test: &Dataset,
    progress: &mut dyn FnMut(Progress),
) -> Result<ParallelOutcome> {
    let world = par.devices.len();
    check_parallel(cfg, world)?;
    if world == 1 {
        let gpu = Gpu::with_device(par.devices[0])?;
        let outcome = train_gpu(&gpu, cfg, train, test, progress)?;
        let replica = ReplicaReport { rank: 0, device: par.devices[0], params: outcome.params.clone(), epochs: outcome.epochs.clone() };
        return Ok(ParallelOutcome { outcome, replicas: vec![replica] });
    }
    let (results, failed) = train_each(cfg, par, train, test, progress)?;
    collect(results, failed)
}

/// What each replica of a run on several GPUs returned (rank order), and the rank that failed
/// first, if one did. [`train_data_parallel`] combines these into one result.
pub type EachResult = (Vec<Result<(ReplicaReport, TrainOutcome)>>, Option<usize>);

/// [`train_data_parallel`] on two or more devices, keeping every replica's own result (for
/// tests of the fault path: the failed rank's error and the others' errors).
pub fn train_each(cfg: &TrainConfig, par: &ParallelConfig, train: &Dataset, test: &Dataset, progress: &mut dyn FnMut(Progress)) -> Result<EachResult> {
    let world = par.devices.len();
    check_parallel(cfg, world)?;
    let id = Nccl::get()?.unique_id()?;
    let stop = StopFlag::default();
    let barrier = Barrier::new(world);
    let results: Vec<Result<(ReplicaReport, TrainOutcome)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (1..world)
            .map(|rank| {
                let ctx = Ctx { rank, world, device: par.devices[rank], id: Some(id), stop: Some(&stop), barrier: Some(&barrier), par };
                std::thread::Builder::new().name(format!("replica-{rank}")).spawn_scoped(s, move || run_replica(&ctx, cfg, train, test, &mut |_| {}))
            })
            .collect();
        let ctx = Ctx { rank: 0, world, device: par.devices[0], id: Some(id), stop: Some(&stop), barrier: Some(&barrier), par };
        let mut out = vec![run_replica(&ctx, cfg, train, test, progress)];
        for (i, h) in handles.into_iter().enumerate() {
            out.push(match h {
                Ok(h) => h.join().unwrap_or_else(|_| Err(Error::RankFailed { rank: i + 1, source: Box::new(Error::Io("the replica thread panicked".into())) })),
                Err(e) => Err(Error::RankFailed { rank: i + 1, source: Box::new(Error::Io(format!("cannot start the replica thread: {e}"))) }),
            });
        }
        out
    });
    Ok((results, stop.failed()))
}

/// Combines the replicas' results: the first failure by time (else any error) becomes the
/// error, naming its rank.
fn collect(results: Vec<Result<(ReplicaReport, TrainOutcome)>>, failed: Option<usize>) -> Result<ParallelOutcome> {
    let mut reports = Vec::with_capacity(results.len());
    let mut first = None;
    let mut errors = Vec::new();
    for (rank, r) in results.into_iter().enumerate() {
        match r {
            Ok((rep, out)) => {
                if rank == 0 {
                    first = Some(out);
                }
                reports.push(rep);
            }
            Err(e) => errors.push((rank, e)),
        }
    }
    if !errors.is_empty() {
        let pick = errors.iter().position(|(r, _)| Some(*r) == failed).unwrap_or(0);
        let (rank, e) = errors.swap_remove(pick);
        return Err(match e {
            e @ Error::RankFailed { .. } => e,
            e => Error::RankFailed { rank, source: Box::new(e) },
        });
    }
    let outcome = first.ok_or_else(|| Error::Io("rank 0 returned no outcome".into()))?;
    Ok(ParallelOutcome { outcome, replicas: reports })
}

/// Runs this process's replica of a multi-process run (one GPU per process, `env.local_rank`),
/// getting the NCCL id from rank 0 over the TCP rendezvous. Only rank 0 should show `progress`.
/// The outcome's `samples_per_sec` counts the global batches.
pub fn train_distributed(
    env: &DistEnv,
    cfg: &TrainConfig,
    timeout: Duration,
    train: &Dataset,
    test: &Dataset,
    progress: &mut dyn FnMut(Progress),
) -> Result<(ReplicaReport, TrainOutcome)> {
    check_parallel(cfg, env.world)?;
    let device = u32::try_from(env.local_rank).map_err(|_| Error::Distributed(format!("LOCAL_RANK {} is not a device index", env.local_rank)))?;
    let bytes = env.rendezvous(timeout, || Ok(Nccl::get()?.unique_id()?.bytes))?;
    let par = ParallelConfig { devices: vec![device], timeout, fault: None };
    let ctx = Ctx { rank: env.rank, world: env.world, device, id: Some(UniqueId { bytes }), stop: None, barrier: None, par: &par };
    run_replica(&ctx, cfg, train, test, progress)
}

/// Where one replica runs and how it meets the others.
struct Ctx<'a> {
    rank: usize,
    world: usize,
    device: u32,
    id: Option<UniqueId>,
    /// Replicas in this process share a stop flag and a set-up barrier.
    stop: Option<&'a StopFlag>,
    barrier: Option<&'a Barrier>,
    par: &'a ParallelConfig,
}

/// Fields drop in order: buffers and the communicator before the stream they were used on.
struct Replica {
    trainer: Trainer,
    test: DeviceDataset,
    loss_total: DeviceVector<f32>,
    comm: Arc<Communicator>,
    gpu: Gpu,
}

/// Builds and runs one replica; every error is tagged with the rank and marks the stop flag.
fn run_replica(ctx: &Ctx, cfg: &TrainConfig, train: &Dataset, test: &Dataset, progress: &mut dyn FnMut(Progress)) -> Result<(ReplicaReport, TrainOutcome)> {
    let fail = |e: Error| {
        if let Some(s) = ctx.stop
            && !matches!(e, Error::PeerFailed { .. })
        {
            s.fail(ctx.rank);
        }
        match e {
            e @ (Error::PeerFailed { .. } | Error::RankFailed { .. }) => e,
            e => Error::RankFailed { rank: ctx.rank, source: Box::new(e) },
        }
    };
    // Set-up that can fail locally happens before the communicator: a replica that fails here
    // tells the others at the barrier instead of leaving them blocked in the NCCL init.
    let local = setup(ctx, cfg, train, test);
    if local.is_err()
        && let Some(s) = ctx.stop
    {
        s.fail(ctx.rank);
    }
    if let Some(b) = ctx.barrier {
        b.wait();
    }
    let (gpu, mut trainer, test_dev) = local.map_err(fail)?;
    if let Some(failed) = ctx.stop.and_then(StopFlag::failed) {
        return Err(Error::PeerFailed { rank: ctx.rank, failed });
    }
    let id = ctx.id.ok_or_else(|| fail(Error::Distributed("no NCCL id".into())))?;
    let comm = Arc::new(Communicator::init(&gpu, id, ctx.rank, ctx.world, ctx.par.timeout).map_err(fail)?);
    trainer.attach_communicator(Arc::clone(&comm), cfg.batch).map_err(fail)?;
    let loss_total = DeviceVector::zeros(&gpu, 1).map_err(fail)?;
    let mut r = Replica { trainer, test: test_dev, loss_total, comm, gpu };
    let out = epochs(ctx, cfg, train.rows(), &mut r, progress);
    if out.is_err() {
        r.comm.abort();
    }
    out.map_err(fail)
}

fn setup(ctx: &Ctx, cfg: &TrainConfig, train: &Dataset, test: &Dataset) -> Result<(Gpu, Trainer, DeviceDataset)> {
    let gpu = Gpu::with_device(ctx.device)?;
    let params = cfg.initial_params(train)?;
    let mut trainer = Trainer::new(&gpu, &params, cfg.optimizer, cfg.batch / ctx.world, DeviceDataset::upload(&gpu, train)?)?;
    trainer.set_graph(cfg.graph);
    let test_dev = DeviceDataset::upload(&gpu, test)?;
    gpu.synchronize()?;
    Ok((gpu, trainer, test_dev))
}

/// The training loop of one replica: [`train_gpu`]'s, with this replica's share of each batch,
/// timed waits instead of synchronizations, and the loss summed over the replicas.
fn epochs(ctx: &Ctx, cfg: &TrainConfig, rows: usize, r: &mut Replica, progress: &mut dyn FnMut(Progress)) -> Result<(ReplicaReport, TrainOutcome)> {
    let (batch, local) = (cfg.batch, cfg.batch / ctx.world);
    let steps = rows / batch;
    let wait = |r: &Replica| r.comm.wait(&r.gpu, ctx.stop);
    let mut mine = Vec::with_capacity(cfg.epochs);
    let mut global = Vec::with_capacity(cfg.epochs);
    let mut done_steps = 0usize;
    for epoch in 0..cfg.epochs {
        let order = epoch_order(cfg.seed, epoch, rows);
        let share: Vec<u32> = (0..steps).flat_map(|s| order[s * batch + ctx.rank * local..s * batch + (ctx.rank + 1) * local].iter().copied()).collect();
        r.trainer.set_rows(&r.gpu, &share)?;
        r.trainer.reset_loss(&r.gpu)?;
        wait(r)?;
        progress(Progress::EpochStart { epoch, steps });
        let t0 = Instant::now();
        for s in 1..=steps {
            if let Some(f) = ctx.par.fault
                && f.rank == ctx.rank
                && f.step == done_steps
            {
                return Err(Error::InvalidArgument { op: "DataParallel", reason: format!("injected fault before step {done_steps}") });
            }
            r.trainer.step(&r.gpu)?;
            done_steps += 1;
            let log = cfg.log_every > 0 && s % cfg.log_every == 0 && s < steps;
            if log {
                let loss = global_loss(r, ctx.stop)?;
                progress(Progress::Steps { epoch, done: s, running_loss: loss / s as f64 });
            } else if s % SYNC_EVERY == 0 {
                wait(r)?;
            }
        }
        let loss = global_loss(r, ctx.stop)? / steps as f64;
        let seconds = t0.elapsed().as_secs_f64();
        progress(Progress::Steps { epoch, done: steps, running_loss: loss });
        let test_accuracy = r.trainer.mlp.evaluate(&r.gpu, &r.test)?;
        let report = |n: usize| EpochReport { epoch, mean_loss: loss, seconds, samples_per_sec: (steps * n) as f64 / seconds, test_accuracy };
        mine.push(report(local));
        global.push(report(batch));
        progress(Progress::EpochEnd(&global[epoch]));
    }
    wait(r)?;
    let params = r.trainer.params(&r.gpu)?;
    let test_accuracy = global.last().map_or(0.0, |e| e.test_accuracy);
    let outcome = TrainOutcome { params: params.clone(), epochs: global, test_accuracy, graph: r.trainer.graph_active() };
    Ok((ReplicaReport { rank: ctx.rank, device: ctx.device, params, epochs: mine }, outcome))
}

/// The sum of the batch mean losses so far, over every replica (each holds its share): a copy of
/// the accumulator is all-reduced, then read after a timed wait.
fn global_loss(r: &mut Replica, stop: Option<&StopFlag>) -> Result<f64> {
    r.gpu.bind()?;
    let src = r.trainer.loss_sum_buffer();
    // SAFETY: both buffers hold one f32 on this device; the copy is ordered on our stream.
    check(unsafe { cust::sys::cuMemcpyDtoDAsync_v2(r.loss_total.device_ptr(), src.device_ptr(), 4, r.gpu.stream().as_inner()) }, "cuMemcpyDtoDAsync")?;
    r.comm.all_reduce_sum(&r.gpu, &mut r.loss_total)?;
    r.comm.wait(&r.gpu, stop)?;
    Ok(r.loss_total.to_host(&r.gpu)?[0] as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_uneven_split_is_refused_before_any_gpu_work() {
        let cfg = TrainConfig { batch: 33, ..TrainConfig::default() };
        match check_parallel(&cfg, 2) {
            Err(Error::InvalidArgument { reason, .. }) => assert!(reason.contains("multiple of 2"), "{reason}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(check_parallel(&cfg, 0), Err(Error::InvalidArgument { .. })));
    }

    #[test]
    fn one_device_needs_no_nccl() {
        check_parallel(&TrainConfig::default(), 1).unwrap();
    }

    #[test]
    fn the_first_failure_names_its_rank() {
        let results = vec![Err(Error::PeerFailed { rank: 0, failed: 1 }), Err(Error::NoDevice)];
        match collect(results, Some(1)) {
            Err(Error::RankFailed { rank: 1, source }) => assert!(matches!(*source, Error::NoDevice)),
            other => panic!("{other:?}"),
        }
    }
}

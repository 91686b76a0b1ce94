//! Timing one GPU op the way the sweeps and the PyTorch companions do: R back-to-back launches
//! captured in a CUDA graph (R so that a replay takes about 1 ms), replayed twice to warm up,
//! then 7 to 15 replays timed with CUDA events; the time per op is the median replay / R.

use crate::timing::{median, time_gpu_ms};
use host::nn::graph::CudaGraph;
use host::{Gpu, Result};

/// Back-to-back launches per replay are chosen to make a replay at least this long.
const TARGET_REPLAY_MS: f64 = 1.0;
const MAX_REPS: usize = 200;
/// Timed replays: enough for about this long, within [MIN_REPLAYS, MAX_REPLAYS].
const TIMING_BUDGET_MS: f64 = 150.0;
const MIN_REPLAYS: usize = 7;
const MAX_REPLAYS: usize = 15;

/// A timing: milliseconds per GEMM, launches per replay, whether a CUDA graph was replayed.
pub struct Timing {
    pub ms: f64,
    pub reps: usize,
    pub graph: bool,
}

/// Times `op` (one GEMM on the GPU's stream): R launches per replay for about
/// `TARGET_REPLAY_MS`, in a CUDA graph when the capture works, the median replay over R.
pub fn measure(gpu: &Gpu, op: &mut dyn FnMut() -> Result<()>, what: &str) -> Result<Timing> {
    measure_with(gpu, op, what, (TARGET_REPLAY_MS, TIMING_BUDGET_MS, MIN_REPLAYS))
}

/// [`measure`] with a shorter protocol, for sweeps over many plans of one shape: replays of
/// about `replay_ms`, as many as fit `budget_ms`, at least `min_replays`.
pub fn measure_with(gpu: &Gpu, op: &mut dyn FnMut() -> Result<()>, what: &str, (replay_ms, budget_ms, min_replays): (f64, f64, usize)) -> Result<Timing> {
    let single = median(&time_gpu_ms(gpu, 1, 3, &mut *op)?);
    let reps = ((replay_ms / single.max(1e-4)).ceil() as usize).clamp(1, MAX_REPS);
    let replays = ((budget_ms / (single * reps as f64).max(1e-3)).ceil() as usize).clamp(min_replays, MAX_REPLAYS.max(min_replays));
    let captured = CudaGraph::capture(gpu, || {
        for _ in 0..reps {
            op()?;
        }
        Ok(())
    });
    let (samples, graph) = match captured {
        Ok(graph) => (time_gpu_ms(gpu, 2, replays, || graph.launch(gpu))?, true),
        Err(e) => {
            eprintln!("  {what}: CUDA graph capture failed ({e}); timing plain back-to-back launches");
            let plain = time_gpu_ms(gpu, 2, replays, || {
                for _ in 0..reps {
                    op()?;
                }
                Ok(())
            })?;
            (plain, false)
        }
    };
    Ok(Timing { ms: median(&samples) / reps as f64, reps, graph })
}

//! A CUDA graph captured from a stream: the launches of one training step recorded once and
//! replayed with a single `cuGraphLaunch`, which removes the per-kernel launch overhead.
//!
//! Everything a replay varies must live in device memory (the batch and step counters): the
//! captured launches keep their arguments.
//!
//! While a capture is under way, other threads must not use the legacy default stream of the
//! same device (synchronous `cuMemcpy*`, as `DeviceVector::from_host`/`to_host` do): the driver
//! may fail those calls or invalidate the capture. A failed capture is reported, and the
//! [`Trainer`](super::gpu::Trainer) then launches kernel by kernel.

use cust::sys as cu;

use crate::context::Gpu;
use crate::error::{Result, check};

/// An instantiated graph. Not `Send`: it is replayed on the stream of the `Gpu` it came from.
pub struct CudaGraph {
    graph: cu::CUgraph,
    exec: cu::CUgraphExec,
}

impl CudaGraph {
    /// Records every launch `f` queues on `gpu`'s stream (without running them) and
    /// instantiates the result. If `f` fails, or queues work the capture rejects, the capture is
    /// ended and the error returned; the stream is usable again either way.
    pub fn capture(gpu: &Gpu, f: impl FnOnce() -> Result<()>) -> Result<CudaGraph> {
        gpu.bind()?;
        let stream = gpu.stream().as_inner();
        // SAFETY: a valid stream; relaxed mode lets other threads make unrelated driver calls.
        check(unsafe { cu::cuStreamBeginCapture_v2(stream, cu::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED) }, "cuStreamBeginCapture")?;
        let recorded = f();
        let mut graph: cu::CUgraph = std::ptr::null_mut();
        // SAFETY: ends the capture begun above; writes a graph handle (null if the capture failed).
        let ended = check(unsafe { cu::cuStreamEndCapture(stream, &mut graph) }, "cuStreamEndCapture");
        let destroy_graph = |g: cu::CUgraph| {
            if !g.is_null() {
                // SAFETY: a graph this function created and nothing else refers to.
                unsafe { cu::cuGraphDestroy(g) };
            }
        };
        if let Err(e) = recorded.and(ended) {
            destroy_graph(graph);
            return Err(e);
        }
        let mut exec: cu::CUgraphExec = std::ptr::null_mut();
        // SAFETY: `graph` is a valid captured graph; `exec` receives the executable.
        if let Err(e) = check(unsafe { cu::cuGraphInstantiateWithFlags(&mut exec, graph, 0) }, "cuGraphInstantiateWithFlags") {
            destroy_graph(graph);
            return Err(e);
        }
        Ok(CudaGraph { graph, exec })
    }

    /// Queues one replay on `gpu`'s stream.
    pub fn launch(&self, gpu: &Gpu) -> Result<()> {
        gpu.bind()?;
        // SAFETY: a live executable graph and a valid stream of the same context.
        check(unsafe { cu::cuGraphLaunch(self.exec, gpu.stream().as_inner()) }, "cuGraphLaunch")
    }
}

impl Drop for CudaGraph {
    fn drop(&mut self) {
        // SAFETY: both handles were created by `capture` and are destroyed once, here. Errors
        // cannot be reported from drop; a failure would only leak the graph.
        unsafe {
            cu::cuGraphExecDestroy(self.exec);
            cu::cuGraphDestroy(self.graph);
        }
    }
}

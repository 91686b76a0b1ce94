//! The network on the GPU: [`Linear`] layers, the [`Mlp`], and a [`Trainer`] whose training
//! step (batch gather, forward, loss, backward, optimizer) is queued without any host round
//! trip and can be captured once as a CUDA graph and replayed.
//!
//! All buffers a step touches are allocated when the trainer is built; the step writes its
//! running loss into a device accumulator that the host reads only when asked.

use super::data::Dataset;
use super::graph::CudaGraph;
use super::{Activation, Architecture, LayerParams, Optimizer, Params};
use crate::buffer::{DeviceMatrix, DeviceVector};
use crate::context::Gpu;
use crate::error::{Error, Result, check};
use crate::nccl::Communicator;
use crate::ops::matmul::{Epilogue, GemmKernel, Transpose, gemm};
use crate::ops::{optim, reduce, softmax};

/// Rows evaluated per forward pass by [`Mlp::evaluate`].
pub const EVAL_CHUNK: usize = 8192;

/// Sets every u32 of `v` to `value`, in stream order.
pub(crate) fn fill_u32(gpu: &Gpu, v: &mut DeviceVector<u32>, value: u32) -> Result<()> {
    if v.is_empty() {
        return Ok(());
    }
    gpu.bind()?;
    // SAFETY: sets exactly the buffer's len() 32-bit words, on our stream.
    check(unsafe { cust::sys::cuMemsetD32Async(v.device_ptr(), value, v.len(), gpu.stream().as_inner()) }, "cuMemsetD32Async")
}

/// Copies `src` into `dst` in stream order (`cuMemcpyHtoDAsync` from pageable memory: the driver
/// stages `src` before returning, so it may be dropped at once). Unlike a synchronous copy it
/// does not touch the legacy default stream, which a CUDA graph capture on another thread of the
/// same device would conflict with.
pub(crate) fn upload_u32(gpu: &Gpu, dst: &mut DeviceVector<u32>, src: &[u32]) -> Result<()> {
    crate::ops::expect_shape("upload_u32", "length", dst.len(), src.len())?;
    if src.is_empty() {
        return Ok(());
    }
    gpu.bind()?;
    // SAFETY: `dst` holds src.len() u32 on the device; `src` is valid for its length and is
    // staged by the driver before the call returns.
    check(
        unsafe { cust::sys::cuMemcpyHtoDAsync_v2(dst.device_ptr(), src.as_ptr().cast(), std::mem::size_of_val(src), gpu.stream().as_inner()) },
        "cuMemcpyHtoDAsync",
    )
}

/// A dense layer y = act(x·Wᵀ + b) on the GPU: W is out×in (PyTorch's `Linear` layout).
pub struct Linear {
    pub w: DeviceMatrix,
    pub b: DeviceVector<f32>,
    pub act: Activation,
}

impl Linear {
    pub fn from_host(gpu: &Gpu, p: &LayerParams, act: Activation) -> Result<Linear> {
        Ok(Linear { w: DeviceMatrix::from_host(gpu, p.outputs, p.inputs, &p.w)?, b: DeviceVector::from_host(gpu, &p.b)?, act })
    }

    pub fn inputs(&self) -> usize {
        self.w.cols()
    }

    pub fn outputs(&self) -> usize {
        self.w.rows()
    }

    /// y = act(x·Wᵀ + b): one GEMM with the bias and activation in its epilogue.
    pub fn forward(&self, gpu: &Gpu, x: &DeviceMatrix, y: &mut DeviceMatrix) -> Result<()> {
        gemm(gpu, x, Transpose::No, &self.w, Transpose::Yes, Epilogue::bias_act(&self.b, self.act), y, GemmKernel::Auto)
    }

    /// dW = dZᵀ·x.
    pub fn weight_grad(&self, gpu: &Gpu, dz: &DeviceMatrix, x: &DeviceMatrix, dw: &mut DeviceMatrix) -> Result<()> {
        gemm(gpu, dz, Transpose::Yes, x, Transpose::No, Epilogue::default(), dw, GemmKernel::Auto)
    }

    /// dX = dZ·W (the gradient w.r.t. this layer's input).
    pub fn input_grad(&self, gpu: &Gpu, dz: &DeviceMatrix, dx: &mut DeviceMatrix) -> Result<()> {
        gemm(gpu, dz, Transpose::No, &self.w, Transpose::No, Epilogue::default(), dx, GemmKernel::Auto)
    }

    pub fn to_host(&self, gpu: &Gpu) -> Result<LayerParams> {
        Ok(LayerParams { w: self.w.to_host(gpu)?, b: self.b.to_host(gpu)?, inputs: self.inputs(), outputs: self.outputs() })
    }
}

/// A dataset on the device: inputs rows×features and one label per row.
pub struct DeviceDataset {
    pub x: DeviceMatrix,
    pub y: DeviceVector<u32>,
    pub classes: usize,
}

impl DeviceDataset {
    pub fn upload(gpu: &Gpu, data: &Dataset) -> Result<DeviceDataset> {
        if data.is_empty() {
            return Err(Error::InvalidArgument { op: "DeviceDataset::upload", reason: "empty dataset".into() });
        }
        Ok(DeviceDataset {
            x: DeviceMatrix::from_host(gpu, data.rows(), data.features, &data.x)?,
            y: DeviceVector::from_host(gpu, &data.y)?,
            classes: data.classes,
        })
    }

    pub fn rows(&self) -> usize {
        self.x.rows()
    }
}

/// The outputs of every layer for a batch of fixed size (the last holds the logits).
pub struct ForwardBuffers {
    pub ys: Vec<DeviceMatrix>,
}

impl ForwardBuffers {
    pub fn new(gpu: &Gpu, arch: &Architecture, rows: usize) -> Result<ForwardBuffers> {
        Ok(ForwardBuffers { ys: arch.sizes[1..].iter().map(|&n| DeviceMatrix::uninit(gpu, rows, n)).collect::<Result<_>>()? })
    }

    pub fn rows(&self) -> usize {
        self.ys[0].rows()
    }

    pub fn logits(&self) -> &DeviceMatrix {
        self.ys.last().expect("at least one layer")
    }
}

/// The multilayer perceptron on the GPU.
pub struct Mlp {
    pub arch: Architecture,
    pub layers: Vec<Linear>,
}

impl Mlp {
    pub fn from_params(gpu: &Gpu, params: &Params) -> Result<Mlp> {
        params.validate()?;
        let layers = params.layers.iter().enumerate().map(|(l, p)| Linear::from_host(gpu, p, params.arch.act_of(l))).collect::<Result<_>>()?;
        Ok(Mlp { arch: params.arch.clone(), layers })
    }

    pub fn to_params(&self, gpu: &Gpu) -> Result<Params> {
        Ok(Params { arch: self.arch.clone(), layers: self.layers.iter().map(|l| l.to_host(gpu)).collect::<Result<_>>()? })
    }

    /// Runs every layer on `x` (rows×inputs) into `out`.
    pub fn forward(&self, gpu: &Gpu, x: &DeviceMatrix, out: &mut ForwardBuffers) -> Result<()> {
        crate::ops::expect_shape("Mlp::forward", "input shape", (out.rows(), self.arch.sizes[0]), x.shape())?;
        for l in 0..self.layers.len() {
            let (done, rest) = out.ys.split_at_mut(l);
            let input = if l == 0 { x } else { &done[l - 1] };
            self.layers[l].forward(gpu, input, &mut rest[0])?;
        }
        Ok(())
    }

    /// Logits of `x` (rows×inputs, row-major host data), copied back.
    pub fn logits(&self, gpu: &Gpu, x: &[f32], rows: usize) -> Result<Vec<f32>> {
        let dx = DeviceMatrix::from_host(gpu, rows, self.arch.sizes[0], x)?;
        let mut out = ForwardBuffers::new(gpu, &self.arch, rows)?;
        for y in &mut out.ys {
            y.fill(gpu, f32::NAN)?;
        }
        self.forward(gpu, &dx, &mut out)?;
        out.logits().to_host(gpu)
    }

    /// Fraction of `data` whose argmax equals the label, computed on the GPU in chunks of
    /// [`EVAL_CHUNK`] rows; one number comes back.
    pub fn evaluate(&self, gpu: &Gpu, data: &DeviceDataset) -> Result<f64> {
        crate::ops::expect_shape("Mlp::evaluate", "features", self.arch.sizes[0], data.x.cols())?;
        crate::ops::expect_shape("Mlp::evaluate", "classes", *self.arch.sizes.last().expect("sizes"), data.classes)?;
        let rows = data.rows();
        if rows == 0 {
            return Err(Error::InvalidArgument { op: "Mlp::evaluate", reason: "empty dataset".into() });
        }
        let mut correct = DeviceVector::<u32>::zeros(gpu, 1)?;
        let chunk = rows.min(EVAL_CHUNK);
        let (full, rem) = (rows / chunk, rows % chunk);
        for (start, size, count) in [(0, chunk, full), (full * chunk, rem, usize::from(rem > 0))] {
            if count == 0 {
                continue;
            }
            let order: Vec<u32> = (start as u32..(start + size * count) as u32).collect();
            let perm = DeviceVector::from_host(gpu, &order)?;
            let mut batch = DeviceVector::<u32>::zeros(gpu, 1)?;
            let mut x = DeviceMatrix::uninit(gpu, size, data.x.cols())?;
            let mut labels = DeviceVector::<u32>::uninit(gpu, size)?;
            let mut pred = DeviceVector::<u32>::uninit(gpu, size)?;
            let mut out = ForwardBuffers::new(gpu, &self.arch, size)?;
            for _ in 0..count {
                optim::gather_rows(gpu, &data.x, &data.y, &perm, &batch, &mut x, &mut labels)?;
                optim::count_step(gpu, &mut batch)?;
                self.forward(gpu, &x, &mut out)?;
                softmax::argmax_count(gpu, out.logits(), &labels, &mut pred, &mut correct)?;
            }
            gpu.synchronize()?;
        }
        Ok(correct.to_host(gpu)?[0] as f64 / rows as f64)
    }
}

/// Optimizer state of one tensor: (first, second) moments, or the velocity alone.
struct State {
    w: [Option<DeviceMatrix>; 2],
    b: [Option<DeviceVector<f32>>; 2],
}

/// Everything one training step needs, preallocated, and the captured step.
pub struct Trainer {
    pub mlp: Mlp,
    pub opt: Optimizer,
    batch: usize,
    data: DeviceDataset,
    x: DeviceMatrix,
    labels: DeviceVector<u32>,
    out: ForwardBuffers,
    dz: Vec<DeviceMatrix>,
    dw: Vec<DeviceMatrix>,
    db: Vec<DeviceVector<f32>>,
    state: Vec<State>,
    row_loss: DeviceVector<f32>,
    loss_sum: DeviceVector<f32>,
    steps: DeviceVector<u32>,
    batch_no: DeviceVector<u32>,
    perm: DeviceVector<u32>,
    batches_left: usize,
    use_graph: bool,
    graph: Option<CudaGraph>,
    eager_steps: u64,
    /// Data-parallel runs: gradients are summed over the replicas through this communicator.
    comm: Option<std::sync::Arc<Communicator>>,
    /// Rows the loss is averaged over: the batch, or the global batch of a data-parallel run
    /// (so the summed gradients are already the global mean).
    loss_rows: usize,
}

impl Trainer {
    /// A trainer for `params` on `data` with batches of `batch` rows. Its first order of the
    /// rows is 0..rows; call [`Trainer::set_order`] to shuffle.
    pub fn new(gpu: &Gpu, params: &Params, opt: Optimizer, batch: usize, data: DeviceDataset) -> Result<Trainer> {
        opt.validate()?;
        let mlp = Mlp::from_params(gpu, params)?;
        let arch = &params.arch;
        crate::ops::expect_shape("Trainer", "features of the data", arch.sizes[0], data.x.cols())?;
        crate::ops::expect_shape("Trainer", "classes of the data", *arch.sizes.last().expect("sizes"), data.classes)?;
        crate::nn::train::check_batch("Trainer", batch, data.rows())?;
        let zeros_m = |r, c| DeviceMatrix::zeros(gpu, r, c).map(Some);
        let zeros_v = |n| DeviceVector::<f32>::zeros(gpu, n).map(Some);
        let state = params
            .layers
            .iter()
            .map(|p| {
                let (o, i) = (p.outputs, p.inputs);
                Ok(match opt {
                    Optimizer::Sgd(hp) if hp.momentum == 0.0 => State { w: [None, None], b: [None, None] },
                    Optimizer::Sgd(_) => State { w: [zeros_m(o, i)?, None], b: [zeros_v(o)?, None] },
                    Optimizer::Adam(_) => State { w: [zeros_m(o, i)?, zeros_m(o, i)?], b: [zeros_v(o)?, zeros_v(o)?] },
                })
            })
            .collect::<Result<_>>()?;
        let order: Vec<u32> = (0..data.rows() as u32).collect();
        let t = Trainer {
            x: DeviceMatrix::uninit(gpu, batch, arch.sizes[0])?,
            labels: DeviceVector::uninit(gpu, batch)?,
            out: ForwardBuffers::new(gpu, arch, batch)?,
            dz: arch.sizes[1..].iter().map(|&n| DeviceMatrix::uninit(gpu, batch, n)).collect::<Result<_>>()?,
            dw: params.layers.iter().map(|p| DeviceMatrix::uninit(gpu, p.outputs, p.inputs)).collect::<Result<_>>()?,
            db: params.layers.iter().map(|p| DeviceVector::uninit(gpu, p.outputs)).collect::<Result<_>>()?,
            state,
            row_loss: DeviceVector::uninit(gpu, batch)?,
            loss_sum: DeviceVector::zeros(gpu, 1)?,
            steps: DeviceVector::zeros(gpu, 1)?,
            batch_no: DeviceVector::zeros(gpu, 1)?,
            perm: DeviceVector::from_host(gpu, &order)?,
            batches_left: data.rows() / batch,
            mlp,
            opt,
            batch,
            data,
            use_graph: true,
            graph: None,
            eager_steps: 0,
            comm: None,
            loss_rows: batch,
        };
        Ok(t)
    }

    /// Replays the step as a CUDA graph (default) or launches each kernel every step.
    pub fn set_graph(&mut self, on: bool) {
        self.use_graph = on;
    }

    /// Whether steps are being replayed from a captured graph.
    pub fn graph_active(&self) -> bool {
        self.graph.is_some() && self.use_graph
    }

    pub fn batch_size(&self) -> usize {
        self.batch
    }

    /// Full batches per pass over the data (a last partial batch is dropped; the shuffle
    /// changes which rows that is every epoch).
    pub fn steps_per_epoch(&self) -> usize {
        self.data.rows() / self.batch
    }

    /// Starts an epoch: batches are taken in `order` (a permutation of the data's rows).
    pub fn set_order(&mut self, gpu: &Gpu, order: &[u32]) -> Result<()> {
        let rows = self.data.rows();
        let mut seen = vec![false; rows];
        let ok = order.len() == rows && order.iter().all(|&i| (i as usize) < rows && !std::mem::replace(&mut seen[i as usize], true));
        if !ok {
            return Err(Error::InvalidArgument { op: "Trainer::set_order", reason: format!("not a permutation of 0..{rows}") });
        }
        upload_u32(gpu, &mut self.perm, order)?;
        fill_u32(gpu, &mut self.batch_no, 0)?;
        self.batches_left = self.steps_per_epoch();
        Ok(())
    }

    /// Starts an epoch of `rows.len() / batch` steps whose batches are the consecutive runs of
    /// `rows` (a replica's share of the global batches; rows may repeat across replicas).
    pub(crate) fn set_rows(&mut self, gpu: &Gpu, rows: &[u32]) -> Result<()> {
        let n = self.data.rows();
        if rows.len() > n || !rows.len().is_multiple_of(self.batch) || rows.iter().any(|&i| i as usize >= n) {
            return Err(Error::InvalidArgument {
                op: "Trainer::set_rows",
                reason: format!("{} row indices: need whole batches of {} rows below {n}", rows.len(), self.batch),
            });
        }
        let mut padded = rows.to_vec();
        padded.resize(n, 0); // never read: the step count stops before
        upload_u32(gpu, &mut self.perm, &padded)?;
        fill_u32(gpu, &mut self.batch_no, 0)?;
        self.batches_left = rows.len() / self.batch;
        Ok(())
    }

    /// Makes this trainer one replica of a data-parallel run over `global_batch` rows per step:
    /// the loss is averaged over the global batch and each layer's gradients are summed over the
    /// replicas (one NCCL group per layer, queued as soon as that layer's backward is done) before
    /// the optimizer step. Call before the first step (the captured graph then contains the
    /// all-reduces).
    pub(crate) fn attach_communicator(&mut self, comm: std::sync::Arc<Communicator>, global_batch: usize) -> Result<()> {
        if self.graph.is_some() || self.eager_steps > 0 {
            return Err(Error::InvalidArgument { op: "Trainer::attach_communicator", reason: "the trainer has already stepped".into() });
        }
        self.comm = Some(comm);
        self.loss_rows = global_batch;
        Ok(())
    }

    /// The running-loss accumulator (for data-parallel runs, which sum it over the replicas).
    pub(crate) fn loss_sum_buffer(&self) -> &DeviceVector<f32> {
        &self.loss_sum
    }

    /// Starts the current order over from its first batch, without a copy or a synchronization
    /// (for benchmarks that replay many epochs in the same order).
    pub fn rewind(&mut self, gpu: &Gpu) -> Result<()> {
        fill_u32(gpu, &mut self.batch_no, 0)?;
        self.batches_left = self.steps_per_epoch();
        Ok(())
    }

    /// Queues one training step on the next batch of the epoch (no host synchronization).
    pub fn step(&mut self, gpu: &Gpu) -> Result<()> {
        if self.batches_left == 0 {
            return Err(Error::InvalidArgument { op: "Trainer::step", reason: "the epoch's batches are used up: call set_order".into() });
        }
        if self.use_graph && self.graph.is_none() && self.eager_steps > 0 {
            // The first step ran eagerly (any one-time setup of the kernels is done); record the
            // next one. If the capture fails, keep launching eagerly.
            match CudaGraph::capture(gpu, || self.record_step(gpu)) {
                Ok(g) => self.graph = Some(g),
                Err(e) => {
                    eprintln!("note: CUDA graph capture failed ({e}); launching each kernel instead");
                    self.use_graph = false;
                }
            }
        }
        match (&self.graph, self.use_graph) {
            (Some(g), true) => g.launch(gpu)?,
            _ => {
                self.record_step(gpu)?;
                self.eager_steps += 1;
            }
        }
        self.batches_left -= 1;
        Ok(())
    }

    /// The launches of one step, in order.
    fn record_step(&mut self, gpu: &Gpu) -> Result<()> {
        let nl = self.mlp.layers.len();
        optim::gather_rows(gpu, &self.data.x, &self.data.y, &self.perm, &self.batch_no, &mut self.x, &mut self.labels)?;
        optim::count_step(gpu, &mut self.batch_no)?;
        self.mlp.forward(gpu, &self.x, &mut self.out)?;
        let scale = 1.0 / self.loss_rows as f32;
        softmax::softmax_cross_entropy(gpu, self.out.logits(), &self.labels, scale, &mut self.dz[nl - 1], &mut self.row_loss)?;
        reduce::sum_scaled_accumulate(gpu, &self.row_loss, &mut self.loss_sum, scale)?;
        reduce::col_sum(gpu, &self.dz[nl - 1], &mut self.db[nl - 1])?;
        // Plain SGD (no momentum, no weight decay) updates each W inside its weight-gradient
        // GEMM: W = W + (−lr)·dZᵀ·x (β = 1), the same two roundings as `sgd_update`'s
        // w − lr·g, so the same bits, with one launch and one pass over dW fewer per layer.
        // Not in a data-parallel run, where dW must be summed over the replicas first.
        let fused = match self.opt {
            Optimizer::Sgd(hp) if hp.momentum == 0.0 && hp.weight_decay == 0.0 && self.comm.is_none() => Some(hp.lr),
            _ => None,
        };
        for l in (0..nl).rev() {
            let input = if l == 0 { &self.x } else { &self.out.ys[l - 1] };
            if l > 0 {
                // Before this layer's W changes.
                let (lower, upper) = self.dz.split_at_mut(l);
                self.mlp.layers[l].input_grad(gpu, &upper[0], &mut lower[l - 1])?;
                reduce::act_backward_col_sum(gpu, &mut lower[l - 1], &self.out.ys[l - 1], self.mlp.layers[l - 1].act, &mut self.db[l - 1])?;
            }
            match fused {
                Some(lr) => {
                    let layer = &mut self.mlp.layers[l];
                    let update = Epilogue { alpha: -lr, beta: 1.0, ..Epilogue::default() };
                    gemm(gpu, &self.dz[l], Transpose::Yes, input, Transpose::No, update, &mut layer.w, GemmKernel::Auto)?;
                }
                None => self.mlp.layers[l].weight_grad(gpu, &self.dz[l], input, &mut self.dw[l])?,
            }
            if let Some(comm) = &self.comm {
                // This layer's bucket: dW and db are final (db[l] came from layer l + 1's backward).
                let (dw, db) = (&mut self.dw[l], &mut self.db[l]);
                comm.group(|| {
                    comm.all_reduce_sum(gpu, dw.as_vector_mut())?;
                    comm.all_reduce_sum(gpu, db)
                })?;
            }
        }
        if matches!(self.opt, Optimizer::Adam(_)) {
            // The step number t (Adam's bias correction reads it on the device).
            optim::count_step(gpu, &mut self.steps)?;
        }
        for l in 0..nl {
            let layer = &mut self.mlp.layers[l];
            let st = &mut self.state[l];
            match self.opt {
                Optimizer::Sgd(hp) => {
                    if fused.is_none() {
                        optim::sgd_step(gpu, &mut layer.w, &self.dw[l], st.w[0].as_mut(), hp)?;
                    }
                    optim::sgd_step(gpu, &mut layer.b, &self.db[l], st.b[0].as_mut(), hp)?;
                }
                Optimizer::Adam(hp) => {
                    let missing = || Error::InvalidArgument { op: "Trainer", reason: "Adam state missing".into() };
                    let [m, v] = &mut st.w;
                    optim::adam_step(gpu, &mut layer.w, &self.dw[l], m.as_mut().ok_or_else(missing)?, v.as_mut().ok_or_else(missing)?, &self.steps, hp)?;
                    let [m, v] = &mut st.b;
                    optim::adam_step(gpu, &mut layer.b, &self.db[l], m.as_mut().ok_or_else(missing)?, v.as_mut().ok_or_else(missing)?, &self.steps, hp)?;
                }
            }
        }
        Ok(())
    }

    /// The sum of the batch mean losses since the last [`Trainer::reset_loss`] (waits for the
    /// queued steps).
    pub fn loss_sum(&self, gpu: &Gpu) -> Result<f32> {
        Ok(self.loss_sum.to_host(gpu)?[0])
    }

    pub fn reset_loss(&mut self, gpu: &Gpu) -> Result<()> {
        self.loss_sum.fill(gpu, 0.0)
    }

    /// The current parameters, copied back.
    pub fn params(&self, gpu: &Gpu) -> Result<Params> {
        self.mlp.to_params(gpu)
    }
}

//! The network on the GPU: [`Linear`] layers, the [`Mlp`], and a [`Trainer`] whose training
//! step (batch gather, forward, loss, backward, optimizer) is queued without any host round
//! trip and can be captured once as a CUDA graph and replayed.
//!
//! All buffers a step touches are allocated when the trainer is built; the step writes its
//! running loss into a device accumulator that the host reads only when asked.

use super::data::Dataset;
use super::graph::CudaGraph;
use super::{Activation, Architecture, LayerParams, Optimizer, Params, Precision};
use crate::buffer::{DeviceMatrix, DeviceVector};
use crate::buffer_bf16::DeviceMatrixBf16;
use crate::context::Gpu;
use crate::error::{Error, Result, check};
use crate::nccl::Communicator;
use crate::ops::matmul::{Epilogue, GemmKernel, Transpose, gemm, gemm_bf16};
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

/// Whether `gpu` can run `precision` ([`Precision::check_device`] with this device's compute
/// capability and whether its PTX has the `wgmma` kernels): `Err` below sm_80, `Ok(Some(notice))`
/// when the tensor-core GEMMs fall back to `mma.sync`.
pub fn check_precision(gpu: &Gpu, precision: Precision) -> Result<Option<String>> {
    let wgmma = match precision {
        Precision::Bf16 => gpu.supports(&kernels::matmul::GEMM_WGMMA_BF16_KK),
        _ => gpu.supports(&kernels::matmul::GEMM_WGMMA_TF32_KK),
    };
    precision.check_device(&gpu.info().name, gpu.info().compute_capability, wgmma)
}

/// A layer's input: f32 (the f32 and TF32 modes) or the bf16 copy (the bf16 mode).
#[derive(Clone, Copy)]
pub enum LayerInput<'a> {
    F32(&'a DeviceMatrix),
    Bf16(&'a DeviceMatrixBf16),
}

/// A dense layer y = act(x·Wᵀ + b) on the GPU: W is out×in (PyTorch's `Linear` layout).
pub struct Linear {
    /// The f32 weights (the master copy in the bf16 mode: the optimizer updates these).
    pub w: DeviceMatrix,
    pub b: DeviceVector<f32>,
    pub act: Activation,
    /// The bf16 mode's copy of `w` that the GEMMs read, rewritten by every optimizer step.
    pub w_bf16: Option<DeviceMatrixBf16>,
    /// The arithmetic of this layer's GEMMs.
    pub precision: Precision,
}

impl Linear {
    pub fn from_host(gpu: &Gpu, p: &LayerParams, act: Activation) -> Result<Linear> {
        Linear::with_precision(gpu, p, act, Precision::F32)
    }

    /// A layer whose GEMMs run in `precision` (bf16: a bf16 copy of W is made here, rounded by the
    /// same function the optimizer kernels use).
    pub fn with_precision(gpu: &Gpu, p: &LayerParams, act: Activation, precision: Precision) -> Result<Linear> {
        let w_bf16 = match precision {
            Precision::Bf16 => Some(DeviceMatrixBf16::from_f32(gpu, p.outputs, p.inputs, &p.w)?),
            _ => None,
        };
        Ok(Linear { w: DeviceMatrix::from_host(gpu, p.outputs, p.inputs, &p.w)?, b: DeviceVector::from_host(gpu, &p.b)?, act, w_bf16, precision })
    }

    /// The f32-input GEMM kernel of this layer's precision.
    fn kernel(&self) -> GemmKernel {
        layer_kernel(self.precision)
    }

    /// The bf16 weights (bf16 mode only).
    fn w_bf16(&self, op: &'static str) -> Result<&DeviceMatrixBf16> {
        self.w_bf16.as_ref().ok_or_else(|| Error::InvalidArgument { op, reason: "a bf16 input needs a layer built with Precision::Bf16".into() })
    }

    /// y = act(x·Wᵀ + b) from either input kind (bf16 inputs need the bf16 mode); with
    /// `y_bf16`, the epilogue also writes y rounded to bf16 there (the next layer's input).
    pub fn forward_input(&self, gpu: &Gpu, x: LayerInput<'_>, y: &mut DeviceMatrix, y_bf16: Option<&DeviceMatrixBf16>) -> Result<()> {
        let mut epi = Epilogue::bias_act(&self.b, self.act);
        epi.bf16_copy = y_bf16;
        match x {
            LayerInput::F32(x) => gemm(gpu, x, Transpose::No, &self.w, Transpose::Yes, epi, y, self.kernel()),
            LayerInput::Bf16(x) => gemm_bf16(gpu, x, Transpose::No, self.w_bf16("Linear::forward")?, Transpose::Yes, epi, y),
        }
    }

    pub fn inputs(&self) -> usize {
        self.w.cols()
    }

    pub fn outputs(&self) -> usize {
        self.w.rows()
    }

    /// y = act(x·Wᵀ + b): one GEMM with the bias and activation in its epilogue (in the f32 or
    /// TF32 mode).
    pub fn forward(&self, gpu: &Gpu, x: &DeviceMatrix, y: &mut DeviceMatrix) -> Result<()> {
        self.forward_input(gpu, LayerInput::F32(x), y, None)
    }

    /// dW = dZᵀ·x (in this layer's precision; `epi` α = −lr, β = 1 makes it plain SGD's update).
    fn weight_grad_with(&self, gpu: &Gpu, dz: LayerInput<'_>, x: LayerInput<'_>, epi: Epilogue<'_>, dw: &mut DeviceMatrix) -> Result<()> {
        weight_grad_update(gpu, self.kernel(), dz, x, epi, dw)
    }

    /// dW = dZᵀ·x.
    pub fn weight_grad(&self, gpu: &Gpu, dz: &DeviceMatrix, x: &DeviceMatrix, dw: &mut DeviceMatrix) -> Result<()> {
        self.weight_grad_with(gpu, LayerInput::F32(dz), LayerInput::F32(x), Epilogue::default(), dw)
    }

    /// dX = dZ·W (the gradient w.r.t. this layer's input), from either input kind.
    pub fn input_grad_input(&self, gpu: &Gpu, dz: LayerInput<'_>, dx: &mut DeviceMatrix) -> Result<()> {
        match dz {
            LayerInput::F32(dz) => gemm(gpu, dz, Transpose::No, &self.w, Transpose::No, Epilogue::default(), dx, self.kernel()),
            LayerInput::Bf16(dz) => gemm_bf16(gpu, dz, Transpose::No, self.w_bf16("Linear::input_grad")?, Transpose::No, Epilogue::default(), dx),
        }
    }

    /// dX = dZ·W (the gradient w.r.t. this layer's input).
    pub fn input_grad(&self, gpu: &Gpu, dz: &DeviceMatrix, dx: &mut DeviceMatrix) -> Result<()> {
        self.input_grad_input(gpu, LayerInput::F32(dz), dx)
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

/// The outputs of every layer for a batch of fixed size (the last holds the logits); in the
/// bf16 mode also the batch's bf16 input and the hidden layers' bf16 outputs, which their
/// forward GEMMs' epilogues write beside the f32 ones.
pub struct ForwardBuffers {
    pub ys: Vec<DeviceMatrix>,
    /// bf16 mode: the input batch in bf16 (gathered and rounded in one pass).
    pub x_bf16: Option<DeviceMatrixBf16>,
    /// bf16 mode: the hidden layers' outputs in bf16 (empty otherwise).
    pub ys_bf16: Vec<DeviceMatrixBf16>,
}

impl ForwardBuffers {
    pub fn new(gpu: &Gpu, arch: &Architecture, rows: usize) -> Result<ForwardBuffers> {
        ForwardBuffers::with_precision(gpu, arch, rows, Precision::F32)
    }

    /// Buffers for a network running in `precision`.
    pub fn with_precision(gpu: &Gpu, arch: &Architecture, rows: usize, precision: Precision) -> Result<ForwardBuffers> {
        let bf16 = precision == Precision::Bf16;
        let hidden = &arch.sizes[1..arch.sizes.len() - 1];
        Ok(ForwardBuffers {
            ys: arch.sizes[1..].iter().map(|&n| DeviceMatrix::uninit(gpu, rows, n)).collect::<Result<_>>()?,
            x_bf16: if bf16 { Some(DeviceMatrixBf16::uninit(gpu, rows, arch.sizes[0])?) } else { None },
            ys_bf16: if bf16 { hidden.iter().map(|&n| DeviceMatrixBf16::uninit(gpu, rows, n)).collect::<Result<_>>()? } else { Vec::new() },
        })
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
    pub precision: Precision,
}

impl Mlp {
    pub fn from_params(gpu: &Gpu, params: &Params) -> Result<Mlp> {
        Mlp::with_precision(gpu, params, Precision::F32)
    }

    /// A network whose GEMMs run in `precision`, from f32 parameters (saved files always hold
    /// them). A precision the device cannot run is an [`Error::UnsupportedPrecision`]; see
    /// [`check_precision`] for the notice of the `mma.sync` fallback.
    pub fn with_precision(gpu: &Gpu, params: &Params, precision: Precision) -> Result<Mlp> {
        params.validate()?;
        check_precision(gpu, precision)?;
        let layers = params.layers.iter().enumerate().map(|(l, p)| Linear::with_precision(gpu, p, params.arch.act_of(l), precision)).collect::<Result<_>>()?;
        Ok(Mlp { arch: params.arch.clone(), layers, precision })
    }

    /// Buffers for a forward pass of `rows` rows in this network's precision.
    pub fn forward_buffers(&self, gpu: &Gpu, rows: usize) -> Result<ForwardBuffers> {
        ForwardBuffers::with_precision(gpu, &self.arch, rows, self.precision)
    }

    pub fn to_params(&self, gpu: &Gpu) -> Result<Params> {
        Ok(Params { arch: self.arch.clone(), layers: self.layers.iter().map(|l| l.to_host(gpu)).collect::<Result<_>>()? })
    }

    /// Runs every layer on `x` (rows×inputs) into `out` (f32 and TF32 networks; a bf16 network
    /// takes its input from `out.x_bf16`: [`Mlp::forward_bf16`]).
    pub fn forward(&self, gpu: &Gpu, x: &DeviceMatrix, out: &mut ForwardBuffers) -> Result<()> {
        crate::ops::expect_shape("Mlp::forward", "input shape", (out.rows(), self.arch.sizes[0]), x.shape())?;
        if self.precision == Precision::Bf16 {
            return Err(Error::InvalidArgument { op: "Mlp::forward", reason: "a bf16 network reads a bf16 input: use forward_bf16".into() });
        }
        self.forward_layers(gpu, LayerInput::F32(x), out)
    }

    /// Runs every layer of a bf16 network on the batch in `out.x_bf16`: each hidden layer's
    /// epilogue writes its output in f32 and in bf16 (the next layer's input).
    pub fn forward_bf16(&self, gpu: &Gpu, out: &mut ForwardBuffers) -> Result<()> {
        let missing = || Error::InvalidArgument { op: "Mlp::forward_bf16", reason: "needs a bf16 network and its buffers (Mlp::forward_buffers)".into() };
        if self.precision != Precision::Bf16 {
            return Err(missing());
        }
        let x = out.x_bf16.take().ok_or_else(missing)?;
        let r = crate::ops::expect_shape("Mlp::forward_bf16", "input shape", (out.rows(), self.arch.sizes[0]), x.shape())
            .and_then(|()| self.forward_layers(gpu, LayerInput::Bf16(&x), out));
        out.x_bf16 = Some(x);
        r
    }

    /// The layers in order; bf16 inputs after the first come from `out.ys_bf16`.
    fn forward_layers(&self, gpu: &Gpu, x: LayerInput<'_>, out: &mut ForwardBuffers) -> Result<()> {
        let bf16 = matches!(x, LayerInput::Bf16(_));
        if bf16 && out.ys_bf16.len() + 1 != self.layers.len() {
            return Err(Error::InvalidArgument { op: "Mlp::forward", reason: "bf16 buffers missing: build them with Mlp::forward_buffers".into() });
        }
        for l in 0..self.layers.len() {
            let (done, rest) = out.ys.split_at_mut(l);
            let input = match l {
                0 => x,
                _ if bf16 => LayerInput::Bf16(&out.ys_bf16[l - 1]),
                _ => LayerInput::F32(&done[l - 1]),
            };
            self.layers[l].forward_input(gpu, input, &mut rest[0], if bf16 { out.ys_bf16.get(l) } else { None })?;
        }
        Ok(())
    }

    /// Logits of `x` (rows×inputs, row-major host data), copied back; in this network's
    /// precision (a bf16 network rounds `x` to bf16 on the host, as the gather would).
    pub fn logits(&self, gpu: &Gpu, x: &[f32], rows: usize) -> Result<Vec<f32>> {
        let dx = DeviceMatrix::from_host(gpu, rows, self.arch.sizes[0], x)?;
        let mut out = self.forward_buffers(gpu, rows)?;
        for y in &mut out.ys {
            y.fill(gpu, f32::NAN)?;
        }
        match &mut out.x_bf16 {
            Some(xb) => {
                xb.copy_from_f32(gpu, x)?;
                self.forward_bf16(gpu, &mut out)?;
            }
            None => self.forward(gpu, &dx, &mut out)?,
        }
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
            let mut out = self.forward_buffers(gpu, size)?;
            for _ in 0..count {
                match &mut out.x_bf16 {
                    Some(xb) => optim::gather_rows_bf16(gpu, &data.x, &data.y, &perm, &batch, xb, &mut labels)?,
                    None => optim::gather_rows(gpu, &data.x, &data.y, &perm, &batch, &mut x, &mut labels)?,
                }
                optim::count_step(gpu, &mut batch)?;
                if out.x_bf16.is_some() {
                    self.forward_bf16(gpu, &mut out)?;
                } else {
                    self.forward(gpu, &x, &mut out)?;
                }
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
    /// bf16 mode: dZ of every layer in bf16 (written beside dz by the softmax and the activation
    /// backward kernels), the backward GEMMs' input.
    dz_bf16: Vec<DeviceMatrixBf16>,
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
        Trainer::with_precision(gpu, params, opt, batch, data, Precision::F32)
    }

    /// [`Trainer::new`] with the step's GEMMs in `precision` (f32 master weights and optimizer
    /// state in every mode; see [`Precision`]).
    pub fn with_precision(gpu: &Gpu, params: &Params, opt: Optimizer, batch: usize, data: DeviceDataset, precision: Precision) -> Result<Trainer> {
        opt.validate()?;
        let mlp = Mlp::with_precision(gpu, params, precision)?;
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
            out: mlp.forward_buffers(gpu, batch)?,
            dz: arch.sizes[1..].iter().map(|&n| DeviceMatrix::uninit(gpu, batch, n)).collect::<Result<_>>()?,
            dz_bf16: match precision {
                Precision::Bf16 => arch.sizes[1..].iter().map(|&n| DeviceMatrixBf16::uninit(gpu, batch, n)).collect::<Result<_>>()?,
                _ => Vec::new(),
            },
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

    /// The launches of one step, in order. In the bf16 mode every GEMM reads bf16 copies that
    /// the kernel before it wrote beside its f32 output: the gather (the batch), each forward
    /// GEMM's epilogue (the hidden outputs), the softmax and the activation backward (dZ), and
    /// the optimizer (the weights; plain SGD's update GEMM writes them in its epilogue).
    fn record_step(&mut self, gpu: &Gpu) -> Result<()> {
        let nl = self.mlp.layers.len();
        let bf16 = self.mlp.precision == Precision::Bf16;
        match &mut self.out.x_bf16 {
            Some(xb) => optim::gather_rows_bf16(gpu, &self.data.x, &self.data.y, &self.perm, &self.batch_no, xb, &mut self.labels)?,
            None => optim::gather_rows(gpu, &self.data.x, &self.data.y, &self.perm, &self.batch_no, &mut self.x, &mut self.labels)?,
        }
        optim::count_step(gpu, &mut self.batch_no)?;
        if bf16 {
            self.mlp.forward_bf16(gpu, &mut self.out)?;
        } else {
            self.mlp.forward(gpu, &self.x, &mut self.out)?;
        }
        let scale = 1.0 / self.loss_rows as f32;
        softmax::softmax_cross_entropy_into(gpu, self.out.logits(), &self.labels, scale, &mut self.dz[nl - 1], self.dz_bf16.last_mut(), &mut self.row_loss)?;
        reduce::sum_scaled_accumulate(gpu, &self.row_loss, &mut self.loss_sum, scale)?;
        // Plain SGD (no momentum, no weight decay) updates each W inside its weight-gradient
        // GEMM: W = W + (−lr)·dZᵀ·x (β = 1), the same two roundings as `sgd_update`'s
        // w − lr·g, so the same bits, with one launch and one pass over dW fewer per layer (in
        // the bf16 mode the same epilogue rewrites W's bf16 copy); and each b in the kernel that
        // finishes db (`sgd_update` itself), one launch fewer per layer. Not in a data-parallel
        // run, where dW and db must be summed over the replicas first.
        let fused = match self.opt {
            Optimizer::Sgd(hp) if hp.momentum == 0.0 && hp.weight_decay == 0.0 && self.comm.is_none() => Some(hp.lr),
            _ => None,
        };
        let step = fused.map(|lr| reduce::BiasSgd { bias: &mut self.mlp.layers[nl - 1].b, lr });
        reduce::col_sum_sgd(gpu, &self.dz[nl - 1], &mut self.db[nl - 1], step)?;
        for l in (0..nl).rev() {
            if l > 0 {
                // Before this layer's W changes.
                let (lower, upper) = self.dz.split_at_mut(l);
                let dz = match self.dz_bf16.get(l) {
                    Some(d) => LayerInput::Bf16(d),
                    None => LayerInput::F32(&upper[0]),
                };
                self.mlp.layers[l].input_grad_input(gpu, dz, &mut lower[l - 1])?;
                let act = self.mlp.layers[l - 1].act;
                let step = fused.map(|lr| reduce::BiasSgd { bias: &mut self.mlp.layers[l - 1].b, lr });
                let copy = self.dz_bf16.get_mut(l - 1);
                reduce::act_backward_col_sum_sgd(gpu, &mut lower[l - 1], copy, &self.out.ys[l - 1], act, &mut self.db[l - 1], step)?;
            }
            let (input, dz) = match (bf16, l) {
                (true, 0) => {
                    let x = self.out.x_bf16.as_ref().ok_or_else(|| Error::InvalidArgument { op: "Trainer", reason: "bf16 input buffer missing".into() })?;
                    (LayerInput::Bf16(x), LayerInput::Bf16(&self.dz_bf16[l]))
                }
                (true, _) => (LayerInput::Bf16(&self.out.ys_bf16[l - 1]), LayerInput::Bf16(&self.dz_bf16[l])),
                (false, 0) => (LayerInput::F32(&self.x), LayerInput::F32(&self.dz[l])),
                (false, _) => (LayerInput::F32(&self.out.ys[l - 1]), LayerInput::F32(&self.dz[l])),
            };
            match fused {
                Some(lr) => {
                    let layer = &mut self.mlp.layers[l];
                    let update = Epilogue { alpha: -lr, beta: 1.0, bf16_copy: layer.w_bf16.as_ref(), ..Epilogue::default() };
                    weight_grad_update(gpu, layer_kernel(layer.precision), dz, input, update, &mut layer.w)?;
                }
                None => self.mlp.layers[l].weight_grad_with(gpu, dz, input, Epilogue::default(), &mut self.dw[l])?,
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
                // Fused: W and b were stepped in the backward pass above.
                Optimizer::Sgd(_) if fused.is_some() => {}
                Optimizer::Sgd(hp) => {
                    match &mut layer.w_bf16 {
                        Some(copy) => optim::sgd_step_bf16(gpu, &mut layer.w, copy, &self.dw[l], st.w[0].as_mut(), hp)?,
                        None => optim::sgd_step(gpu, &mut layer.w, &self.dw[l], st.w[0].as_mut(), hp)?,
                    }
                    optim::sgd_step(gpu, &mut layer.b, &self.db[l], st.b[0].as_mut(), hp)?;
                }
                Optimizer::Adam(hp) => {
                    let missing = || Error::InvalidArgument { op: "Trainer", reason: "Adam state missing".into() };
                    let [m, v] = &mut st.w;
                    let (m, v) = (m.as_mut().ok_or_else(missing)?, v.as_mut().ok_or_else(missing)?);
                    match &mut layer.w_bf16 {
                        Some(copy) => optim::adam_step_bf16(gpu, &mut layer.w, copy, &self.dw[l], m, v, &self.steps, hp)?,
                        None => optim::adam_step(gpu, &mut layer.w, &self.dw[l], m, v, &self.steps, hp)?,
                    }
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

/// The f32-input GEMM kernel of a precision (TF32 tensor cores or the CUDA cores).
fn layer_kernel(precision: Precision) -> GemmKernel {
    match precision {
        Precision::Tf32 => GemmKernel::Tf32Auto,
        _ => GemmKernel::Auto,
    }
}

/// dW = epilogue(dZᵀ·x) from f32 or bf16 operands; with α = −lr, β = 1 and W as the output it is
/// plain SGD's update inside the weight-gradient GEMM (`epi.bf16_copy` then refreshes W's bf16
/// copy).
fn weight_grad_update(gpu: &Gpu, kernel: GemmKernel, dz: LayerInput<'_>, x: LayerInput<'_>, epi: Epilogue<'_>, w: &mut DeviceMatrix) -> Result<()> {
    match (dz, x) {
        (LayerInput::F32(dz), LayerInput::F32(x)) => gemm(gpu, dz, Transpose::Yes, x, Transpose::No, epi, w, kernel),
        (LayerInput::Bf16(dz), LayerInput::Bf16(x)) => gemm_bf16(gpu, dz, Transpose::Yes, x, Transpose::No, epi, w),
        _ => Err(Error::InvalidArgument { op: "Linear::weight_grad", reason: "dZ and x must both be f32 or both bf16".into() }),
    }
}

//! `Gpu`: one device's primary context, a stream, and the loaded kernels. Every op takes a
//! `&Gpu`; work is queued on its stream, and results are copied back only after a sync.

use std::ffi::c_void;
use std::path::PathBuf;
use std::sync::Arc;

use cust::context::{Context, CurrentContext};
use cust::device::{Device, DeviceAttribute};
use cust::stream::{Stream, StreamFlags};
use kernels::KernelInfo;

use crate::error::{CudaContext, Error, Result};
use crate::launch::LaunchConfig;
use crate::module::{FORCE_PTX_ENV, ImageKind, KernelImages, KernelModule, PtxSource, embedded_for, read_ptx_file};

/// What the runtime needs to know about the device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    pub ordinal: u32,
    pub name: String,
    pub compute_capability: (i32, i32),
    pub multiprocessors: u32,
    /// Shared memory one block may use once a kernel opts in (above the default 48 KiB).
    pub max_shared_per_block_optin: u32,
    pub total_memory: usize,
    /// Thread-block clusters of each size (index; 0 unused) resident at once with one block per
    /// multiprocessor: what the GEMM cost model's clustered split-K plans can place
    /// ([`crate::ops::matmul::plan::Multiprocessors`]). Without `wgmma` kernels (no clusters
    /// run) the packed count, `multiprocessors / size`.
    pub resident_clusters: [usize; 9],
}

impl DeviceInfo {
    /// The multiprocessors as the GEMM cost model sees them.
    pub fn multiprocessor_layout(&self) -> crate::ops::matmul::plan::Multiprocessors {
        crate::ops::matmul::plan::Multiprocessors::with_clusters(self.multiprocessors as usize, self.resident_clusters)
    }
}

/// State shared by every `Gpu` handle made from one `Gpu::new` (the context and the module),
/// and by every buffer allocated through them, so the context outlives its allocations.
///
/// Fields drop in declaration order: the module is unloaded while its context still exists.
pub(crate) struct Shared {
    module: KernelModule,
    info: DeviceInfo,
    context: Context,
}

/// A GPU ready to run ops: context, stream and kernels.
///
/// `Gpu` is `Send + Sync`: its context is the device's primary context, its stream and module
/// are driver handles that any thread may use, and every method makes the context current on the
/// calling thread first. Work queued through one `Gpu` runs in order on its stream; to run work
/// concurrently, give each thread its own stream with [`Gpu::fork_stream`].
pub struct Gpu {
    // Dropped before `shared`: the stream is destroyed while the context still exists.
    stream: Stream,
    /// Split-K counters (`kernels::matmul::split_reduce`), one per output tile, zeroed once;
    /// every split-K launch leaves them zero again; and the workspace for the partial tiles.
    /// One set per stream, so GEMMs on different streams never share them.
    split_counters: Option<crate::buffer::DeviceVector<u32>>,
    split_workspace: Option<crate::buffer::DeviceVector<f32>>,
    /// Operands staged k-contiguous for TF32 `wgmma`, grown on demand. A buffer outgrown is
    /// kept (freeing it would wait for the device, which a CUDA graph capture forbids).
    staging: std::sync::Mutex<Vec<crate::buffer::DeviceVector<f32>>>,
    shared: Arc<Shared>,
}

/// Output tiles a split-K GEMM may have ([`Gpu::split_counters`]): 64 KiB of counters.
pub const SPLIT_COUNTERS: usize = 16384;
/// Floats of split-K workspace per stream (32 MiB): every split of every tile of one GEMM.
/// The MLP's largest split product (1024×784 weight gradient at batch 4096, 104 tiles of
/// 128×64 split 5 ways) needs 17 MiB.
pub const SPLIT_WORKSPACE: usize = 8 << 20;

/// How many CUDA devices this process sees: 0 without a GPU or a working driver (for deciding
/// what can run, e.g. whether data-parallel tests have two GPUs).
pub fn device_count() -> u32 {
    if cust::init(cust::CudaFlags::empty()).is_err() {
        return 0;
    }
    Device::num_devices().unwrap_or(0)
}

/// Options for [`Gpu::with_options`].
#[derive(Debug, Clone)]
pub struct GpuOptions {
    pub device: u32,
    pub ptx: PtxSource,
}

impl Default for GpuOptions {
    fn default() -> Self {
        GpuOptions { device: 0, ptx: PtxSource::Embedded }
    }
}

impl Shared {
    pub(crate) fn bind(&self) -> Result<()> {
        CurrentContext::set_current(&self.context).during("cuCtxSetCurrent")
    }
}

impl Gpu {
    /// The first GPU, with the PTX embedded in this binary.
    pub fn new() -> Result<Gpu> {
        Gpu::with_options(GpuOptions::default())
    }

    /// The GPU with this ordinal.
    pub fn with_device(device: u32) -> Result<Gpu> {
        Gpu::with_options(GpuOptions { device, ..GpuOptions::default() })
    }

    /// The first GPU, running the PTX in `path` (checked to match these kernel sources).
    pub fn with_ptx_file(path: impl Into<PathBuf>) -> Result<Gpu> {
        Gpu::with_options(GpuOptions { ptx: PtxSource::File(path.into()), ..GpuOptions::default() })
    }

    pub fn with_options(opts: GpuOptions) -> Result<Gpu> {
        cust::init(cust::CudaFlags::empty()).during("cuInit")?;
        let count = Device::num_devices().during("cuDeviceGetCount")?;
        if count == 0 {
            return Err(Error::NoDevice);
        }
        if opts.device >= count {
            return Err(Error::DeviceOutOfRange { index: opts.device, count });
        }
        let device = Device::get_device(opts.device).during("cuDeviceGet")?;
        let attr = |a| device.get_attribute(a).during("cuDeviceGetAttribute");
        let mut info = DeviceInfo {
            ordinal: opts.device,
            name: device.name().during("cuDeviceGetName")?,
            compute_capability: (attr(DeviceAttribute::ComputeCapabilityMajor)?, attr(DeviceAttribute::ComputeCapabilityMinor)?),
            multiprocessors: attr(DeviceAttribute::MultiprocessorCount)? as u32,
            max_shared_per_block_optin: shared_optin(&device)?,
            total_memory: device.total_memory().during("cuDeviceTotalMem")?,
            resident_clusters: [0; 9],
        };
        let (major, minor) = info.compute_capability;
        let context = Context::new(device).during("cuDevicePrimaryCtxRetain")?;
        CurrentContext::set_current(&context).during("cuCtxSetCurrent")?;
        let module = match &opts.ptx {
            source @ (PtxSource::Embedded | PtxSource::EmbeddedPtx) => {
                let embedded = embedded_for(major, minor).ok_or_else(|| Error::UnsupportedDevice { name: info.name.clone(), major, minor })?;
                let force_ptx = matches!(source, PtxSource::EmbeddedPtx) || std::env::var(FORCE_PTX_ENV).is_ok_and(|v| v == "1");
                KernelModule::load_embedded(&embedded, major, minor, force_ptx)?
            }
            PtxSource::File(path) => {
                let (arch, ptx) = read_ptx_file(path, major, minor)?;
                KernelModule::load_ptx(&ptx, &arch, &format!("sm_{major}{minor}"), &format!("PTX file {}", path.display()))?
            }
        };
        // The clustered GEMMs' placement, asked of the 64×64 `wgmma` kernel at one block per
        // multiprocessor (all of the opt-in shared memory).
        let probe = &kernels::matmul::GEMM_WGMMA_BF16_KK_64X64;
        info.resident_clusters = if module.has(probe) {
            module.resident_clusters(probe, kernels::matmul::WG_SMALL.threads(), info.max_shared_per_block_optin)?
        } else {
            crate::ops::matmul::plan::Multiprocessors::packed(info.multiprocessors as usize).resident_clusters()
        };
        let stream = Stream::new(StreamFlags::NON_BLOCKING, None).during("cuStreamCreate")?;
        Gpu { stream, split_counters: None, split_workspace: None, staging: Default::default(), shared: Arc::new(Shared { module, info, context }) }
            .with_split_counters()
    }

    /// A new handle on the same device and kernels with its own stream, for another thread.
    pub fn fork_stream(&self) -> Result<Gpu> {
        self.bind()?;
        let stream = Stream::new(StreamFlags::NON_BLOCKING, None).during("cuStreamCreate")?;
        Gpu { stream, split_counters: None, split_workspace: None, staging: Default::default(), shared: Arc::clone(&self.shared) }.with_split_counters()
    }

    /// Allocates this stream's split-K counters (zeroed) and workspace, at creation, so that a
    /// CUDA graph capture never meets the first allocation.
    fn with_split_counters(mut self) -> Result<Gpu> {
        self.split_counters = Some(crate::buffer::DeviceVector::zeros(&self, SPLIT_COUNTERS)?);
        self.split_workspace = Some(crate::buffer::DeviceVector::uninit(&self, SPLIT_WORKSPACE)?);
        self.synchronize()?;
        Ok(self)
    }

    /// Device address of a staging buffer of at least `floats` floats (stream-ordered use: the
    /// next op on this stream may overwrite it).
    pub(crate) fn staging_buffer(&self, floats: usize) -> Result<u64> {
        let mut bufs = self.staging.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(b) = bufs.last()
            && b.len() >= floats
        {
            return Ok(b.device_ptr());
        }
        let b = crate::buffer::DeviceVector::uninit(self, floats.next_power_of_two())?;
        let ptr = b.device_ptr();
        bufs.push(b);
        Ok(ptr)
    }

    /// Device addresses of this stream's [`SPLIT_COUNTERS`] split-K counters and its
    /// [`SPLIT_WORKSPACE`] floats of workspace.
    pub(crate) fn split_buffers(&self) -> (u64, u64) {
        (self.split_counters.as_ref().map_or(0, |c| c.device_ptr()), self.split_workspace.as_ref().map_or(0, |w| w.device_ptr()))
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.shared.info
    }

    /// Architecture of the loaded PTX (`sm_80`, `sm_90a`, …).
    pub fn ptx_arch(&self) -> &str {
        self.shared.module.arch()
    }

    /// Whether the kernels were loaded from a cubin (no JIT) or from PTX.
    pub fn kernel_image(&self) -> ImageKind {
        self.shared.module.image()
    }

    /// Whether this device's PTX contains `kernel` (Hopper-only kernels exist only in sm_90a).
    pub fn supports(&self, kernel: &KernelInfo) -> bool {
        self.shared.module.has(kernel)
    }

    pub fn stream(&self) -> &Stream {
        &self.stream
    }

    /// Makes this GPU's context current on the calling thread.
    pub fn bind(&self) -> Result<()> {
        self.shared.bind()
    }

    /// A handle that keeps the context alive (held by buffers, which must free into it).
    pub(crate) fn shared(&self) -> Arc<Shared> {
        Arc::clone(&self.shared)
    }

    /// Waits for everything queued on this stream; reports any asynchronous kernel fault.
    pub fn synchronize(&self) -> Result<()> {
        self.stream.synchronize().during("cuStreamSynchronize")
    }

    /// (free, total) device memory in bytes.
    pub fn memory_info(&self) -> Result<(usize, usize)> {
        self.bind()?;
        cust::memory::mem_get_info().during("cuMemGetInfo")
    }

    /// Launches `kernel` with `cfg` on this stream and checks the launch.
    ///
    /// # Safety
    /// `args` point to the kernel's parameters in order, typed as its signature declares, and the
    /// device memory they reference is valid for every access the kernel makes.
    pub(crate) unsafe fn launch(&self, kernel: &KernelInfo, cfg: LaunchConfig, args: &mut [*mut c_void]) -> Result<()> {
        self.bind()?;
        let stream = self.stream.as_inner();
        let max_shared = self.shared.info.max_shared_per_block_optin.max(48 * 1024);
        // SAFETY: forwarded from the caller.
        unsafe { self.shared.module.launch(kernel, cfg, stream, max_shared, args) }
    }
}

/// Kernels of another crate (see [`Gpu::load_kernels`]), loaded into this GPU's context and
/// launched on its stream: pass `&LoadedKernels` to that crate's typed launchers.
pub struct LoadedKernels<'gpu> {
    gpu: &'gpu Gpu,
    module: KernelModule,
}

impl Gpu {
    /// Loads another crate's kernels (built by its build script through `kernel-builder`,
    /// embedded with [`include_kernels!`](crate::include_kernels)): the cubin for this device if
    /// there is one, else the PTX.
    pub fn load_kernels(&self, images: &KernelImages) -> Result<LoadedKernels<'_>> {
        self.bind()?;
        let (major, minor) = self.shared.info.compute_capability;
        Ok(LoadedKernels { gpu: self, module: images.load(major, minor)? })
    }
}

impl LoadedKernels<'_> {
    /// Whether the loaded image contains `kernel` (architecture-specific kernels may be absent).
    pub fn has(&self, kernel: &KernelInfo) -> bool {
        self.module.has(kernel)
    }

    /// Whether the kernels came from a cubin or from PTX.
    pub fn image(&self) -> ImageKind {
        self.module.image()
    }

    /// The architecture of the loaded image.
    pub fn arch(&self) -> &str {
        self.module.arch()
    }
}

impl Drop for LoadedKernels<'_> {
    fn drop(&mut self) {
        // The module is unloaded right after this, in its context.
        let _ = self.gpu.bind();
    }
}

/// Launches on the GPU's stream, as the GPU's own kernels are.
impl kernels::Launch for LoadedKernels<'_> {
    type Config = LaunchConfig;
    type Error = Error;

    unsafe fn launch_raw(&self, kernel: &KernelInfo, config: LaunchConfig, args: &mut [*mut c_void]) -> Result<()> {
        self.gpu.bind()?;
        let max_shared = self.gpu.shared.info.max_shared_per_block_optin.max(48 * 1024);
        // SAFETY: forwarded from the caller (the trait's contract is this fn's).
        unsafe { self.module.launch(kernel, config, self.gpu.stream.as_inner(), max_shared, args) }
    }
}

/// What the typed launchers that `#[kernel]` generates launch through: `k::vec_add_f32(gpu, cfg,
/// a, b, c, n)` runs the kernel on this GPU's stream.
impl kernels::Launch for Gpu {
    type Config = LaunchConfig;
    type Error = Error;

    unsafe fn launch_raw(&self, kernel: &KernelInfo, config: LaunchConfig, args: &mut [*mut c_void]) -> Result<()> {
        // SAFETY: forwarded from the caller (the trait's contract is this fn's).
        unsafe { self.launch(kernel, config, args) }
    }
}

/// `CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN`, which cust does not name.
fn shared_optin(device: &Device) -> Result<u32> {
    let mut value = 0i32;
    // SAFETY: writes one int for a valid device handle.
    let r = unsafe {
        cust::sys::cuDeviceGetAttribute(&mut value, cust::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device.as_raw())
    };
    crate::error::check(r, "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)")?;
    Ok(value.max(0) as u32)
}

//! The one error type of the host runtime.

use std::path::PathBuf;

use cust::error::CudaError;

/// Everything an op or the runtime can fail with. No op panics on bad input: it returns one of
/// these before launching anything.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The CUDA driver found no GPU (or none is visible to this process).
    #[error("no CUDA device found: the GPU ops need an NVIDIA GPU and its driver")]
    NoDevice,

    #[error("device index {index} is out of range: {count} CUDA device(s) present")]
    DeviceOutOfRange { index: u32, count: u32 },

    #[error("GPU `{name}` has compute capability {major}.{minor}; the kernels need 8.0 or newer (they are built for sm_80 and sm_90a)")]
    UnsupportedDevice { name: String, major: i32, minor: i32 },

    #[error("PTX file {} not found or unreadable ({reason}); build it with `cargo xtask build-ptx`", path.display())]
    PtxNotFound { path: PathBuf, reason: String },

    #[error(
        "PTX {} was built from other kernel sources (hash {found}) than this program expects ({expected}); \
         rebuild it with `cargo xtask build-ptx`", path.display()
    )]
    StalePtx { path: PathBuf, found: String, expected: String },

    #[error("PTX {} targets {ptx_arch}, which this GPU (compute capability {major}.{minor}) cannot run; build for an older arch, e.g. `cargo xtask build-ptx --arch sm_80`", path.display())]
    PtxArchUnsupported { path: PathBuf, ptx_arch: String, major: i32, minor: i32 },

    #[error("GPU `{device}` (compute capability {major}.{minor}) cannot run {precision} training: its tensor cores need {needs}; use --precision f32")]
    UnsupportedPrecision { precision: &'static str, device: String, major: i32, minor: i32, needs: &'static str },

    #[error("kernel `{name}` is not in the loaded PTX{hint}")]
    MissingKernel { name: &'static str, hint: &'static str },

    #[error("{op}: shape mismatch: expected {expected}, got {got}")]
    ShapeMismatch { op: &'static str, expected: String, got: String },

    #[error("{op}: {len} values do not fill a {rows}×{cols} matrix ({} expected)", rows * cols)]
    DataLength { op: &'static str, rows: usize, cols: usize, len: usize },

    #[error("{op}: {what} = {value} exceeds the limit of {limit}")]
    TooLarge { op: &'static str, what: &'static str, value: u64, limit: u64 },

    #[error("{op}: invalid argument: {reason}")]
    InvalidArgument { op: &'static str, reason: String },

    #[error("out of GPU memory allocating {bytes} bytes for {op}")]
    OutOfMemory { op: &'static str, bytes: usize },

    /// A CUDA driver call failed; `call` names it, `code` is the driver's `CUresult`.
    #[error("CUDA error in {call}: {message} (CUresult {code})")]
    Cuda { call: &'static str, code: u32, message: String },

    #[error("{0}")]
    Io(String),

    /// A data file (dataset, IDX, CSV) is missing, malformed or inconsistent.
    #[error(transparent)]
    Data(#[from] crate::nn::data::DataError),

    /// NCCL (needed to train on more than one GPU) could not be opened.
    #[error(
        "NCCL could not be loaded ({reason}; tried {tried}): training on several GPUs needs NCCL 2. Install it \
         (Debian/Ubuntu: `apt install libnccl2` from NVIDIA's CUDA repository; or `pip install nvidia-nccl-cu12` and put its \
         `nvidia/nccl/lib` on LD_LIBRARY_PATH) so that libnccl.so.2 is on the loader's path, or set NCCL_LIBRARY to the library's path"
    )]
    NcclUnavailable { tried: String, reason: String },

    /// An NCCL call failed; `code` is its `ncclResult_t`.
    #[error("rank {rank}: NCCL error in {call}: {message} (ncclResult_t {code})")]
    Nccl { rank: usize, call: &'static str, code: i32, message: String },

    /// A collective did not finish within the timeout; the communicator was aborted.
    #[error("rank {rank}: collectives did not finish within {seconds:.1} s ({what}); the communicator was aborted")]
    CollectiveTimeout { rank: usize, what: &'static str, seconds: f64 },

    /// This rank stopped because another rank failed; its communicator was aborted.
    #[error("rank {rank}: stopped because rank {failed} failed")]
    PeerFailed { rank: usize, failed: usize },

    /// A replica of a data-parallel run failed.
    #[error("rank {rank} failed: {source}")]
    RankFailed { rank: usize, source: Box<Error> },

    /// The multi-process set-up (environment variables, TCP rendezvous) failed.
    #[error("distributed set-up: {0}")]
    Distributed(String),

    /// A model file could not be written, read, or does not describe a valid network.
    #[error("model file {}: {reason}", path.display())]
    ModelFile { path: PathBuf, reason: String },
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Attaches the failing call's name to a cust result.
pub(crate) trait CudaContext<T> {
    fn during(self, call: &'static str) -> Result<T>;
}

impl<T> CudaContext<T> for std::result::Result<T, CudaError> {
    fn during(self, call: &'static str) -> Result<T> {
        self.map_err(|e| match e {
            CudaError::NoDevice => Error::NoDevice,
            e => Error::Cuda { call, code: e as u32, message: e.to_string() },
        })
    }
}

/// Checks a raw driver result.
pub(crate) fn check(result: cust::sys::CUresult, call: &'static str) -> Result<()> {
    use cust::sys::cudaError_enum as E;
    match result {
        E::CUDA_SUCCESS => Ok(()),
        E::CUDA_ERROR_NO_DEVICE => Err(Error::NoDevice),
        other => {
            let mut ptr: *const std::os::raw::c_char = std::ptr::null();
            // SAFETY: cuGetErrorString writes a pointer to a static C string or leaves it null.
            let message = unsafe {
                if cust::sys::cuGetErrorString(other, &mut ptr) == E::CUDA_SUCCESS && !ptr.is_null() {
                    std::ffi::CStr::from_ptr(ptr).to_string_lossy().into_owned()
                } else {
                    format!("{other:?}")
                }
            };
            Err(Error::Cuda { call, code: other as u32, message })
        }
    }
}

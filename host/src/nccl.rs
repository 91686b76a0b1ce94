//! NCCL, opened at run time: what data-parallel training needs (a communicator from a unique id,
//! in-place all-reduce sums of f32 buffers on a stream, group calls, abort) and a timeout on
//! collectives.
//!
//! The library is never linked: it is `dlopen`ed on first use from `NCCL_LIBRARY` (a path, used
//! alone) or else as `libnccl.so.2` / `libnccl.so` through the loader's search path. Without it,
//! everything on one GPU works as before, and asking for several GPUs gives
//! [`Error::NcclUnavailable`], which says what to install.
//!
//! NCCL runs on the CUDA runtime's view of the device, which is the device's primary context:
//! the same context cust uses for [`Gpu`], so buffers and streams are shared without copies.

use std::ffi::{CStr, OsStr, c_char, c_int, c_void};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use cust::sys as cu;

use crate::buffer::DeviceVector;
use crate::context::Gpu;
use crate::error::{Error, Result, check};

/// The environment variable naming the NCCL library file to open.
pub const NCCL_LIBRARY_ENV: &str = "NCCL_LIBRARY";
/// Names tried through the loader's search path when `NCCL_LIBRARY` is unset.
pub const DEFAULT_LIBRARY_NAMES: [&str; 2] = ["libnccl.so.2", "libnccl.so"];

/// `ncclResult_t` values used here.
const NCCL_SUCCESS: c_int = 0;
const NCCL_IN_PROGRESS: c_int = 7;
/// `ncclFloat32` and `ncclSum`.
const NCCL_FLOAT32: c_int = 7;
const NCCL_SUM: c_int = 0;

/// How often [`Communicator::wait`] polls the stream and NCCL's asynchronous error.
const POLL: Duration = Duration::from_micros(200);

/// The 128-byte id that names one communicator; rank 0 makes it and every rank needs it.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct UniqueId {
    pub bytes: [u8; 128],
}

impl std::fmt::Debug for UniqueId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "UniqueId({:02x?}…)", &self.bytes[..8])
    }
}

type Comm = *mut c_void;

/// The NCCL entry points, resolved once.
pub struct Nccl {
    get_version: unsafe extern "C" fn(*mut c_int) -> c_int,
    get_unique_id: unsafe extern "C" fn(*mut UniqueId) -> c_int,
    comm_init_rank: unsafe extern "C" fn(*mut Comm, c_int, UniqueId, c_int) -> c_int,
    all_reduce: unsafe extern "C" fn(*const c_void, *mut c_void, usize, c_int, c_int, Comm, cu::CUstream) -> c_int,
    group_start: unsafe extern "C" fn() -> c_int,
    group_end: unsafe extern "C" fn() -> c_int,
    comm_get_async_error: unsafe extern "C" fn(Comm, *mut c_int) -> c_int,
    comm_abort: unsafe extern "C" fn(Comm) -> c_int,
    comm_destroy: unsafe extern "C" fn(Comm) -> c_int,
    get_error_string: unsafe extern "C" fn(c_int) -> *const c_char,
    /// Keeps the library mapped while the function pointers above are in use.
    _lib: libloading::Library,
    path: String,
}

/// The files to try, in order: `NCCL_LIBRARY` alone when it is set and not empty (a wrong path
/// is reported, not silently replaced by another NCCL), else [`DEFAULT_LIBRARY_NAMES`].
pub fn library_candidates(nccl_library: Option<&OsStr>) -> Vec<PathBuf> {
    match nccl_library {
        Some(p) if !p.is_empty() => vec![PathBuf::from(p)],
        _ => DEFAULT_LIBRARY_NAMES.iter().map(PathBuf::from).collect(),
    }
}

impl Nccl {
    /// NCCL as found from the environment, opened once per process.
    pub fn get() -> Result<&'static Nccl> {
        static NCCL: OnceLock<std::result::Result<Nccl, (String, String)>> = OnceLock::new();
        let env = std::env::var_os(NCCL_LIBRARY_ENV);
        match NCCL.get_or_init(|| {
            Nccl::open(&library_candidates(env.as_deref())).map_err(|e| match e {
                Error::NcclUnavailable { tried, reason } => (tried, reason),
                other => (String::new(), other.to_string()),
            })
        }) {
            Ok(n) => Ok(n),
            Err((tried, reason)) => Err(Error::NcclUnavailable { tried: tried.clone(), reason: reason.clone() }),
        }
    }

    /// Whether NCCL can be opened (for deciding whether multi-GPU tests can run).
    pub fn available() -> bool {
        Nccl::get().is_ok()
    }

    /// Opens the first of `candidates` that loads and has every entry point needed.
    pub fn open(candidates: &[PathBuf]) -> Result<Nccl> {
        let tried = candidates.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
        let mut reason = String::from("no candidate");
        for path in candidates {
            // SAFETY: opening NCCL runs its initializers, which have no preconditions.
            match unsafe { libloading::Library::new(path) } {
                Ok(lib) => match Nccl::resolve(lib, path.display().to_string()) {
                    Ok(n) => return Ok(n),
                    Err(e) => reason = format!("{}: {e}", path.display()),
                },
                // dlerror's text (the file's path and why) is the source of libloading's error.
                Err(e) => reason = std::error::Error::source(&e).map_or_else(|| e.to_string(), |s| s.to_string()),
            }
        }
        Err(Error::NcclUnavailable { tried, reason })
    }

    fn resolve(lib: libloading::Library, path: String) -> std::result::Result<Nccl, String> {
        /// # Safety
        /// `T` must be the C signature of `name`.
        unsafe fn sym<T: Copy>(lib: &libloading::Library, name: &str) -> std::result::Result<T, String> {
            // SAFETY: the caller gives the symbol's true type.
            unsafe { lib.get::<T>(name.as_bytes()) }.map(|s| *s).map_err(|e| format!("no {name} in it ({e})"))
        }
        // SAFETY: each symbol is looked up with the C signature NCCL 2 declares in nccl.h; the
        // pointers stay valid because the library is stored beside them.
        unsafe {
            Ok(Nccl {
                get_version: sym(&lib, "ncclGetVersion")?,
                get_unique_id: sym(&lib, "ncclGetUniqueId")?,
                comm_init_rank: sym(&lib, "ncclCommInitRank")?,
                all_reduce: sym(&lib, "ncclAllReduce")?,
                group_start: sym(&lib, "ncclGroupStart")?,
                group_end: sym(&lib, "ncclGroupEnd")?,
                comm_get_async_error: sym(&lib, "ncclCommGetAsyncError")?,
                comm_abort: sym(&lib, "ncclCommAbort")?,
                comm_destroy: sym(&lib, "ncclCommDestroy")?,
                get_error_string: sym(&lib, "ncclGetErrorString")?,
                _lib: lib,
                path,
            })
        }
    }

    /// The file that was opened.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// NCCL's version code (e.g. 22703 for 2.27.3).
    pub fn version(&self) -> Result<i32> {
        let mut v = 0;
        // SAFETY: writes one int.
        self.check(0, unsafe { (self.get_version)(&mut v) }, "ncclGetVersion")?;
        Ok(v)
    }

    /// A fresh id for a new communicator (rank 0 makes it and sends it to the others).
    pub fn unique_id(&self) -> Result<UniqueId> {
        let mut id = UniqueId { bytes: [0; 128] };
        // SAFETY: writes the 128-byte id.
        self.check(0, unsafe { (self.get_unique_id)(&mut id) }, "ncclGetUniqueId")?;
        Ok(id)
    }

    fn check(&self, rank: usize, code: c_int, call: &'static str) -> Result<()> {
        if code == NCCL_SUCCESS {
            return Ok(());
        }
        // SAFETY: ncclGetErrorString returns a static C string for any code.
        let message = unsafe {
            let p = (self.get_error_string)(code);
            if p.is_null() { format!("code {code}") } else { CStr::from_ptr(p).to_string_lossy().into_owned() }
        };
        Err(Error::Nccl { rank, call, code, message })
    }
}

/// Why [`Communicator::wait`] should give up early: set by whichever rank of this process fails
/// first, with that rank's number.
#[derive(Debug, Default)]
pub struct StopFlag {
    stopped: AtomicBool,
    failed_rank: std::sync::atomic::AtomicUsize,
}

impl StopFlag {
    /// Marks `rank` as failed (the first call wins).
    pub fn fail(&self, rank: usize) {
        if !self.stopped.swap(true, Ordering::SeqCst) {
            self.failed_rank.store(rank, Ordering::SeqCst);
        }
    }

    /// The rank that failed, if any.
    pub fn failed(&self) -> Option<usize> {
        self.stopped.load(Ordering::SeqCst).then(|| self.failed_rank.load(Ordering::SeqCst))
    }
}

/// One rank's NCCL communicator, bound to one GPU. Collectives are queued on the stream given to
/// each call; [`Communicator::wait`] drains the stream under a timeout, aborting on failure.
pub struct Communicator {
    nccl: &'static Nccl,
    comm: Comm,
    rank: usize,
    world: usize,
    timeout: Duration,
    aborted: AtomicBool,
}

// SAFETY: an NCCL communicator may be used from any thread as long as calls on it do not run
// concurrently; the trainer owns it and calls it from one thread at a time (abort is the
// documented exception and may race with a blocked call).
unsafe impl Send for Communicator {}
// SAFETY: see above: the shared methods are `wait` (polling, then abort) and the queued calls,
// made from the owning replica's thread.
unsafe impl Sync for Communicator {}

impl Communicator {
    /// Joins communicator `id` as `rank` of `world` on `gpu`'s device. Blocks until every rank
    /// has joined, or fails after `timeout` (the init call then stays blocked on a helper thread
    /// until the process ends: NCCL has no way to cancel a blocking init).
    pub fn init(gpu: &Gpu, id: UniqueId, rank: usize, world: usize, timeout: Duration) -> Result<Communicator> {
        let nccl = Nccl::get()?;
        if world == 0 || rank >= world {
            return Err(Error::InvalidArgument { op: "Communicator::init", reason: format!("rank {rank} of a world of {world}") });
        }
        let (r, w) = (c_int::try_from(rank), c_int::try_from(world));
        let (Ok(r), Ok(w)) = (r, w) else {
            return Err(Error::TooLarge { op: "Communicator::init", what: "world size", value: world as u64, limit: c_int::MAX as u64 });
        };
        let handle = gpu.fork_stream()?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name(format!("nccl-init-{rank}"))
            .spawn(move || {
                let result = handle.bind().and_then(|()| {
                    let mut comm: Comm = std::ptr::null_mut();
                    // SAFETY: `comm` receives the new communicator; the device's context is
                    // current on this thread, so NCCL binds the communicator to that device.
                    nccl.check(rank, unsafe { (nccl.comm_init_rank)(&mut comm, w, id, r) }, "ncclCommInitRank").map(|()| comm as usize)
                });
                let _ = tx.send(result);
            })
            .map_err(|e| Error::Distributed(format!("cannot start the NCCL init thread: {e}")))?;
        match rx.recv_timeout(timeout) {
            Ok(Ok(comm)) => Ok(Communicator { nccl, comm: comm as Comm, rank, world, timeout, aborted: AtomicBool::new(false) }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(Error::CollectiveTimeout { rank, what: "ncclCommInitRank: not every rank joined", seconds: timeout.as_secs_f64() }),
        }
    }

    pub fn rank(&self) -> usize {
        self.rank
    }

    pub fn world(&self) -> usize {
        self.world
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Queues an in-place sum of `buf` over every rank on `gpu`'s stream (capturable in a CUDA
    /// graph: NCCL ≥ 2.9 records collectives into a capture).
    pub fn all_reduce_sum(&self, gpu: &Gpu, buf: &mut DeviceVector<f32>) -> Result<()> {
        if buf.is_empty() {
            return Ok(());
        }
        self.usable()?;
        gpu.bind()?;
        let p = buf.as_mut_ptr().cast::<c_void>();
        // SAFETY: `buf` holds len() f32 on this communicator's device; in place (send = recv)
        // is allowed; the buffer outlives the queued call because the trainer keeps it.
        self.nccl.check(
            self.rank,
            unsafe { (self.nccl.all_reduce)(p, p, buf.len(), NCCL_FLOAT32, NCCL_SUM, self.comm, gpu.stream().as_inner()) },
            "ncclAllReduce",
        )
    }

    /// Runs `f` between `ncclGroupStart` and `ncclGroupEnd`, so the collectives it queues are
    /// launched together (one fused operation per bucket).
    pub fn group(&self, f: impl FnOnce() -> Result<()>) -> Result<()> {
        // SAFETY: no arguments; paired with the group_end below on every path.
        self.nccl.check(self.rank, unsafe { (self.nccl.group_start)() }, "ncclGroupStart")?;
        let inner = f();
        // SAFETY: closes the group opened above.
        let end = self.nccl.check(self.rank, unsafe { (self.nccl.group_end)() }, "ncclGroupEnd");
        inner.and(end)
    }

    /// Waits until `gpu`'s stream has drained, polling NCCL's asynchronous error. Aborts the
    /// communicator and fails when NCCL reports an error, when `stop` says another rank failed,
    /// or after the timeout; a hang becomes an error instead.
    pub fn wait(&self, gpu: &Gpu, stop: Option<&StopFlag>) -> Result<()> {
        self.usable()?;
        gpu.bind()?;
        let stream = gpu.stream().as_inner();
        let start = Instant::now();
        loop {
            // SAFETY: a valid stream of the bound context.
            let q = unsafe { cu::cuStreamQuery(stream) };
            if q == cu::cudaError_enum::CUDA_SUCCESS {
                return self.async_error();
            }
            if q != cu::cudaError_enum::CUDA_ERROR_NOT_READY {
                self.abort();
                return check(q, "cuStreamQuery");
            }
            if let Err(e) = self.async_error() {
                self.abort();
                return Err(e);
            }
            if let Some(failed) = stop.and_then(StopFlag::failed)
                && failed != self.rank
            {
                self.abort();
                return Err(Error::PeerFailed { rank: self.rank, failed });
            }
            if start.elapsed() > self.timeout {
                self.abort();
                return Err(Error::CollectiveTimeout { rank: self.rank, what: "waiting for the queued steps", seconds: self.timeout.as_secs_f64() });
            }
            std::thread::sleep(POLL);
        }
    }

    fn async_error(&self) -> Result<()> {
        let mut code = NCCL_SUCCESS;
        // SAFETY: a live communicator; writes one ncclResult_t.
        self.nccl.check(self.rank, unsafe { (self.nccl.comm_get_async_error)(self.comm, &mut code) }, "ncclCommGetAsyncError")?;
        match code {
            NCCL_SUCCESS | NCCL_IN_PROGRESS => Ok(()),
            c => self.nccl.check(self.rank, c, "a queued collective"),
        }
    }

    fn usable(&self) -> Result<()> {
        if self.aborted.load(Ordering::SeqCst) {
            return Err(Error::Nccl { rank: self.rank, call: "a collective", code: -1, message: "the communicator was aborted".into() });
        }
        Ok(())
    }

    /// Aborts the communicator: pending collectives stop and peers see an error (or their
    /// timeout). Idempotent.
    pub fn abort(&self) {
        if !self.aborted.swap(true, Ordering::SeqCst) {
            // SAFETY: a live communicator, aborted once; it is not destroyed afterwards.
            unsafe { (self.nccl.comm_abort)(self.comm) };
        }
    }
}

impl Drop for Communicator {
    fn drop(&mut self) {
        if !self.aborted.load(Ordering::SeqCst) {
            // SAFETY: a live communicator destroyed once; errors cannot be reported from drop.
            unsafe { (self.nccl.comm_destroy)(self.comm) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_default_to_the_soname() {
        assert_eq!(library_candidates(None), [PathBuf::from("libnccl.so.2"), PathBuf::from("libnccl.so")]);
        assert_eq!(library_candidates(Some(OsStr::new(""))), library_candidates(None));
    }

    #[test]
    fn a_given_path_is_used_alone() {
        assert_eq!(library_candidates(Some(OsStr::new("/opt/nccl/lib/libnccl.so.2"))), [PathBuf::from("/opt/nccl/lib/libnccl.so.2")]);
    }

    #[test]
    fn a_bogus_path_says_what_to_install() {
        let err = Nccl::open(&library_candidates(Some(OsStr::new("/nonexistent/libnccl.so.2")))).err().expect("a bogus path cannot load");
        assert!(matches!(&err, Error::NcclUnavailable { tried, .. } if tried == "/nonexistent/libnccl.so.2"), "{err}");
        let msg = err.to_string();
        assert!(msg.contains("libnccl2") && msg.contains("NCCL_LIBRARY"), "{msg}");
    }

    #[test]
    fn a_library_without_nccl_symbols_is_refused() {
        // libc loads but has no ncclGetVersion.
        let err = Nccl::open(&[PathBuf::from("libc.so.6")]).err().expect("libc is not NCCL");
        assert!(matches!(&err, Error::NcclUnavailable { reason, .. } if reason.contains("ncclGetVersion")), "{err}");
    }

    #[test]
    fn stop_flag_keeps_the_first_failure() {
        let s = StopFlag::default();
        assert_eq!(s.failed(), None);
        s.fail(3);
        s.fail(1);
        assert_eq!(s.failed(), Some(3));
    }
}

//! The kernels: PTX and, where the build had `ptxas`, cubins (SASS) embedded at build time (one
//! build per architecture), or PTX read from a file the user names; checked against this
//! program's kernel sources and the device, loaded once, with every kernel's function handle
//! looked up once and cached.
//!
//! A cubin loads in milliseconds; PTX is JIT-compiled by the driver, about 40 s for the whole
//! `sm_90a` module on an H100 when its cache is empty. So the cubin of the device's architecture
//! is loaded when there is one, and the PTX is the fallback: for other GPUs (compute capability
//! 10.0 and newer get the `sm_80` PTX), for a driver that rejects the cubin, for builds without
//! ptxas, and under `KERNELS_FORCE_PTX=1` (to measure the JIT). A JIT that takes more than a
//! moment is announced on stderr with its elapsed time.

use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use cust::module::Module;
use cust::sys as cu;
use kernels::KernelInfo;

use crate::error::{CudaContext, Error, Result, check};
use crate::launch::LaunchConfig;

/// Hash of the kernel sources this binary was built with (set by the build script).
pub const SOURCE_HASH: &str = env!("KERNELS_SOURCE_HASH");

/// PTX built for `sm_80` (runs on compute capability 8.0 and newer through the driver's JIT).
pub static PTX_SM80: Image = Image::new(include_bytes!(concat!(env!("OUT_DIR"), "/kernels-sm_80.ptx.zst")));
/// PTX built for `sm_90a` (Hopper-only instructions; runs on compute capability 9.0 only).
pub static PTX_SM90A: Image = Image::new(include_bytes!(concat!(env!("OUT_DIR"), "/kernels-sm_90a.ptx.zst")));
/// [`PTX_SM80`] assembled by `ptxas` (runs on compute capability 8.x); absent if the build had
/// no ptxas.
pub static CUBIN_SM80: Image = Image::new(include_bytes!(concat!(env!("OUT_DIR"), "/kernels-sm_80.cubin.zst")));
/// [`PTX_SM90A`] assembled by `ptxas` (runs on compute capability 9.0); absent if the build had
/// no ptxas.
pub static CUBIN_SM90A: Image = Image::new(include_bytes!(concat!(env!("OUT_DIR"), "/kernels-sm_90a.cubin.zst")));

/// One embedded kernel image, zstd-compressed by the build script (every bundled binary carries
/// all four; compressed they take 1.7 MB instead of 15) and decompressed on first use, once.
pub struct Image {
    zst: &'static [u8],
    raw: OnceLock<Vec<u8>>,
}

impl std::fmt::Debug for Image {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Image({} bytes compressed)", self.zst.len())
    }
}

impl Image {
    const fn new(zst: &'static [u8]) -> Image {
        Image { zst, raw: OnceLock::new() }
    }

    /// Whether this build has the image (the cubins need ptxas at build time).
    pub fn is_embedded(&self) -> bool {
        !self.zst.is_empty()
    }

    /// The image's bytes; empty if not embedded.
    pub fn bytes(&self) -> &[u8] {
        // The build script wrote these bytes with zstd: failing to read them back means the
        // binary itself is damaged, which no caller could handle.
        self.raw.get_or_init(|| if self.zst.is_empty() { Vec::new() } else { zstd::stream::decode_all(self.zst).expect("embedded kernel image is valid zstd") })
    }

    /// The image as text (the PTX images are ASCII).
    pub fn text(&self) -> &str {
        std::str::from_utf8(self.bytes()).expect("embedded PTX is ASCII")
    }
}

/// Set to `1`, makes [`PtxSource::Embedded`] load the PTX even where a cubin is embedded.
pub const FORCE_PTX_ENV: &str = "KERNELS_FORCE_PTX";

/// Where the kernels come from.
#[derive(Debug, Clone)]
pub enum PtxSource {
    /// The best embedded build for the device: its cubin, else its PTX.
    Embedded,
    /// The embedded PTX even where a cubin is embedded (what `KERNELS_FORCE_PTX=1` selects).
    EmbeddedPtx,
    /// A PTX file, e.g. `target/ptx/kernels-sm_80.ptx`.
    File(PathBuf),
}

/// What a [`KernelModule`] was loaded from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    /// SASS assembled at build time: no JIT.
    Cubin,
    /// PTX, compiled by the driver's JIT (or taken from its cache).
    Ptx,
}

/// The embedded kernels for one architecture.
#[derive(Debug, Clone, Copy)]
pub struct Embedded {
    /// The PTX's architecture: `sm_80`, `sm_90a`.
    pub arch: &'static str,
    pub ptx: &'static Image,
    /// `None` where this build has no cubin, or the device cannot run it.
    pub cubin: Option<&'static Image>,
}

/// The embedded kernels for a device of compute capability `major.minor`.
pub fn embedded_for(major: i32, minor: i32) -> Option<Embedded> {
    let embedded = |c: &'static Image| Some(c).filter(|c| c.is_embedded());
    match (major, minor) {
        (9, 0) => Some(Embedded { arch: "sm_90a", ptx: &PTX_SM90A, cubin: embedded(&CUBIN_SM90A) }),
        // SASS runs on its own major version only; newer GPUs JIT the PTX.
        (8, _) => Some(Embedded { arch: "sm_80", ptx: &PTX_SM80, cubin: embedded(&CUBIN_SM80) }),
        (m, _) if m > 8 => Some(Embedded { arch: "sm_80", ptx: &PTX_SM80, cubin: None }),
        _ => None,
    }
}

/// `sm_90a` → (9, 0, true).
fn parse_arch(arch: &str) -> Option<(i32, i32, bool)> {
    let d = arch.strip_prefix("sm_")?;
    let (d, specific) = match d.strip_suffix('a') {
        Some(d) => (d, true),
        None => (d, false),
    };
    let n: i32 = d.parse().ok()?;
    Some((n / 10, n % 10, specific))
}

/// Whether PTX for `arch` can run on a device of capability `major.minor`.
pub fn arch_runs_on(arch: &str, major: i32, minor: i32) -> bool {
    match parse_arch(arch) {
        Some((ma, mi, true)) => (ma, mi) == (major, minor),
        Some((ma, mi, false)) => (ma, mi) <= (major, minor),
        None => false,
    }
}

/// Reads and checks a PTX file: present, built from these kernel sources, runnable here.
pub fn read_ptx_file(path: &Path, major: i32, minor: i32) -> Result<(String, String)> {
    let ptx = std::fs::read_to_string(path).map_err(|e| Error::PtxNotFound { path: path.to_path_buf(), reason: e.to_string() })?;
    let found = kernels::info::ptx_source_hash(&ptx).unwrap_or("none");
    if found != SOURCE_HASH {
        return Err(Error::StalePtx { path: path.to_path_buf(), found: found.to_string(), expected: SOURCE_HASH.to_string() });
    }
    let arch = kernels::info::ptx_target(&ptx).unwrap_or_default().to_string();
    if !arch_runs_on(&arch, major, minor) {
        return Err(Error::PtxArchUnsupported { path: path.to_path_buf(), ptx_arch: arch, major, minor });
    }
    Ok((arch, ptx))
}

/// A raw function handle. Driver handles may be used from any thread.
#[derive(Clone, Copy)]
struct RawFunction(cu::CUfunction);
// SAFETY: CUfunction is an opaque driver handle, valid on every thread while its module lives.
unsafe impl Send for RawFunction {}
// SAFETY: as above; the driver synchronizes concurrent use.
unsafe impl Sync for RawFunction {}

/// A loaded module with its kernels looked up.
pub struct KernelModule {
    arch: String,
    image: ImageKind,
    functions: HashMap<&'static str, RawFunction>,
    /// Dynamic shared memory each function is currently allowed (raised on demand).
    shared_limit: Mutex<HashMap<&'static str, u32>>,
    // Dropped last: the function handles point into it.
    _module: Module,
}

impl KernelModule {
    /// Loads `ptx` (built for `arch`) and looks up every kernel that `arch` should contain.
    /// `device` (`sm_90`) and `why` name the JIT on stderr if it takes more than a moment.
    pub fn load_ptx(ptx: &str, arch: &str, device: &str, why: &str) -> Result<KernelModule> {
        KernelModule::load_ptx_of(ptx, arch, device, why, kernels::KERNELS)
    }

    /// As [`KernelModule::load_ptx`], for the kernels of `table` (another crate's kernels).
    fn load_ptx_of(ptx: &str, arch: &str, device: &str, why: &str, table: &'static [KernelInfo]) -> Result<KernelModule> {
        let module = {
            let _notice = JitNotice::start(device, why);
            Module::from_ptx(ptx, &[]).during("cuModuleLoadData (PTX JIT)")?
        };
        KernelModule::with_functions(module, arch, ImageKind::Ptx, table)
    }

    /// Loads a cubin assembled from the PTX for `arch`.
    pub fn load_cubin(cubin: &[u8], arch: &str) -> Result<KernelModule> {
        KernelModule::load_cubin_of(cubin, arch, kernels::KERNELS)
    }

    fn load_cubin_of(cubin: &[u8], arch: &str, table: &'static [KernelInfo]) -> Result<KernelModule> {
        let module = Module::from_cubin(cubin, &[]).during("cuModuleLoadData (cubin)")?;
        KernelModule::with_functions(module, arch, ImageKind::Cubin, table)
    }

    /// The embedded kernels for a device of capability `major.minor`: the cubin unless
    /// `force_ptx` or the driver rejects it (said on stderr), else the PTX.
    pub fn load_embedded(e: &Embedded, major: i32, minor: i32, force_ptx: bool) -> Result<KernelModule> {
        let device = format!("sm_{major}{minor}");
        let why = match e.cubin {
            _ if force_ptx => format!("{FORCE_PTX_ENV}=1"),
            Some(cubin) => match KernelModule::load_cubin(cubin.bytes(), e.arch) {
                Ok(m) => return Ok(m),
                // A driver older than the ptxas that built the cubin rejects it; the PTX may do.
                Err(err) => {
                    eprintln!("note: the embedded {} cubin did not load ({err}); using its PTX", e.arch);
                    "the cubin did not load".into()
                }
            },
            None if (major, minor) == (9, 0) || major == 8 => "built without ptxas: no cubin embedded".into(),
            None => format!("no cubin for {device} embedded: running the {} PTX", e.arch),
        };
        KernelModule::load_ptx(e.ptx.text(), e.arch, &device, &why)
    }

    fn with_functions(module: Module, arch: &str, image: ImageKind, table: &'static [KernelInfo]) -> Result<KernelModule> {
        let mut functions = HashMap::new();
        for k in table.iter().filter(|k| k.available_on(arch)) {
            let f = module.get_function(k.name).map_err(|_| Error::MissingKernel { name: k.name, hint: ": rebuild the PTX with `cargo xtask build-ptx`" })?;
            functions.insert(k.name, RawFunction(f.to_raw()));
        }
        Ok(KernelModule { arch: arch.to_string(), image, functions, shared_limit: Mutex::new(HashMap::new()), _module: module })
    }

    /// Whether the kernels came from a cubin or from PTX.
    pub fn image(&self) -> ImageKind {
        self.image
    }

    /// The architecture the loaded PTX was built for.
    pub fn arch(&self) -> &str {
        &self.arch
    }

    /// Whether `kernel` can be launched from this module.
    pub fn has(&self, kernel: &KernelInfo) -> bool {
        self.functions.contains_key(kernel.name)
    }

    fn function(&self, kernel: &KernelInfo) -> Result<RawFunction> {
        self.functions.get(kernel.name).copied().ok_or(Error::MissingKernel {
            name: kernel.name,
            hint: if kernel.available_on(&self.arch) { "" } else { " (it needs sm_90a PTX, i.e. a compute capability 9.0 GPU)" },
        })
    }

    /// Launches `kernel` on `stream` and checks the launch.
    ///
    /// # Safety
    /// `args` are pointers to the kernel's parameters, in order, with the types its signature
    /// declares; every device pointer among them is valid for what the kernel accesses.
    pub(crate) unsafe fn launch(
        &self,
        kernel: &KernelInfo,
        cfg: LaunchConfig,
        stream: cu::CUstream,
        max_shared_optin: u32,
        args: &mut [*mut c_void],
    ) -> Result<()> {
        assert_eq!(args.len(), kernel.params.len(), "argument count of {}", kernel.name);
        cfg.validate(kernel.name, max_shared_optin)?;
        if kernel.max_threads > 0 && cfg.block.volume() > u64::from(kernel.max_threads) {
            let (value, limit) = (cfg.block.volume(), u64::from(kernel.max_threads));
            return Err(Error::TooLarge { op: kernel.name, what: "threads per block (the kernel's launch bound)", value, limit });
        }
        let f = self.function(kernel)?;
        if cfg.shared_mem_bytes > 48 * 1024 {
            self.allow_shared(kernel, f, cfg.shared_mem_bytes)?;
        }
        if cfg.cluster != crate::launch::Dim3::ONE || cfg.overlaps_previous {
            // SAFETY: as below.
            return check(unsafe { launch_ex(f.0, cfg, stream, args) }, kernel.name);
        }
        // SAFETY: `f` belongs to the live module; the caller vouches for the arguments.
        let result = unsafe {
            cu::cuLaunchKernel(
                f.0,
                cfg.grid.x,
                cfg.grid.y,
                cfg.grid.z,
                cfg.block.x,
                cfg.block.y,
                cfg.block.z,
                cfg.shared_mem_bytes,
                stream,
                args.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        check(result, kernel.name)
    }

    /// Clusters of each size 1..=8 (the index; 0 unused) of `kernel`'s `threads`-thread blocks
    /// with `shared` bytes of dynamic shared memory each that the device keeps resident at once
    /// (`cuOccupancyMaxActiveClusters`).
    pub(crate) fn resident_clusters(&self, kernel: &KernelInfo, threads: u32, shared: u32) -> Result<[usize; 9]> {
        let f = self.function(kernel)?;
        self.allow_shared(kernel, f, shared)?;
        let mut out = [0; 9];
        for (size, slot) in out.iter_mut().enumerate().skip(1) {
            let size = size as u32;
            let mut attr = LaunchAttribute::new(LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, [size, 1, 1]);
            let config = LaunchConfigEx {
                grid: [size, 1, 1],
                block: [threads, 1, 1],
                shared_mem_bytes: shared,
                stream: std::ptr::null_mut(),
                attrs: &mut attr,
                num_attrs: 1,
            };
            let mut clusters: c_int = 0;
            // SAFETY: a live function; the config and its attribute outlive the call.
            let result = unsafe { cuOccupancyMaxActiveClusters(&mut clusters, f.0, &config) };
            check(result, "cuOccupancyMaxActiveClusters")?;
            *slot = clusters.max(0) as usize;
        }
        Ok(out)
    }

    /// Raises a function's dynamic shared-memory limit (needed above 48 KiB).
    fn allow_shared(&self, kernel: &KernelInfo, f: RawFunction, bytes: u32) -> Result<()> {
        let mut limits = self.shared_limit.lock().unwrap_or_else(|p| p.into_inner());
        if limits.get(kernel.name).is_some_and(|&b| b >= bytes) {
            return Ok(());
        }
        // SAFETY: valid function handle; the attribute takes a byte count.
        let result = unsafe { cu::cuFuncSetAttribute(f.0, cu::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes as i32) };
        check(result, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")?;
        limits.insert(kernel.name, bytes);
        Ok(())
    }
}

/// `CUlaunchAttribute` (cuda.h, CUDA 12.0+): an id, padding to 8 bytes, a 64-byte value union
/// of which only the cluster dimensions are used here. cust 0.3 predates `cuLaunchKernelEx`.
#[repr(C)]
struct LaunchAttribute {
    id: u32,
    pad: u32,
    value: [u32; 16],
}

impl LaunchAttribute {
    /// Attribute `id` whose value starts with the three words `v` (cluster dimensions, or a flag
    /// and zeros).
    fn new(id: u32, v: [u32; 3]) -> LaunchAttribute {
        let mut value = [0u32; 16];
        value[..3].copy_from_slice(&v);
        LaunchAttribute { id, pad: 0, value }
    }
}

/// `CUlaunchConfig` (cuda.h, CUDA 12.0+).
#[repr(C)]
struct LaunchConfigEx {
    grid: [u32; 3],
    block: [u32; 3],
    shared_mem_bytes: u32,
    stream: cu::CUstream,
    attrs: *mut LaunchAttribute,
    num_attrs: u32,
}

const _: () = assert!(size_of::<LaunchAttribute>() == 72 && size_of::<LaunchConfigEx>() == 56);

/// `CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION`.
const LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION: u32 = 4;
/// `CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION`.
const LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION: u32 = 6;

unsafe extern "C" {
    fn cuLaunchKernelEx(config: *const LaunchConfigEx, f: cu::CUfunction, params: *mut *mut c_void, extra: *mut *mut c_void) -> cu::CUresult;
    fn cuOccupancyMaxActiveClusters(clusters: *mut c_int, f: cu::CUfunction, config: *const LaunchConfigEx) -> cu::CUresult;
}

/// Launches `f` with `cfg`'s launch attributes (`cuLaunchKernelEx`): its thread-block clusters
/// and programmatic stream serialization.
///
/// # Safety
/// As [`cu::cuLaunchKernel`]: a live function, arguments matching its parameters; with
/// `cfg.overlaps_previous`, a kernel that waits for the previous grid before touching memory.
unsafe fn launch_ex(f: cu::CUfunction, cfg: LaunchConfig, stream: cu::CUstream, args: &mut [*mut c_void]) -> cu::CUresult {
    let attr = LaunchAttribute::new;
    // At most two attributes, on the stack (this runs on every clustered or overlapped launch).
    let mut attrs = [attr(0, [0; 3]), attr(0, [0; 3])];
    let mut count = 0;
    if cfg.cluster != crate::launch::Dim3::ONE {
        attrs[count] = attr(LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, [cfg.cluster.x, cfg.cluster.y, cfg.cluster.z]);
        count += 1;
    }
    if cfg.overlaps_previous {
        attrs[count] = attr(LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, [1, 0, 0]);
        count += 1;
    }
    let config = LaunchConfigEx {
        grid: [cfg.grid.x, cfg.grid.y, cfg.grid.z],
        block: [cfg.block.x, cfg.block.y, cfg.block.z],
        shared_mem_bytes: cfg.shared_mem_bytes,
        stream,
        attrs: attrs.as_mut_ptr(),
        num_attrs: count as u32,
    };
    // SAFETY: the config and its attributes outlive the call; the rest is forwarded.
    unsafe { cuLaunchKernelEx(&config, f, args.as_mut_ptr(), std::ptr::null_mut()) }
}

/// The kernels of a crate other than this runtime's own, embedded by its build script through
/// `kernel-builder` ([`include_kernels!`](crate::include_kernels)): its kernel table and one
/// `(architecture, PTX, cubin or empty)` image per architecture it was built for.
#[derive(Debug, Clone, Copy)]
pub struct KernelImages {
    pub kernels: &'static [KernelInfo],
    pub images: &'static [(&'static str, &'static [u8], &'static [u8])],
}

impl KernelImages {
    /// The image for a device of capability `major.minor`: the architecture-specific build for
    /// exactly this device (`sm_90a` on 9.0), else the newest that runs on it (PTX JIT-compiles
    /// forward); with whether its cubin runs here as is (SASS runs within its major version).
    pub fn pick(&self, major: i32, minor: i32) -> Option<PickedImage> {
        let runs = |arch: &str| arch_runs_on(arch, major, minor);
        let best =
            self.images.iter().filter(|(arch, _, _)| runs(arch)).max_by_key(|(arch, _, _)| parse_arch(arch).map(|(ma, mi, specific)| (specific, ma, mi)))?;
        let (arch, ptx, cubin) = *best;
        let sass_runs = parse_arch(arch).is_some_and(|(ma, mi, specific)| ma == major && if specific { mi == minor } else { mi <= minor });
        Some(PickedImage { arch, ptx, cubin: Some(cubin).filter(|c| !c.is_empty() && sass_runs) })
    }

    /// Loads the best image for a device of capability `major.minor`: the cubin where it runs
    /// here (else, or if the driver rejects it, the PTX).
    pub(crate) fn load(&self, major: i32, minor: i32) -> Result<KernelModule> {
        let PickedImage { arch, ptx, cubin } = self.pick(major, minor).ok_or(Error::UnsupportedDevice { name: "this GPU".into(), major, minor })?;
        if let Some(cubin) = cubin {
            match KernelModule::load_cubin_of(cubin, arch, self.kernels) {
                Ok(m) => return Ok(m),
                Err(err) => eprintln!("note: the embedded {arch} cubin did not load ({err}); using its PTX"),
            }
        }
        let ptx = std::str::from_utf8(ptx).map_err(|_| Error::InvalidArgument { op: "load_kernels", reason: format!("the {arch} PTX is not text") })?;
        KernelModule::load_ptx_of(ptx, arch, &format!("sm_{major}{minor}"), "no cubin for this GPU", self.kernels)
    }
}

/// What [`KernelImages::pick`] chose for a device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PickedImage {
    pub arch: &'static str,
    pub ptx: &'static [u8],
    /// The cubin, where there is one and it runs on the device as is.
    pub cubin: Option<&'static [u8]>,
}

/// The [`KernelImages`] a build script wrote with `kernel_builder::Builder::build_for_cargo`
/// for the kernel crate `$krate` (its library name): `include_kernels!(my_kernels)`.
#[macro_export]
macro_rules! include_kernels {
    ($krate:ident) => {
        $crate::module::KernelImages { kernels: $krate::KERNELS, images: include!(concat!(env!("OUT_DIR"), "/", stringify!($krate), ".images.rs")) }
    };
}

/// Says on stderr, from a helper thread, what the program waits for when a PTX load lasts more
/// than half a second: the driver JIT-compiling the whole module (about 40 s for `sm_90a` on an
/// H100) would otherwise look like a hang. A load served from the driver's cache stays silent.
/// On a terminal the elapsed time ticks; in a log, a line every 10 s.
struct JitNotice {
    done: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl JitNotice {
    fn start(device: &str, why: &str) -> JitNotice {
        use std::io::IsTerminal;
        let cache = if std::env::var("CUDA_CACHE_DISABLE").is_ok_and(|v| v == "1") {
            "every run: CUDA_CACHE_DISABLE=1 turns the driver's cache off"
        } else {
            "first run only: the driver caches the result"
        };
        let head = format!("compiling kernels for {device}, {cache} ({why})");
        let tty = std::io::stderr().is_terminal();
        let tick = if tty { Duration::from_millis(200) } else { Duration::from_secs(10) };
        JitNotice::start_with(head, std::io::stderr(), tty, Duration::from_millis(500), tick)
    }

    /// Writes `head` to `out` once `delay` has passed, then the elapsed time every `tick` (over
    /// the same line with a spinner on a terminal), and the total when dropped.
    fn start_with(head: String, mut out: impl std::io::Write + Send + 'static, tty: bool, delay: Duration, tick: Duration) -> JitNotice {
        use std::sync::mpsc::RecvTimeoutError::Timeout;
        let (done, rx) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            if rx.recv_timeout(delay) != Err(Timeout) {
                return;
            }
            let spin = ['|', '/', '-', '\\'];
            let _ = write!(out, "{head}");
            let _ = out.flush();
            let mut n = 0usize;
            while rx.recv_timeout(tick) == Err(Timeout) {
                n += 1;
                let secs = started.elapsed().as_secs_f64();
                let _ = if tty { write!(out, "\r{head} {} {secs:.0} s", spin[n % 4]) } else { write!(out, "\n  still compiling: {secs:.0} s") };
                let _ = out.flush();
            }
            let end = if tty { format!("\r{head}: ") } else { "\n  ".into() };
            let _ = writeln!(out, "{end}done in {:.1} s", started.elapsed().as_secs_f64());
        });
        JitNotice { done: Some(done), thread: Some(thread) }
    }
}

impl Drop for JitNotice {
    fn drop(&mut self) {
        drop(self.done.take()); // wakes the thread: the load is over
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `Write` whose bytes the test can read afterwards.
    #[derive(Clone, Default)]
    struct Sink(std::sync::Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_slow_jit_is_announced_and_a_fast_load_is_silent() {
        let ms = Duration::from_millis;
        let text = |s: &Sink| String::from_utf8(s.0.lock().unwrap().clone()).unwrap();
        let slow = Sink::default();
        let notice = JitNotice::start_with("compiling kernels for sm_100, first run only".into(), slow.clone(), false, ms(20), ms(40));
        std::thread::sleep(ms(400));
        drop(notice);
        let out = text(&slow);
        assert!(out.starts_with("compiling kernels for sm_100, first run only\n  still compiling: 0 s"), "{out:?}");
        assert!(out.contains("\n  done in 0.") && out.ends_with(" s\n"), "{out:?}");

        let tty = Sink::default();
        let notice = JitNotice::start_with("head".into(), tty.clone(), true, ms(10), ms(20));
        std::thread::sleep(ms(400));
        drop(notice);
        let out = text(&tty);
        assert!(out.starts_with("head\rhead / 0 s\rhead - 0 s") && out.contains("\rhead: done in 0."), "{out:?}");

        let fast = Sink::default();
        drop(JitNotice::start_with("head".into(), fast.clone(), false, ms(500), ms(40)));
        assert_eq!(text(&fast), "", "a load shorter than the delay prints nothing");
    }

    #[test]
    fn embedded_images_per_capability() {
        let pick = |major, minor| embedded_for(major, minor).map(|e| (e.arch, e.cubin.is_some()));
        let (sm80, sm90a) = (CUBIN_SM80.is_embedded(), CUBIN_SM90A.is_embedded());
        assert_eq!(pick(7, 5), None);
        assert_eq!(pick(8, 0), Some(("sm_80", sm80)));
        assert_eq!(pick(8, 9), Some(("sm_80", sm80)), "sm_80 SASS runs on every 8.x");
        assert_eq!(pick(9, 0), Some(("sm_90a", sm90a)));
        assert_eq!(pick(10, 0), Some(("sm_80", false)), "newer GPUs JIT the sm_80 PTX");
        assert_eq!(pick(12, 0), Some(("sm_80", false)));
        // The error for older GPUs names the same minimum.
        let e = Error::UnsupportedDevice { name: "old".into(), major: 7, minor: 5 }.to_string();
        assert!(e.contains("need 8.0 or newer"), "{e}");
    }

    #[test]
    fn picking_another_crates_image() {
        let images = KernelImages { kernels: &[], images: &[("sm_80", b"p80", b"c80"), ("sm_90a", b"p90a", b""), ("sm_86", b"p86", b"c86")] };
        let pick = |major, minor| images.pick(major, minor).map(|p| (p.arch, p.cubin.is_some()));
        assert_eq!(pick(7, 5), None);
        assert_eq!(pick(8, 0), Some(("sm_80", true)));
        assert_eq!(pick(8, 9), Some(("sm_86", true)), "the newest that runs");
        assert_eq!(pick(9, 0), Some(("sm_90a", false)), "the specific build, whose cubin is missing");
        assert_eq!(pick(12, 0), Some(("sm_86", false)), "newer GPUs JIT the PTX");
    }

    #[test]
    fn arch_compatibility() {
        assert!(arch_runs_on("sm_80", 8, 0));
        assert!(arch_runs_on("sm_80", 9, 0));
        assert!(arch_runs_on("sm_80", 12, 0));
        assert!(!arch_runs_on("sm_80", 7, 5));
        assert!(arch_runs_on("sm_90a", 9, 0));
        assert!(!arch_runs_on("sm_90a", 10, 0));
        assert!(!arch_runs_on("sm_90a", 8, 9));
        assert!(!arch_runs_on("garbage", 9, 0));
    }

    #[test]
    fn embedded_ptx_is_stamped_and_complete() {
        for (arch, ptx) in [("sm_80", PTX_SM80.text()), ("sm_90a", PTX_SM90A.text())] {
            assert!(ptx.starts_with(&format!("{}{SOURCE_HASH}", kernels::info::PTX_HASH_PREFIX)), "{arch} PTX carries this build's hash");
            assert!(ptx.contains(&format!(".target {arch}")), "{arch} PTX targets {arch}");
            for k in kernels::KERNELS.iter().filter(|k| k.available_on(arch)) {
                assert!(ptx.contains(&format!(".entry {}(", k.name)), "{} missing from {arch} PTX", k.name);
            }
        }
    }

    #[test]
    fn ptx_file_errors() {
        let dir = std::env::temp_dir().join(format!("ptx-file-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.ptx");
        assert!(matches!(read_ptx_file(&missing, 9, 0), Err(Error::PtxNotFound { .. })));
        let stale = dir.join("stale.ptx");
        std::fs::write(&stale, PTX_SM80.text().replacen(SOURCE_HASH, "0000000000000000", 1)).unwrap();
        let e = read_ptx_file(&stale, 9, 0).unwrap_err();
        assert!(matches!(e, Error::StalePtx { .. }) && e.to_string().contains("cargo xtask build-ptx"), "{e}");
        let unstamped = dir.join("unstamped.ptx");
        std::fs::write(&unstamped, PTX_SM80.text().lines().skip(1).collect::<Vec<_>>().join("\n")).unwrap();
        assert!(matches!(read_ptx_file(&unstamped, 9, 0), Err(Error::StalePtx { .. })));
        let newer = dir.join("newer.ptx");
        std::fs::write(&newer, PTX_SM90A.text()).unwrap();
        assert!(matches!(read_ptx_file(&newer, 8, 6), Err(Error::PtxArchUnsupported { .. })));
        let good = dir.join("good.ptx");
        std::fs::write(&good, PTX_SM80.text()).unwrap();
        assert_eq!(read_ptx_file(&good, 8, 6).unwrap().0, "sm_80");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! What the host needs to launch a kernel, shared by the device crate that defines it and the
//! host that launches it (this module compiles for both):
//!
//! - [`KernelInfo`]: a kernel's PTX name, parameter layout, architecture and launch bounds,
//!   emitted by `#[kernel]` beside each kernel (`pub const VEC_ADD: KernelInfo`); the builder
//!   checks every PTX `.entry` against it and the host looks kernels up by it;
//! - [`Launch`] and [`KernelArg`]: the typed launch. On the host, `#[kernel]` also emits a
//!   launcher with the kernel's own name and parameter types (`vec_add(&gpu, cfg, a, b, c, n)`),
//!   generic over a [`Launch`] implementation (the host runtime's GPU or module) and taking each
//!   argument as an `impl KernelArg<P>` of the parameter's type `P`. A wrong argument count or
//!   type is a compile error; a device buffer converts to the pointer type it matches.

use core::ffi::c_void;

/// How one kernel parameter is passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// A device pointer (64-bit).
    Pointer,
    /// `u32` / `i32`.
    Word,
    /// `u64` / `i64` / `usize`.
    DoubleWord,
    F32,
    /// A `#[repr(C)]` struct passed by value, of this many bytes.
    Aggregate(u32),
    /// A `matmul::TensorMap` (128 bytes), declared 64-byte aligned in the PTX.
    TensorMap,
}

impl ParamKind {
    pub const fn bytes(self) -> u32 {
        match self {
            ParamKind::Pointer | ParamKind::DoubleWord => 8,
            ParamKind::Word | ParamKind::F32 => 4,
            ParamKind::Aggregate(b) => b,
            ParamKind::TensorMap => 128,
        }
    }
    pub const fn is_pointer(self) -> bool {
        matches!(self, ParamKind::Pointer)
    }
}

/// The oldest PTX architecture a kernel is compiled into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MinArch {
    /// Every build (sm_80 and up).
    Any,
    /// Only `sm_90a` builds (Hopper-only instructions such as `wgmma`).
    Sm90a,
}

/// A kernel's PTX entry name and parameter list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelInfo {
    pub name: &'static str,
    pub params: &'static [ParamKind],
    pub min_arch: MinArch,
    /// Launch bounds written into the PTX entry (`.maxntid`): the most threads a block may have,
    /// or 0 for no bound.
    pub max_threads: u32,
    /// `.minnctapersm`: blocks that must fit on one multiprocessor at once (0: no bound).
    pub min_blocks: u32,
}

impl KernelInfo {
    /// Whether PTX built for `arch` (`sm_80`, `sm_90a`, …) contains this kernel.
    pub fn available_on(&self, arch: &str) -> bool {
        match self.min_arch {
            MinArch::Any => true,
            MinArch::Sm90a => arch == "sm_90a",
        }
    }
}

/// Prefix of the first PTX line, which the builder stamps with the hash of the kernel sources.
pub const PTX_HASH_PREFIX: &str = "// kernels-source-hash: ";

/// The kernel-source hash stamped on a PTX text's first line, if any.
pub fn ptx_source_hash(ptx: &str) -> Option<&str> {
    ptx.lines().next()?.strip_prefix(PTX_HASH_PREFIX).map(str::trim)
}

/// The `.target` directive's first operand of a PTX text, e.g. `sm_90a`.
pub fn ptx_target(ptx: &str) -> Option<&str> {
    ptx.lines().find_map(|l| l.trim().strip_prefix(".target ")).map(|t| t.split(',').next().unwrap_or(t).trim())
}

/// Something that can launch a kernel it has loaded: the host runtime implements this for its
/// GPU handle and its loaded modules, and the launchers that `#[kernel]` generates call it.
pub trait Launch {
    /// Grid, block and shared memory (the host runtime's launch configuration).
    type Config;
    /// What a failed launch returns.
    type Error;

    /// Launches `kernel` with `args`, one pointer per parameter, in order.
    ///
    /// # Safety
    /// `args.len()` equals `kernel.params.len()`, each pointer points to a value of the exact
    /// type of its parameter, and every device address among those values is valid for every
    /// access the kernel makes. The generated launchers guarantee the first two.
    unsafe fn launch_raw(&self, kernel: &KernelInfo, config: Self::Config, args: &mut [*mut c_void]) -> Result<(), Self::Error>;
}

/// A value the launcher can pass as a kernel parameter of type `P`: `P` itself, or a host-side
/// handle that converts to it (the host runtime's device buffers convert to `*const T` and
/// `*mut T`). The conversion is the only thing a launcher does with it.
pub trait KernelArg<P> {
    fn into_kernel_arg(self) -> P;
}

impl<P: Copy> KernelArg<P> for P {
    #[inline(always)]
    fn into_kernel_arg(self) -> P {
        self
    }
}

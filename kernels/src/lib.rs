//! Device code for the GPU, written in Rust on top of the device-support crate `kernel_std` (as
//! any kernel crate would be) and compiled to PTX by rustc's own `nvptx64-nvidia-cuda` backend
//! through `kernel-builder` (`cargo xtask build-ptx`, or the host's build script).
//!
//! On the GPU target every `#[kernel]` becomes a PTX entry. On the host this crate compiles too,
//! without the kernel bodies: the host uses its launch descriptors ([`KERNELS`]), its tile
//! constants, and the math in [`math`], which the CPU reference shares with the kernels.
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, stdarch_nvptx, asm_experimental_arch, core_intrinsics))]
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]

pub use kernel_std::kernel;

/// Repeats a block once per listed constant, binding it to `$i`: a loop the compiler must
/// unroll, so register arrays indexed by `$i` stay in registers (a run-time index would move them
/// to local memory).
#[allow(unused_macros)]
macro_rules! unroll {
    ($i:ident in [$($n:literal),* $(,)?] $body:block) => {
        $( { #[allow(non_upper_case_globals)] const $i: usize = $n; $body } )*
    };
}

pub mod info;
pub mod math;
pub mod vector;

#[cfg(target_arch = "nvptx64")]
pub use kernel_std::{shared, thread};

pub mod activation;
pub mod dense;
pub mod elementwise;
pub mod matmul;
pub mod optim;
pub mod reduce;
pub mod softmax;

pub use info::{KERNELS, KernelInfo, MinArch, ParamKind};
pub use kernel_std::launch::{KernelArg, Launch};

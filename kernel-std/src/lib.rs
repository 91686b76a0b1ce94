//! Device support for GPU kernels written in Rust and compiled to PTX by rustc's own
//! `nvptx64-nvidia-cuda` backend: the role Rust-CUDA's `cuda_std` plays for its NVVM backend.
//! A kernel crate depends on this one, writes `#[kernel] pub unsafe fn`s, and is compiled by
//! `kernel-builder` from a build script; the host launches the kernels through the typed
//! launchers `#[kernel]` generates (see [`launch`]).
//!
//! On the GPU target every module is available; on the host, the parts a host needs: [`math`]
//! (so a CPU reference computes with the kernels' own functions), [`launch`], and `#[kernel]`.
//!
//! | `cuda_std` | here |
//! | --- | --- |
//! | `#[kernel]` | [`kernel`] (also emits a [`KernelInfo`] and, on the host, a typed launcher) |
//! | `thread::thread_idx_x()`, `block_idx_x()`, `block_dim_x()`, `grid_dim_x()` (and `_y`, `_z`) | [`thread`]`::` the same names |
//! | `thread::index_1d()`, `index_2d()` | `thread::index_1d()`, `index_2d()` (`index_2d` is `(x, y)`: x along columns) |
//! | `thread::sync_threads()` | `thread::sync_threads()` |
//! | `shared_array![f32; 256]` (static `__shared__`) | [`static_shared!`]`(TILE: [f32; 256])` |
//! | `shared::dynamic_shared_memory()` (`extern __shared__`) | [`shared::dynamic_shared`]`::<T>()` |
//! | `warp` shuffles (CUDA's `__shfl_xor_sync`, `__shfl_down_sync`, `__shfl_sync`) | [`warp`]`::shfl_xor_f32`, `shfl_down_f32`, `shfl_idx_f32`; reductions `warp_sum`, `warp_max` |
//! | `GpuFloat::exp` and friends (libdevice) | [`math`]`::exp`, `fast_exp`, `sigmoid`, `tanh` (pure Rust, the same on the CPU) |
//!
//! What is not here: no allocation, no `printf`, no atomics beyond what `core` offers on the
//! target, no libdevice.
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(stdarch_nvptx, asm_experimental_arch, gpu_intrinsics, gpu_launch_sized_workgroup_mem, core_intrinsics))]
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]

pub use kernel_macros::kernel;

pub mod launch;
pub mod math;

#[cfg(target_arch = "nvptx64")]
pub mod shared;
#[cfg(target_arch = "nvptx64")]
pub mod thread;
#[cfg(target_arch = "nvptx64")]
pub mod warp;

pub use launch::{KernelArg, KernelInfo, Launch, MinArch, ParamKind};

/// A kernel that panics (an index out of bounds, an `unwrap`) traps: the launch fails, and the
/// host sees the error at its next synchronization. One handler for every kernel crate.
#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: `trap` aborts the kernel; the host sees a launch failure on its next sync.
    unsafe { core::arch::nvptx::trap() }
}

//! Host runtime: loads the Rust-built PTX with cust and runs vector, matrix and neural-network
//! ops on the GPU, each checked against a CPU reference in the tests.
//!
//! ```no_run
//! use host::{Gpu, DeviceVector, ops};
//! let gpu = Gpu::new()?;
//! let a = DeviceVector::from_host(&gpu, &[1.0f32, 2.0, 3.0])?;
//! let b = DeviceVector::from_host(&gpu, &[10.0f32, 20.0, 30.0])?;
//! let c = ops::elementwise::vec_add(&gpu, &a, &b)?;
//! assert_eq!(c.to_host(&gpu)?, [11.0, 22.0, 33.0]);
//! # Ok::<(), host::Error>(())
//! ```
//!
//! Kernels are launched through the typed launchers `#[kernel]` generates, named and typed as the
//! kernel itself; device buffers convert to the pointer types they match (`&` to `*const T`,
//! `&mut` to `*mut T`):
//!
//! ```no_run
//! # use host::{DeviceVector, Gpu, LaunchConfig};
//! # fn f(gpu: &Gpu, a: &DeviceVector<f32>, b: &DeviceVector<f32>, c: &mut DeviceVector<f32>) -> host::Result<()> {
//! let cfg = LaunchConfig::for_num_elems("vec_add", a.len(), 256)?;
//! // SAFETY: a, b and c hold a.len() f32.
//! unsafe { kernels::elementwise::vec_add_f32(gpu, cfg, a, b, c, a.len()) }
//! # }
//! ```
//!
//! A wrong type is a compile error (here the length as a `u32`, where the kernel takes a `usize`):
//!
//! ```compile_fail
//! # use host::{DeviceVector, Gpu, LaunchConfig};
//! # fn f(gpu: &Gpu, a: &DeviceVector<f32>, c: &mut DeviceVector<f32>, cfg: LaunchConfig) -> host::Result<()> {
//! unsafe { kernels::elementwise::vec_add_f32(gpu, cfg, a, a, c, 10u32) }
//! # }
//! ```
//!
//! and so is an input buffer where the kernel writes (`&` for a `*mut`), or a wrong count:
//!
//! ```compile_fail
//! # use host::{DeviceVector, Gpu, LaunchConfig};
//! # fn f(gpu: &Gpu, a: &DeviceVector<f32>, cfg: LaunchConfig) -> host::Result<()> {
//! unsafe { kernels::elementwise::vec_add_f32(gpu, cfg, a, a, a, a.len()) }
//! # }
//! ```

pub mod buffer;
pub mod buffer_bf16;
pub mod context;
pub mod dist;
pub mod error;
pub mod launch;
pub mod module;
pub mod nccl;
pub mod nn;
pub mod ops;
pub mod reference;
pub mod tensor_map;

pub use buffer::{DeviceMatrix, DeviceVector};
pub use context::{DeviceInfo, Gpu, GpuOptions, LoadedKernels};
pub use error::{Error, Result};
pub use kernels::math::Activation;
pub use launch::{Dim3, LaunchConfig};
pub use module::{ImageKind, KernelImages, PtxSource};

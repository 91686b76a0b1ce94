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

pub mod buffer;
pub mod buffer_bf16;
pub mod context;
pub mod error;
pub mod launch;
pub mod module;
pub mod nn;
pub mod ops;
pub mod reference;
pub mod tensor_map;

pub use buffer::{DeviceMatrix, DeviceVector};
pub use context::{DeviceInfo, Gpu, GpuOptions};
pub use error::{Error, Result};
pub use kernels::math::Activation;
pub use launch::{Dim3, LaunchConfig};
pub use module::{ImageKind, PtxSource};

//! GPU ops, one module per kernel family (`kernels/src/<family>.rs`). Each op checks shapes,
//! returns early on empty input (no launch), derives its launch configuration from the shape,
//! and launches through one typed function per kernel.

pub mod activation;
pub mod dense;
pub mod elementwise;
pub mod matmul;
pub mod optim;
pub mod reduce;
pub mod softmax;

use crate::error::{Error, Result};

/// Shape check shared by the ops.
pub(crate) fn expect_shape<T: PartialEq + std::fmt::Debug>(op: &'static str, what: &str, expected: T, got: T) -> Result<()> {
    if expected == got { Ok(()) } else { Err(Error::ShapeMismatch { op, expected: format!("{what} {expected:?}"), got: format!("{got:?}") }) }
}

/// Blocks per multiprocessor for grid-stride elementwise launches: enough resident warps to
/// keep many 16-byte loads in flight on every SM.
pub(crate) const ELEMENTWISE_BLOCKS_PER_SM: u32 = 16;

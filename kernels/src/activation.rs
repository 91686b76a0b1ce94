//! Activation functions over a vector: the article's `__device__` sigmoid called from a kernel,
//! and a vectorized kernel for any [`Activation`](crate::math::Activation).

use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use crate::{
    math::{self, Activation},
    thread,
    vector::stream_map,
};

/// y[i] = σ(x[i]), one thread per element; σ is [`math::sigmoid`], the same function the CPU
/// reference calls.
///
/// # Safety
/// `x`, `y` hold `n` f32 (`y` may equal `x`).
///
/// # Thread mapping
/// 1-D, one element per thread.
#[kernel]
pub unsafe fn sigmoid_f32(x: *const f32, y: *mut f32, n: usize) {
    let i = thread::index_1d();
    if i < n {
        // SAFETY: i < n.
        unsafe { *y.add(i) = math::sigmoid(*x.add(i)) };
    }
}

/// y = act(x) with 16-byte accesses; `act` is an `Activation` code.
///
/// # Safety
/// `x`, `y` hold `n` f32, are 16-byte aligned, and are equal or disjoint.
///
/// # Thread mapping
/// As `vec_add_f32x4`.
#[kernel]
pub unsafe fn activation_f32x4(x: *const f32, y: *mut f32, n: usize, act: u32) {
    // One loop per activation, so the loop body is straight-line code (a per-element `match`
    // kept the loop from unrolling and put the in-flight quads in local memory).
    // SAFETY: forwarded from the caller (`x` is passed as both inputs; the second is not read).
    unsafe {
        match Activation::from_code(act) {
            Activation::Identity => stream_map::<false>(x, x, y, n, |v, _| v),
            Activation::Sigmoid => stream_map::<false>(x, x, y, n, |v, _| math::sigmoid(v)),
            Activation::Relu => stream_map::<false>(x, x, y, n, |v, _| math::relu(v)),
            Activation::Tanh => stream_map::<false>(x, x, y, n, |v, _| math::tanh(v)),
        }
    }
}

//! Activation functions over a vector: the article's `__device__` sigmoid called from a kernel,
//! and a vectorized kernel for any [`Activation`](crate::math::Activation).

use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use crate::{
    math::{self, Activation},
    thread,
    vector::F32x4,
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
/// 1-D grid-stride over quads, scalar tail on the first threads (as `vec_add_f32x4`).
#[kernel]
pub unsafe fn activation_f32x4(x: *const f32, y: *mut f32, n: usize, act: u32) {
    let act = Activation::from_code(act);
    let quads = n / 4;
    let stride = thread::grid_stride_x();
    let first = thread::index_1d();
    let (x4, y4) = (x as *const F32x4, y as *mut F32x4);
    let mut q = first;
    while q < quads {
        // SAFETY: q < n/4, aligned.
        unsafe { *y4.add(q) = (*x4.add(q)).map(|v| act.apply(v)) };
        q += stride;
    }
    let t = quads * 4 + first;
    if t < n {
        // SAFETY: t < n.
        unsafe { *y.add(t) = act.apply(*x.add(t)) };
    }
}

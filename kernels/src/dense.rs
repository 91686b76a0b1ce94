//! The neural layer y = act(x·Wᵀ + b) over a batch.

use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use crate::{math::Activation, thread};

/// Block shape (x = output features, y = batch rows) of [`dense_naive_f32`].
pub const NAIVE_BLOCK: (u32, u32) = (16, 16);

/// y[r, o] = act(Σᵢ x[r, i]·W[o, i] + bias[o]), one thread per output, as the article's layer
/// generalized to a batch. W is `out × in` row-major (the layout PyTorch's `Linear` uses).
///
/// # Safety
/// `x` is `batch×in_f`, `w` is `out_f×in_f`, `bias` has `out_f`, `y` is `batch×out_f`; `y` is
/// disjoint from the inputs. `act` is an `Activation` code.
///
/// # Thread mapping
/// x → output feature, y → batch row.
#[kernel]
pub unsafe fn dense_naive_f32(x: *const f32, w: *const f32, bias: *const f32, y: *mut f32, batch: usize, in_f: usize, out_f: usize, act: u32) {
    let (o, r) = thread::index_2d();
    if r < batch && o < out_f {
        // SAFETY: o < out_f.
        let mut acc = unsafe { *bias.add(o) };
        for i in 0..in_f {
            // SAFETY: r < batch, o < out_f, i < in_f.
            acc += unsafe { *x.add(r * in_f + i) * *w.add(o * in_f + i) };
        }
        // SAFETY: in bounds as above.
        unsafe { *y.add(r * out_f + o) = Activation::from_code(act).apply(acc) };
    }
}

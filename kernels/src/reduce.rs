//! Reductions: warp and block sums (shuffles, then shared memory), the bias gradient of a dense
//! layer fused with its activation derivative (dZ = dY ⊙ f'(Y), db = column sums of dZ), and a
//! scaled sum accumulated into a device scalar (the running loss).
//!
//! Every reduction here sums in a fixed order, so a result is the same on every run.

use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use crate::{math::Activation, shared, thread};

/// Block shape (x = columns in a strip, y = row lanes) of [`act_backward_col_sum_f32`]: a warp
/// reads 32 contiguous columns of one row (128 bytes, coalesced); 32 warps share a strip.
pub const COL_SUM_BLOCK: (u32, u32) = (32, 32);
/// Dynamic shared memory of [`act_backward_col_sum_f32`]: a 32×33 tile of partial sums (the
/// padding column keeps the column-wise reads free of bank conflicts).
pub const COL_SUM_SHARED_BYTES: u32 = 32 * 33 * 4;

/// Threads of the one block of [`sum_scaled_accum_f32`].
pub const SUM_BLOCK: u32 = 1024;
/// Dynamic shared memory of [`sum_scaled_accum_f32`]: one partial per warp.
pub const SUM_SHARED_BYTES: u32 = 32 * 4;

#[cfg(target_arch = "nvptx64")]
pub(crate) use kernel_std::warp::{shfl_xor_f32, shfl_xor_u32, warp_max, warp_sum};

/// dZ[r, c] = dY[r, c]·f'(Y[r, c]) and db[c] = Σ_r dZ[r, c]: a dense layer's backward pass from
/// the gradient of its output to that of its pre-activation and bias, in one read of dY and Y.
///
/// # Safety
/// `dy`, `dz` hold `rows·cols` f32 (row-major) and are equal or disjoint; `y` too unless `act`
/// is `Identity` (then it is not read and may be null); `db` holds `cols` f32, disjoint from the
/// rest. Launched with [`COL_SUM_BLOCK`] and [`COL_SUM_SHARED_BYTES`] of dynamic shared memory.
///
/// # Parameters
/// `act`: the layer's `Activation` code; its derivative is taken from the output Y.
///
/// # Thread mapping
/// Block x covers a strip of 32 columns (grid x = ⌈cols/32⌉); thread (tx, ty) sums rows
/// ty, ty+32, … of column 32·blockIdx.x + tx, so each warp reads one row's 32 columns at a time.
/// The 32 partials of a column are then added in a fixed order by warp 0.
#[kernel]
pub unsafe fn act_backward_col_sum_f32(
    dy: *const f32,
    y: *const f32,
    dz: *mut f32,
    db: *mut f32,
    rows: usize,
    cols: usize,
    act: u32,
) {
    let act = Activation::from_code(act);
    let (tx, ty) = (thread::thread_idx_x() as usize, thread::thread_idx_y() as usize);
    let lanes = thread::block_dim_y() as usize;
    let col = thread::block_idx_x() as usize * 32 + tx;
    let mut acc = 0.0f32;
    if col < cols {
        let mut r = ty;
        while r < rows {
            let i = r * cols + col;
            // SAFETY: r < rows, col < cols.
            let mut g = unsafe { *dy.add(i) };
            if act != Activation::Identity {
                // SAFETY: as above; `y` is valid unless act is Identity.
                g *= act.derivative_from_output(unsafe { *y.add(i) });
                // SAFETY: as above; this thread alone reads and writes element i.
                unsafe { *dz.add(i) = g };
            } else if dz as *const f32 != dy {
                // SAFETY: as above.
                unsafe { *dz.add(i) = g };
            }
            acc += g;
            r += lanes;
        }
    }
    let tile = shared::dynamic_shared::<f32>();
    // SAFETY: tx < 32, ty < 32: inside the 32×33 tile.
    unsafe { *tile.add(ty * 33 + tx) = acc };
    thread::sync_threads();
    if ty == 0 && col < cols {
        let mut s = 0.0f32;
        for k in 0..lanes {
            // SAFETY: k < 32.
            s += unsafe { *tile.add(k * 33 + tx) };
        }
        // SAFETY: col < cols.
        unsafe { *db.add(col) = s };
    }
}

/// acc[0] += scale·Σ x[i]: the mean loss of a batch added to a running total on the device, so a
/// training loop reads it back only when it wants to show it.
///
/// # Safety
/// `x` holds `n` f32; `acc` points to one f32, disjoint from `x`. One block of [`SUM_BLOCK`]
/// threads with [`SUM_SHARED_BYTES`] of dynamic shared memory.
///
/// # Thread mapping
/// One block: thread t sums x[t], x[t + 1024], …; warps reduce by shuffles, warp 0 adds the warp
/// partials, thread 0 updates `acc`.
#[kernel]
pub unsafe fn sum_scaled_accum_f32(x: *const f32, n: usize, acc: *mut f32, scale: f32) {
    let t = thread::thread_idx_x() as usize;
    let threads = thread::block_dim_x() as usize;
    let mut s = 0.0f32;
    let mut i = t;
    while i < n {
        // SAFETY: i < n.
        s += unsafe { *x.add(i) };
        i += threads;
    }
    s = warp_sum(s);
    let partials = shared::dynamic_shared::<f32>();
    let (warp, lane) = (thread::warp_id() as usize, thread::lane_id() as usize);
    let warps = threads.div_ceil(32);
    if lane == 0 {
        // SAFETY: warp < 32 (at most 1024 threads).
        unsafe { *partials.add(warp) = s };
    }
    thread::sync_threads();
    if warp == 0 {
        // SAFETY: lane < 32; entries past `warps` are not read.
        let mut v = if lane < warps { unsafe { *partials.add(lane) } } else { 0.0 };
        v = warp_sum(v);
        if lane == 0 {
            // SAFETY: one thread updates the scalar.
            unsafe { *acc += scale * v };
        }
    }
}

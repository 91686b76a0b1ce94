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
/// The rows are cut into `gridDim.y` chunks so that a tall, narrow matrix still spreads over
/// every multiprocessor: one block per 32-column strip read a 4096×1024 dY in 46 µs and a
/// 4096×10 one in 28 µs on an H100 (32 and 1 blocks). Each chunk's column sums go to a
/// workspace, and the block of a strip that counts in last adds them in chunk order
/// ([`last_block_in`]), so the result does not depend on which block finishes first.
///
/// # Safety
/// `dy`, `dz` hold `rows·cols` f32 (row-major) and are equal or disjoint; `y` too unless `act`
/// is `Identity` (then it is not read and may be null); `db` holds `cols` f32, disjoint from the
/// rest; `dz_bf16` is null or holds `rows·cols` u16, disjoint from the rest (then dZ rounded to
/// bf16 is written there too: the mixed-precision backward's GEMM input, with no cast pass). With more than one chunk, `ws` holds `strips·chunks·32` f32 and `sem` one zeroed `u32`
/// per strip (left zeroed). `bias` is null or holds `cols` f32, disjoint from the rest: then
/// each bias[c] also takes its plain SGD step at rate `lr` ([`crate::optim::sgd_update`]) where
/// db[c] is written, so a training step needs no launch per bias. Launched with
/// [`COL_SUM_BLOCK`] and [`COL_SUM_SHARED_BYTES`] of dynamic shared memory.
///
/// # Parameters
/// `act`: the layer's `Activation` code; its derivative is taken from the output Y.
/// `chunk_rows`: rows per chunk (a multiple of 32; `gridDim.y` chunks cover `rows`).
///
/// # Thread mapping
/// Block (x, y) covers a strip of 32 columns (grid x = ⌈cols/32⌉) and chunk y of the rows;
/// thread (tx, ty) sums the chunk's rows ty, ty+32, … of column 32·blockIdx.x + tx, so each
/// warp reads one row's 32 columns at a time. The 32 partials of a column are then added in a
/// fixed order by warp 0.
#[kernel]
pub unsafe fn act_backward_col_sum_f32(
    dy: *const f32,
    y: *const f32,
    dz: *mut f32,
    dz_bf16: *mut u16,
    db: *mut f32,
    rows: usize,
    cols: usize,
    act: u32,
    chunk_rows: usize,
    ws: *mut f32,
    sem: *mut u32,
    bias: *mut f32,
    lr: f32,
) {
    let act = Activation::from_code(act);
    // db[c] = g, and the bias's SGD step when asked.
    let finish = |c: usize, g: f32| {
        // SAFETY (callers): c < cols; `bias` is null or holds cols f32.
        unsafe {
            *db.add(c) = g;
            if !bias.is_null() {
                let hp = crate::optim::SgdParams { lr, momentum: 0.0, weight_decay: 0.0 };
                *bias.add(c) = crate::optim::sgd_update(*bias.add(c), g, 0.0, &hp).0;
            }
        }
    };
    let (tx, ty) = (thread::thread_idx_x() as usize, thread::thread_idx_y() as usize);
    let lanes = thread::block_dim_y() as usize;
    let (strip, chunk, chunks) = (thread::block_idx_x() as usize, thread::block_idx_y() as usize, thread::grid_dim_y() as usize);
    let col = strip * 32 + tx;
    let first = chunk * chunk_rows;
    let end = if first + chunk_rows < rows { first + chunk_rows } else { rows };
    let mut acc = 0.0f32;
    if col < cols {
        let mut r = first + ty;
        while r < end {
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
            if !dz_bf16.is_null() {
                // SAFETY: as above.
                unsafe { *dz_bf16.add(i) = crate::math::f32_to_bf16(g) };
            }
            acc += g;
            r += lanes;
        }
    }
    let tile = shared::dynamic_shared::<f32>();
    // SAFETY: tx < 32, ty < 32: inside the 32×33 tile.
    unsafe { *tile.add(ty * 33 + tx) = acc };
    thread::sync_threads();
    // The chunk's sum of column tx, in lane order (warp 0).
    let chunk_sum = |tile: *mut f32| {
        let mut s = 0.0f32;
        for k in 0..lanes {
            // SAFETY: k < 32, tx < 32.
            s += unsafe { *tile.add(k * 33 + tx) };
        }
        s
    };
    if chunks == 1 {
        if ty == 0 && col < cols {
            finish(col, chunk_sum(tile));
        }
        return;
    }
    let slot = |c: usize| (strip * chunks + c) * 32 + tx;
    if ty == 0 {
        // SAFETY: inside the workspace (strip < strips, chunk < chunks, tx < 32).
        unsafe { *ws.add(slot(chunk)) = chunk_sum(tile) };
    }
    // SAFETY: one zeroed counter per strip (the caller's contract); every thread calls it.
    if !unsafe { last_block_in(sem.add(strip), chunks as u32, tx == 0 && ty == 0, sync_threads_or) } {
        return;
    }
    // The last block: thread (tx, ty) adds chunks ty, ty + 32, … of column tx, then warp 0
    // adds the 32 lanes, both in a fixed order.
    let mut s = 0.0f32;
    let mut c = ty;
    while c < chunks {
        // SAFETY: a slot of this strip, written by its chunk's block before it counted in.
        s += unsafe { load_l2(ws.add(slot(c))) };
        c += lanes;
    }
    thread::sync_threads();
    // SAFETY: as above.
    unsafe { *tile.add(ty * 33 + tx) = s };
    thread::sync_threads();
    if ty == 0 && col < cols {
        finish(col, chunk_sum(tile));
    }
}

/// `__syncthreads_or` over the whole block.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn sync_threads_or(x: bool) -> bool {
    let r: u32;
    // SAFETY: a barrier every thread of the block reaches.
    unsafe {
        core::arch::asm!(
            "{{ .reg .pred q, r; setp.ne.u32 q, {x}, 0; bar.red.or.pred r, 0, q; selp.u32 {r}, 1, 0, r; }}",
            x = in(reg32) u32::from(x), r = out(reg32) r,
        )
    };
    r != 0
}

/// A load that bypasses L1 (`ld.global.cg`): data other blocks of the grid wrote.
///
/// # Safety
/// `p` is a valid global address.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn load_l2(p: *const f32) -> f32 {
    let v: f32;
    // SAFETY: forwarded from the caller.
    unsafe { core::arch::asm!("ld.global.cg.f32 {v}, [{p}];", v = out(reg32) v, p = in(reg64) p, options(pure, readonly, nostack)) };
    v
}

/// Counts this block in on `flag`, after every thread of the group has written its partial
/// results; true in the block that arrives `total`-th (every other block's results are then
/// visible to it, and it resets the counter for the next launch), false in the others. No
/// block waits for another. `sync_or` is `__syncthreads_or` over the threads that hold the
/// results; `leader` is one of them.
///
/// # Safety
/// `flag` is a global `u32`, zero before the first of the `total` blocks counts in; every
/// thread of the group calls it.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn last_block_in(flag: *mut u32, total: u32, leader: bool, sync_or: impl Fn(bool) -> bool) -> bool {
    use core::arch::asm;
    // SAFETY (whole body): `flag` is an aligned global u32 (forwarded).
    unsafe {
        // Publish the partials before counting in (the release half of the handshake): every
        // thread's stores, fenced, then the barrier, then one thread counts in.
        asm!("fence.acq_rel.gpu;");
        sync_or(false);
        let mut last = false;
        if leader {
            let old: u32;
            asm!("atom.add.acq_rel.gpu.global.u32 {o}, [{f}], 1;", o = out(reg32) old, f = in(reg64) flag);
            last = old + 1 == total;
            if last {
                // Every block has counted in: ready for the next launch.
                asm!("st.relaxed.gpu.global.u32 [{f}], 0;", f = in(reg64) flag);
            }
        }
        let last = sync_or(last);
        if last {
            asm!("fence.acq_rel.gpu;");
        }
        last
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

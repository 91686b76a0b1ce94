//! 1-D register blocking: each thread computes a column of 8 outputs, so one value of op(B)
//! read from shared memory feeds 8 multiply-adds.

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use {
    super::common::{Operand, fma},
    crate::thread,
};

/// Rows of C per block of `gemm_bt1d_f32`.
pub const BT1D_BM: usize = 64;
/// Columns of C per block.
pub const BT1D_BN: usize = 64;
/// k per shared slice.
pub const BT1D_BK: usize = 8;
/// Outputs per thread (a column segment).
pub const BT1D_TM: usize = 8;
/// Threads per block.
pub const BT1D_THREADS: u32 = (BT1D_BM * BT1D_BN / BT1D_TM) as u32;
/// Dynamic shared memory: op(A) slice k-major (`BK×BM`) and op(B) slice (`BK×BN`).
pub const BT1D_SHARED: u32 = (BT1D_BK * (BT1D_BM + BT1D_BN) * 4) as u32;

/// Each thread: 8 consecutive rows of one column of C.
///
/// # Safety
/// `a`, `b`, `c` (and `bias` if `p.has_bias != 0`, with n entries) cover every element the
/// strides address; `c` is disjoint from the inputs. Launch: block `BT1D_THREADS`, grid
/// (⌈n/64⌉, ⌈m/64⌉), `BT1D_SHARED` bytes of dynamic shared memory.
///
/// # Thread mapping
/// Thread t → column t % 64, rows (t / 64)·8 + 0..8 of the block's 64×64 tile. Loading, thread t
/// fetches one element of each slice, consecutive threads along the operand's contiguous
/// direction.
#[kernel]
pub unsafe fn gemm_bt1d_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    const BM: usize = BT1D_BM;
    const BN: usize = BT1D_BN;
    const BK: usize = BT1D_BK;
    let tid = thread::thread_idx_x() as usize;
    let m0 = thread::block_idx_y() as usize * BM;
    let n0 = thread::block_idx_x() as usize * BN;
    let (opa, opb) = (Operand::a(a, &p), Operand::b(b, &p));
    let sa = crate::shared::dynamic_shared::<f32>(); // sa[q·BM + i]
    // SAFETY: the launch gives BK·(BM + BN) floats.
    let sb = unsafe { sa.add(BK * BM) }; // sb[q·BN + j]
    let (tc, tr) = (tid % BN, (tid / BN) * BT1D_TM);
    // Load coordinates: along k for a k-contiguous operand, along the outer dimension otherwise.
    let (la_o, la_q) = if opa.k_contig { (tid / BK, tid % BK) } else { (tid % BM, tid / BM) };
    let (lb_o, lb_q) = if opb.k_contig { (tid / BK, tid % BK) } else { (tid % BN, tid / BN) };
    let mut acc = [0.0f32; BT1D_TM];
    let mut k0 = 0;
    while k0 < p.k as usize {
        // SAFETY: la_q < BK, la_o < BM (and likewise for B); global reads are bounds-checked.
        unsafe {
            *sa.add(la_q * BM + la_o) = opa.get(m0 + la_o, k0 + la_q);
            *sb.add(lb_q * BN + lb_o) = opb.get(n0 + lb_o, k0 + lb_q);
        }
        thread::sync_threads();
        for q in 0..BK {
            // SAFETY: inside the slices.
            let bv = unsafe { *sb.add(q * BN + tc) };
            for i in 0..BT1D_TM {
                // SAFETY: tr + i < BM.
                acc[i] = fma(unsafe { *sa.add(q * BM + tr + i) }, bv, acc[i]);
            }
        }
        thread::sync_threads();
        k0 += BK;
    }
    let col = n0 + tc;
    for (i, &v) in acc.iter().enumerate() {
        let row = m0 + tr + i;
        if row < p.m as usize && col < p.n as usize {
            // SAFETY: (row, col) is inside C.
            unsafe { super::gemm_epilogue(c, bias, &p, row, col, v) };
        }
    }
}

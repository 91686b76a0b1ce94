//! Split-K inside one launch, for GEMMs whose output has too few tiles to fill the GPU (the MLP's
//! 256×1024 layers give 16 tiles of 128×128 for 132 multiprocessors): blocks z = 0..splits of
//! one tile each multiply their own range of k, write their partial tile to a workspace, and
//! count themselves in on the tile's counter; the block that arrives last adds the partial
//! tiles **in z order** (the same bits on every run, whichever block is last) and runs the
//! epilogue. No block ever waits for another, and there is no second launch.
//!
//! Partial tiles are stored in the threads' own order (value i of thread t at `i·threads + t`),
//! so both the writes and the final reads are coalesced and need no bounds checks. The counters
//! (`GemmParams::sem`, zeroed once by the host) are reset by the last block, ready for the next
//! launch.
//!
//! A first version had the splits take turns adding into C (split z waiting for z − 1). Its
//! epilogue's loads of the running sum could not be batched (each waited for the store before
//! it), and the turns chained: 32×1024×784 took 124 µs against cuBLAS's 12 µs on an H100.

use super::GemmParams;

/// k-slice range `[first, end)` of split `z` out of `total` slices.
#[inline(always)]
pub fn split_range(p: &GemmParams, z: u32, total: usize) -> (usize, usize) {
    if p.splits <= 1 {
        return (0, total);
    }
    let per = p.slices_per_split as usize;
    let first = z as usize * per;
    let end = first + per;
    (first.min(total), if end < total { end } else { total })
}

/// The k range `[start, end)` of split `z` in elements, for a kernel of `bk`-deep slices: the
/// slices of [`split_range`] over k, the last one ending at k.
#[inline(always)]
pub fn split_k_range(p: &GemmParams, z: u32, bk: usize, k: usize) -> (usize, usize) {
    let (first, end) = split_range(p, z, k.div_ceil(bk).max(1));
    (first * bk, if end * bk < k { end * bk } else { k })
}

#[cfg(target_arch = "nvptx64")]
mod device {
    use super::GemmParams;
    use core::arch::asm;

    /// This block's split index (0 without split-K).
    #[inline(always)]
    pub fn split_index(p: &GemmParams) -> u32 {
        if p.splits > 1 { crate::thread::block_idx_z() } else { 0 }
    }

    pub use crate::reduce::{load_l2, sync_threads_or};

    /// Four floats at a 16-byte aligned address, bypassing L1.
    #[inline(always)]
    pub unsafe fn load_l2_x4(p: *const f32) -> crate::vector::F32x4 {
        let (a, b, c, d): (f32, f32, f32, f32);
        // SAFETY: forwarded from the caller (16 aligned bytes inside the workspace).
        unsafe {
            asm!(
                "ld.global.cg.v4.f32 {{{a}, {b}, {c}, {d}}}, [{p}];",
                a = out(reg32) a, b = out(reg32) b, c = out(reg32) c, d = out(reg32) d, p = in(reg64) p,
                options(pure, readonly, nostack),
            )
        };
        crate::vector::F32x4([a, b, c, d])
    }

    /// Where split `z` of tile `tile` keeps its partial tile of `area` floats in the workspace.
    ///
    /// # Safety
    /// With split-K, `p.ws` holds `tiles · splits · area` floats.
    #[inline(always)]
    pub unsafe fn split_slot(p: &GemmParams, tile: usize, z: usize, area: usize) -> *mut f32 {
        // SAFETY: inside the workspace (forwarded).
        unsafe { (p.ws as *mut f32).add((tile * p.splits as usize + z) * area) }
    }

    /// Counts this block's split of `tile` in, after every thread of the group has written its
    /// partials to the workspace; true in the block that arrives last (it then sums the
    /// partials and stores the tile), false in the others (they are done). `sync_or` is
    /// `__syncthreads_or` over the threads that hold the tile; `leader` is one of them.
    ///
    /// # Safety
    /// `p.sem` holds a zeroed-between-launches counter for `tile`; every thread of the group
    /// calls it.
    #[inline(always)]
    pub unsafe fn split_count_in(p: &GemmParams, tile: usize, leader: bool, sync_or: impl Fn(bool) -> bool) -> bool {
        // SAFETY: the counter of `tile` (forwarded).
        unsafe { crate::reduce::last_block_in((p.sem as *mut u32).add(tile), p.splits, leader, sync_or) }
    }

    /// Split-K for a thread's R×C register tile (`lane` of `threads` threads holding the
    /// block's tile): writes it to the workspace in the threads' own order, counts the split
    /// in, and in the block that arrives last replaces it by the sum of every split's partials
    /// in z order and returns true; the other blocks return false. Without split-K, true at
    /// once. Every index is a compile-time constant, so the tile stays in registers.
    ///
    /// # Safety
    /// As [`split_slot`] and [`split_count_in`], with area R·C·threads.
    #[inline(always)]
    pub unsafe fn split_reduce<const R: usize, const C: usize>(
        p: &GemmParams,
        tile: usize,
        z: u32,
        acc: &mut [[f32; C]; R],
        (lane, threads): (usize, usize),
        sync_or: impl Fn(bool) -> bool,
    ) -> bool {
        if p.splits <= 1 {
            return true;
        }
        const { assert!(R <= 8 && C <= 16) };
        let area = R * C * threads;
        // SAFETY (whole body): every index is below R·C·threads, inside the slots (forwarded).
        unsafe {
            let own = split_slot(p, tile, z as usize, area).add(lane);
            unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
                unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                    if i < R && j < C {
                        *own.add((i * C + j) * threads) = acc[i][j];
                    }
                });
            });
            if !split_count_in(p, tile, lane == 0, sync_or) {
                return false;
            }
            // Half the rows at a time: the other half's loads would need as many registers
            // again (the 8×16 and 128×64 kernels spilled).
            unroll!(half in [0, 1] {
                for zz in 0..p.splits as usize {
                    let part = split_slot(p, tile, zz, area).add(lane) as *const f32;
                    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
                        unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                            if i < R && j < C && (2 * i < R) == (half == 0) {
                                let v = load_l2(part.add((i * C + j) * threads));
                                acc[i][j] = if zz == 0 { v } else { acc[i][j] + v };
                            }
                        });
                    });
                }
            });
        }
        true
    }
}

#[cfg(target_arch = "nvptx64")]
pub use device::*;

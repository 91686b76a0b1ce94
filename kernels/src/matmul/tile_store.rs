//! The block-tile epilogue through shared memory: the threads first write their accumulators
//! into a BM×BN tile of shared memory, then one short loop stores the tile, four outputs per
//! thread and step, through [`super::gemm_epilogue4`] (or, with split-K, writes it to the
//! workspace and, in the block that arrives last, adds every split's tile in z order).
//!
//! Why: a register tile stored element by element is fully unrolled code (one bounds-checked
//! epilogue per accumulator: about a thousand instructions for a 64×64 tensor-core tile), run
//! once per block, so every launch fetches it cold; on a small product that fetch was most of a
//! kernel's time (ncu on a 128³ FP32 product: 65 % of the warps' cycles stalled waiting for
//! instructions). The loop here is the same few dozen instructions for any tile, and its global
//! accesses are 16 bytes wide and coalesced.

/// Row length, in floats, of the shared tile of a `bn`-wide block tile: 16-byte aligned rows,
/// shifted by 4 banks per row.
pub const fn tile_ld(bn: usize) -> usize {
    bn + 4
}

/// Shared memory the tile of a bm×bn block needs, in bytes.
pub const fn tile_store_bytes(bm: usize, bn: usize) -> u32 {
    (bm * tile_ld(bn) * 4) as u32
}

#[cfg(target_arch = "nvptx64")]
mod device {
    use super::*;
    use crate::matmul::GemmParams;
    use crate::matmul::split::{load_l2_x4, split_count_in, split_slot, sync_threads_or};
    use crate::vector::F32x4;

    /// Stores the bm×bn tile at `s` (rows of [`tile_ld`]`(bn)` floats, every thread's values
    /// written and a barrier passed) as C's tile at (m0, n0) through the epilogue; with split-K
    /// (`p.splits` > 1) as split `z` of tile `tile`: its partial tile goes to the workspace, and
    /// the block that counts in last adds all splits' partials in z order and stores the sum.
    ///
    /// # Safety
    /// Every thread of the block calls it (`tid` of `threads`, which divide the tile's quads
    /// into at most 16 per thread; `inflight` ≥ that many quads a thread may have in flight when
    /// it sums the splits: what its registers allow beside the kernel's); `s` holds the tile; C, the bias
    /// and, with split-K, the counters and a workspace of `tiles · splits · bm · bn` floats are
    /// as the GEMM kernels' contracts say.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub unsafe fn store_tile(
        c: *mut f32,
        bias: *const f32,
        p: &GemmParams,
        s: *mut f32,
        (bm, bn): (usize, usize),
        (m0, n0): (usize, usize),
        (tile, z): (usize, u32),
        (tid, threads): (usize, usize),
        inflight: usize,
    ) {
        let ld = tile_ld(bn);
        let quads = bm * bn / 4;
        let row_quads = bn / 4;
        // Quads per thread (a compile-time constant once inlined; the kernels' tiles give 8 or 16).
        let per = quads / threads;
        // SAFETY (whole body): quad q is inside the tile (rows < bm, columns < bn), the slots
        // inside the workspace, C bounds-checked by gemm_epilogue4 (forwarded).
        unsafe {
            if p.splits > 1 {
                let area = bm * bn;
                let own = split_slot(p, tile, z as usize, area);
                unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                    if j < per {
                        let q = tid + j * threads;
                        let (r, c4) = (q / row_quads, q % row_quads * 4);
                        *(own.add(q * 4) as *mut F32x4) = *(s.add(r * ld + c4) as *const F32x4);
                    }
                });
                if !split_count_in(p, tile, tid == 0, sync_threads_or) {
                    return;
                }
                // The last block: every split's quads of this thread, added in z order, the
                // loads of `group` splits issued together (one L2 round trip per group of
                // splits, not per split or quad: one per split made a 64-way split of 64×64×16384
                // cost 40 µs), then back into this thread's own places of the tile for the
                // epilogue loop below. `inflight` quads at most (the accumulators are parked in
                // shared memory, so most registers are free).
                let group = (inflight / per).clamp(1, 4);
                let splits = p.splits as usize;
                let mut sum = [F32x4::ZERO; 16];
                let mut zz = 0;
                while zz < splits {
                    let mut w = [[F32x4::ZERO; 16]; 4];
                    unroll!(v in [0, 1, 2, 3] {
                        if v < group && zz + v < splits {
                            let part = split_slot(p, tile, zz + v, area) as *const f32;
                            unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                                if j < per {
                                    w[v][j] = load_l2_x4(part.add((tid + j * threads) * 4));
                                }
                            });
                        }
                    });
                    unroll!(v in [0, 1, 2, 3] {
                        if v < group && zz + v < splits {
                            unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                                if j < per {
                                    sum[j] = if zz + v == 0 { w[v][j] } else { sum[j].zip(w[v][j], |x, y| x + y) };
                                }
                            });
                        }
                    });
                    zz += group;
                }
                unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                    if j < per {
                        let q = tid + j * threads;
                        let (r, c4) = (q / row_quads, q % row_quads * 4);
                        *(s.add(r * ld + c4) as *mut F32x4) = sum[j];
                    }
                });
                // The loop below reads other threads' sums where C takes no quads.
                crate::thread::sync_threads();
            }
            store_tile_loop(c, bias, p, s, (bm, bn), (m0, n0), (tid, threads));
        }
    }

    /// The epilogue loop of [`store_tile`] alone, for kernels that summed their split-K partials
    /// in registers (`split_reduce`): stores the bm×bn tile at `s` as C's tile at (m0, n0),
    /// four outputs per thread and step: the quads tid, tid + threads, … of thread `tid` where C
    /// takes quads, else columns of four rows (other threads' values: hence the barrier).
    ///
    /// # Safety
    /// Every thread has written its values of the tile and passed a barrier; C and the bias as
    /// the GEMM kernels' contracts say.
    #[inline(always)]
    pub unsafe fn store_tile_loop(
        c: *mut f32,
        bias: *const f32,
        p: &GemmParams,
        s: *mut f32,
        (bm, bn): (usize, usize),
        (m0, n0): (usize, usize),
        (tid, threads): (usize, usize),
    ) {
        let ld = tile_ld(bn);
        let (quads, row_quads) = (bm * bn / 4, bn / 4);
        // A run-time stride, so this loop stays a loop (see `opaque`).
        let threads = crate::matmul::opaque(threads);
        let act = crate::math::Activation::from_code(p.act);
        // Where C takes no quads, a thread's four values are one column of four rows instead
        // (group q: rows 4·(q / bn) + j, column q % bn), so each of a warp's four stores covers
        // adjacent floats of a row (`gemm_epilogue4_step`).
        let takes_quads = crate::matmul::c_takes_quads(c, bias, p);
        let mut q = tid;
        // SAFETY: every value read is inside the tile (bm is a multiple of 4); C is
        // bounds-checked by gemm_epilogue4_step (forwarded).
        unsafe {
            while q < quads {
                if takes_quads {
                    let (r, c4) = (q / row_quads, q % row_quads * 4);
                    let v = *(s.add(r * ld + c4) as *const F32x4);
                    crate::matmul::gemm_epilogue4_step::<true>(c, bias, p, act, (m0 + r, n0 + c4), (0, 1), v.0);
                } else {
                    let (r, x) = (4 * (q / bn), q % bn);
                    let at = s.add(r * ld + x);
                    let v = [*at, *at.add(ld), *at.add(2 * ld), *at.add(3 * ld)];
                    crate::matmul::gemm_epilogue4_step::<true>(c, bias, p, act, (m0 + r, n0 + x), (1, 0), v);
                }
                q += threads;
            }
        }
    }
}

#[cfg(target_arch = "nvptx64")]
pub use device::*;

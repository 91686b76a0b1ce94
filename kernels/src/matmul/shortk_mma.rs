//! Short-k BF16 products on `mma.sync`: lean 64×64 and 32×32 tiles for products that are mostly
//! their output (k up to about a hundred), any layout and any row alignment.
//!
//! The `mma.sync` pipeline tiles (`pipeline.rs`) are built for long main loops: on BF16 tt
//! 6308×37×20 the 64×64 one ran the same 99 blocks as cuBLAS's kernel in 2.7× its cycles, two
//! thirds of its stalls waiting for instructions (12.8 k instructions over its four layouts;
//! H200, docs/runs/2026-11-28-s31/m6). Here a block of four warps loads each chunk of op(A) and
//! op(B) (32 k deep for k ≤ 32, else 64) element by element (a warp's 32 adjacent elements per
//! load, along whichever of k or the outer index is contiguous, chosen at run time so one body
//! serves every layout), stores it k-contiguous in shared memory, and each warp multiplies a
//! quarter of the tile with `mma.sync.m16n8k16`. C goes out through the compact shared-memory
//! epilogue loop (`tile_store`). The 32×32 tile (`gemm_shortk_mma_small_bf16`) serves grids
//! short of a wave: a block's time there is its warps' instruction chain, and its warps run a
//! quarter of the 64×64 tile's loads, steps and stores (H200, docs/runs/2026-11-28-s34/q2, q5).

use super::{GemmParams, tile_store_bytes};
use crate::kernel;

/// Most k per staged chunk of `gemm_shortk_mma_bf16` (four `m16n8k16` steps): each chunk costs a
/// round trip to memory, so k up to 64 takes one. Products of k ≤ 32 run 32-deep chunks
/// ([`SHORTK_MMA_BK_SHORT`]): half the loads and steps, most of them zero past k otherwise
/// (tt 6308×37×20 4.2 µs in 32-deep chunks, 4.4 in 64-deep ones; nn 1484×340×20 4.8 and 5.5;
/// H200, docs/runs/2026-11-28-s34/q1, q2).
pub const SHORTK_MMA_BK: usize = 64;
/// The chunk depth of `gemm_shortk_mma_bf16` for k ≤ 32.
pub const SHORTK_MMA_BK_SHORT: usize = 32;
/// Rows and columns of C per block of `gemm_shortk_mma_bf16`.
pub const SHORTK_MMA_TILE: usize = 64;
/// Rows and columns of C per block of `gemm_shortk_mma_small_bf16`.
pub const SHORTK_MMA_SMALL_TILE: usize = 32;
/// Threads per block of `gemm_shortk_mma_bf16`: four warps of 32×32 outputs.
pub const SHORTK_MMA_THREADS: u32 = 128;
/// Row pitch (halves) of a staged chunk of `bk` k: `bk` + 8 (80 or 144 bytes, so the 8 rows one
/// fragment load reads fall in 8 different groups of 4 banks).
const fn ldk(bk: usize) -> usize {
    bk + 8
}
/// Bytes of the two staged chunks (the deeper ones).
const CHUNK_BYTES: usize = 2 * SHORTK_MMA_TILE * ldk(SHORTK_MMA_BK) * 2;
/// Dynamic shared memory of `gemm_shortk_mma_bf16`: the chunks, then (aliased) C's tile.
pub const SHORTK_MMA_SHARED: u32 = {
    let tile = tile_store_bytes(SHORTK_MMA_TILE, SHORTK_MMA_TILE);
    if tile as usize > CHUNK_BYTES { tile } else { CHUNK_BYTES as u32 }
};

/// Most elements of a chunk each thread loads (64 × 64 over 128 threads).
#[cfg(target_arch = "nvptx64")]
const MAX_PER_THREAD: usize = SHORTK_MMA_TILE * SHORTK_MMA_BK / SHORTK_MMA_THREADS as usize;

/// One operand's chunk as this thread loads and stores it: element j is (outer o0 + j·do, k q0 +
/// j·dq) of the tile's TILE outer indices by BK k. Along k when k is contiguous (a warp's lanes
/// take 32 adjacent k of one row), else along the outer index (TILE adjacent rows, 128 / TILE
/// k per block pass).
#[cfg(target_arch = "nvptx64")]
#[derive(Clone, Copy)]
struct Walk<const BK: usize, const TILE: usize> {
    o0: u32,
    q0: u32,
    d_o: u32,
    d_q: u32,
}

#[cfg(target_arch = "nvptx64")]
impl<const BK: usize, const TILE: usize> Walk<BK, TILE> {
    /// Elements per thread.
    const PER: usize = TILE * BK / SHORTK_MMA_THREADS as usize;

    #[inline(always)]
    fn new(k_contig: bool, tid: u32) -> Self {
        const T: u32 = SHORTK_MMA_THREADS;
        let (bk, tile) = (BK as u32, TILE as u32);
        if k_contig { Walk { o0: tid / bk, q0: tid % bk, d_o: T / bk, d_q: 0 } } else { Walk { o0: tid % tile, q0: tid / tile, d_o: 0, d_q: T / tile } }
    }

    /// The walk through [`fresh`], once per chunk: every value derived from it per element
    /// (addresses, bounds tests, shared-memory offsets) is then computed per chunk. Kept from the
    /// first chunk as loop invariants, they took more registers than the kernel has, and it
    /// spilled (500 bytes per thread).
    #[inline(always)]
    fn fresh(self) -> Self {
        let f = |x: u32| fresh(x as usize) as u32;
        Walk { o0: f(self.o0), q0: f(self.q0), d_o: f(self.d_o), d_q: f(self.d_q) }
    }

    /// Loads this thread's elements of the chunk at k0 of an operand whose element (o, q) is at
    /// `x[o·so + q·sq]`, zero past `outer` rows (from the tile's first) or past k. A thread's
    /// elements step along one index only (its other index is fixed), so the ones inside the
    /// operand are its first `count`: one bound per chunk, and each load is predicated on
    /// `j < count`, not branched around (as 64-bit tests with a branch per element, the loads
    /// alone took a thousand instructions).
    ///
    /// # Safety
    /// The operand covers every element inside (outer, k).
    #[inline(always)]
    unsafe fn load(self, x: *const u16, (so, sq): (usize, usize), first: usize, outer: usize, k0: usize, k: usize) -> [u16; MAX_PER_THREAD] {
        let mut v = [0u16; MAX_PER_THREAD];
        let this = self.fresh();
        let o_rem = outer.saturating_sub(first).min(TILE) as u32;
        let k_rem = (k - k0).min(BK) as u32;
        // The fixed index inside, and the room along the stepping one (steps of 2 or 4).
        let (fixed_in, room, d) =
            if this.d_q == 0 { (this.q0 < k_rem, o_rem.saturating_sub(this.o0), this.d_o) } else { (this.o0 < o_rem, k_rem.saturating_sub(this.q0), this.d_q) };
        let count = if fixed_in { (room + d - 1) >> d.trailing_zeros() } else { 0 };
        // Element j sits `j·step` past element 0.
        let step = this.d_o as usize * so + this.d_q as usize * sq;
        let mut at = x.wrapping_add((first + this.o0 as usize) * so + (k0 + this.q0 as usize) * sq);
        unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] {
            if j < Self::PER {
                // SAFETY: read only when (first + o, k0 + q) is inside the operand.
                v[j] = unsafe { load_if(at, (j as u32) < count) };
                at = at.wrapping_add(step);
            }
        });
        v
    }

    /// Stores the values [`Walk::load`] returned into the k-contiguous chunk at `s`.
    ///
    /// # Safety
    /// `s` holds TILE rows of `ldk(BK)` halves.
    #[inline(always)]
    unsafe fn store(self, s: *mut u16, v: [u16; MAX_PER_THREAD]) {
        let this = self.fresh();
        let ld = ldk(BK) as u32;
        let first = this.o0 * ld + this.q0;
        let step = this.d_o * ld + this.d_q;
        unroll!(j in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] {
            if j < Self::PER {
                // SAFETY: element j is (o, q) with o < TILE, q < BK.
                unsafe { *s.add((first + j as u32 * step) as usize) = v[j] };
            }
        });
    }
}

/// `*p` if `inside`, else 0: one predicated load through the read-only path.
///
/// # Safety
/// When `inside`, `p` is a readable bf16 in global memory that no thread writes during the
/// kernel.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn load_if(p: *const u16, inside: bool) -> u16 {
    let v: u16;
    // SAFETY: the load runs only under `inside` (forwarded).
    unsafe {
        core::arch::asm!(
            "{{ .reg .pred p; setp.ne.u32 p, {c}, 0; mov.u16 {v}, 0; @p ld.global.nc.u16 {v}, [{a}]; }}",
            v = out(reg16) v, c = in(reg32) inside as u32, a = in(reg64) p,
            options(readonly, nostack),
        )
    };
    v
}

/// `x`, as a value the optimizer cannot move out of a loop (an `asm` with effects, unlike
/// [`super::opaque`]'s pure one).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn fresh(x: usize) -> usize {
    let r: u64;
    // SAFETY: a register move.
    unsafe { core::arch::asm!("mov.u64 {r}, {x};", r = out(reg64) r, x = in(reg64) x as u64, options(nomem, nostack)) };
    r as usize
}

/// The u32 holding k = q, q + 1 of row `o` of a staged chunk of `bk` k.
///
/// # Safety
/// Inside the chunk; q even.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn pair<const BK: usize>(s: *const u16, o: usize, q: usize) -> u32 {
    // SAFETY: forwarded; 4-byte aligned (the row pitch and q even, the chunks 16-byte aligned).
    unsafe { *(s.add(o * ldk(BK) + q) as *const u32) }
}

/// C = act(α·op(A)·op(B) + bias + β·C) with A, B in bf16 (raw bits), C and bias in f32, for any k
/// (chunks of 32 k for k ≤ 32, else of 64: meant for short k, where a block's time is its start
/// and its stores).
///
/// # Safety
/// `a`, `b` (bf16) and `c` (f32), and `bias` if `p.has_bias != 0` (n f32), cover every element
/// the strides address; `c` is disjoint from the inputs; `p.splits` = 1. Launch: block
/// `SHORTK_MMA_THREADS`, grid (⌈n/64⌉, ⌈m/64⌉), `SHORTK_MMA_SHARED` bytes of dynamic shared
/// memory.
///
/// # Thread mapping
/// Warp w → rows (w%2)·32, columns (w/2)·32 of the block's tile, as 2×4 mma tiles of 16×8.
/// Three blocks per multiprocessor at most (168 registers): a chunk's 64 loaded values per thread
/// and their addresses spilled 24 bytes at four (128 registers, sm_80).
#[kernel(max_threads = 128, min_blocks = 3)]
pub unsafe fn gemm_shortk_mma_bf16(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller (a uniform branch: one body runs).
    unsafe {
        if p.k as usize <= SHORTK_MMA_BK_SHORT {
            shortk_mma::<SHORTK_MMA_BK_SHORT, SHORTK_MMA_TILE>(a, b, c, bias, &p)
        } else {
            shortk_mma::<SHORTK_MMA_BK, SHORTK_MMA_TILE>(a, b, c, bias, &p)
        }
    }
}

/// [`gemm_shortk_mma_bf16`] on 32×32 tiles: four times the blocks, and a quarter of the loads,
/// steps and stores per warp, for products whose 64×64 grid leaves multiprocessors idle (a
/// block's time there is the chain of its warps' instructions, at one warp per scheduler).
///
/// # Safety
/// As [`gemm_shortk_mma_bf16`], with grid (⌈n/32⌉, ⌈m/32⌉).
///
/// # Thread mapping
/// Warp w → rows (w%2)·16, columns (w/2)·16 of the block's tile, as 1×2 mma tiles of 16×8.
#[kernel(max_threads = 128, min_blocks = 4)]
pub unsafe fn gemm_shortk_mma_small_bf16(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded from the caller (a uniform branch: one body runs).
    unsafe {
        if p.k as usize <= SHORTK_MMA_BK_SHORT {
            shortk_mma::<SHORTK_MMA_BK_SHORT, SHORTK_MMA_SMALL_TILE>(a, b, c, bias, &p)
        } else {
            shortk_mma::<SHORTK_MMA_BK, SHORTK_MMA_SMALL_TILE>(a, b, c, bias, &p)
        }
    }
}

/// The body of [`gemm_shortk_mma_bf16`] in chunks of BK k, on TILE×TILE tiles of four warps (2 × 2
/// of (TILE/2)², as (TILE/32) × (TILE/16) mma tiles of 16×8 each).
///
/// # Safety
/// As [`gemm_shortk_mma_bf16`], with grid (⌈n/TILE⌉, ⌈m/TILE⌉).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn shortk_mma<const BK: usize, const TILE: usize>(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: &GemmParams) {
    use super::common::mma_bf16;
    use crate::thread;
    const { assert!(TILE == 32 || TILE == 64) };
    // mma tiles per warp along m (16 rows each) and n (8 columns each).
    let (mi, nj) = (TILE / 32, TILE / 16);
    let tid = thread::thread_idx_x() as usize;
    let (lane, warp) = (tid % 32, tid / 32);
    let (g, t) = (lane / 4, 2 * (lane % 4));
    let row0 = thread::block_idx_y() as usize * TILE;
    let col0 = thread::block_idx_x() as usize * TILE;
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    let sa = crate::shared::dynamic_shared::<u16>();
    // SAFETY: the launch gives SHORTK_MMA_SHARED bytes: two chunks.
    let sb = unsafe { sa.add(TILE * ldk(BK)) };
    // op(A)(r, q) = a[r·a_row_stride + q·a_col_stride]; op(B)(q, x) = b[q·b_row_stride +
    // x·b_col_stride], staged as rows x.
    let a_str = (p.a_row_stride as usize, p.a_col_stride as usize);
    let b_str = (p.b_col_stride as usize, p.b_row_stride as usize);
    let (wa, wb) = (Walk::<BK, TILE>::new(a_str.1 == 1, tid as u32), Walk::<BK, TILE>::new(b_str.1 == 1, tid as u32));
    let (wr, wc) = ((warp % 2) * TILE / 2, (warp / 2) * TILE / 2);
    let mut acc = [[[0f32; 4]; 4]; 2];
    let chunks = super::opaque(k.div_ceil(BK));
    let mut ch = 0;
    while ch < chunks {
        let k0 = ch * BK;
        // SAFETY: Walk::load reads only inside op(A)'s m×k and op(B)'s k×n.
        let (va, vb) = unsafe { (wa.load(a, a_str, row0, m, k0, k), wb.load(b, b_str, col0, n, k0, k)) };
        if ch > 0 {
            // Every warp is done with the previous chunk.
            thread::sync_threads();
        }
        // SAFETY: the chunks are inside the shared memory.
        unsafe {
            wa.store(sa, va);
            wb.store(sb, vb);
        }
        thread::sync_threads();
        unroll!(ks in [0, 1, 2, 3] {
            if ks * 16 < BK {
                let q = ks * 16 + t;
                // SAFETY: rows < TILE, q + 9 < BK.
                let (fa, fb) = unsafe {
                    let mut fa = [[0u32; 4]; 2];
                    unroll!(i in [0, 1] {
                        if i < mi {
                            let r = wr + 16 * i + g;
                            fa[i] = [pair::<BK>(sa, r, q), pair::<BK>(sa, r + 8, q), pair::<BK>(sa, r, q + 8), pair::<BK>(sa, r + 8, q + 8)];
                        }
                    });
                    let mut fb = [[0u32; 2]; 4];
                    unroll!(j in [0, 1, 2, 3] {
                        if j < nj {
                            let x = wc + 8 * j + g;
                            fb[j] = [pair::<BK>(sb, x, q), pair::<BK>(sb, x, q + 8)];
                        }
                    });
                    (fa, fb)
                };
                unroll!(i in [0, 1] {
                    unroll!(j in [0, 1, 2, 3] {
                        if i < mi && j < nj {
                            mma_bf16(&mut acc[i][j], fa[i], fb[j]);
                        }
                    });
                });
            }
        });
        ch += 1;
    }
    // C's tile through shared memory (over the chunks, once every warp is done with them).
    thread::sync_threads();
    let ld = super::tile_ld(TILE);
    let sc = crate::shared::dynamic_shared::<f32>();
    unroll!(i in [0, 1] {
        unroll!(j in [0, 1, 2, 3] {
            if i < mi && j < nj {
                let (r, x) = (wr + 16 * i + g, wc + 8 * j + t);
                // SAFETY: inside the TILE×(TILE + 4) tile; 8-byte aligned (ld and x even).
                unsafe {
                    *(sc.add(r * ld + x) as *mut [f32; 2]) = [acc[i][j][0], acc[i][j][1]];
                    *(sc.add((r + 8) * ld + x) as *mut [f32; 2]) = [acc[i][j][2], acc[i][j][3]];
                }
            }
        });
    });
    thread::sync_threads();
    // SAFETY: the tile is written and a barrier passed; C and the bias as the contract says.
    unsafe { super::store_tile_loop(c, bias, p, sc, (TILE, TILE), (row0, col0), (tid, SHORTK_MMA_THREADS as usize)) };
}

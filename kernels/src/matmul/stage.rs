//! Operand staging for TF32 `wgmma`, which reads only k-contiguous operands with 16-byte aligned
//! rows: `gemm_stage_kmajor_f32` copies op(A) or op(B) into a k-contiguous matrix whose row
//! stride is a multiple of 4 (transposing it when its stored layout is the other one) through
//! 32×32 tiles in shared memory, so both the reads and the writes are coalesced;
//! `gemm_stage_pad_f32` copies one that is k-contiguous already row by row (the host's choice).
//! `gemm_stage_split_tf32` does the same for FP32 on TF32 tensor cores, writing each element
//! as a TF32 head and the TF32 rounding of what is left (the tail) in two segments of a row.

use crate::kernel;

/// Rows and columns of a staging tile.
pub const STAGE_TILE: usize = 32;
/// Threads per staging block (32 × 8; each thread moves 4 elements).
pub const STAGE_THREADS: u32 = 256;

/// Loads the staging tile at (o0, q0) of the operand (element (o, q) at `src[o·os + q·ks]`,
/// o < outer, q < k) into the dynamic shared memory, tile[(o − o0)·33 + (q − q0)], zeros for
/// k ≤ q < kp, reading along whichever direction is contiguous in memory (q if the operand is
/// k-contiguous, else o); then a barrier. Thread (tx, ty) reads column tx of rows ty + 8i.
///
/// # Safety
/// The operand covers every element its strides address for o < outer, q < k; the launch has
/// 32·33 floats of dynamic shared memory; every thread of the block calls it.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn load_stage_tile(
    src: *const f32,
    (os, ks): (usize, usize),
    (outer, k, kp): (usize, usize, usize),
    (o0, q0): (usize, usize),
    (tx, ty): (usize, usize),
) -> *mut f32 {
    let tile = crate::shared::dynamic_shared::<f32>();
    let k_contig = ks == 1;
    let mut r = ty;
    while r < STAGE_TILE {
        let (o, q) = if k_contig { (o0 + r, q0 + tx) } else { (o0 + tx, q0 + r) };
        if o < outer && q < kp {
            // SAFETY: inside the operand (q < k).
            let v = if q < k { unsafe { *src.add(o * os + q * ks) } } else { 0.0 };
            // SAFETY: inside the tile (32 rows of 33 floats).
            unsafe { *tile.add((o - o0) * (STAGE_TILE + 1) + (q - q0)) = v };
        }
        r += STAGE_THREADS as usize / STAGE_TILE;
    }
    crate::thread::sync_threads();
    tile
}

/// dst[o·ld + q] = src[o·os + q·ks] for o < outer, q < k.
///
/// # Safety
/// `src` covers every element the strides address for o < outer, q < k; `dst` holds outer rows
/// of `ld` ≥ k floats and is disjoint from `src`. Launch: block `STAGE_THREADS`, grid
/// (⌈k/32⌉, ⌈outer/32⌉), 32·33·4 bytes of dynamic shared memory.
///
/// # Thread mapping
/// Block (x, y) → the tile at o = y·32, q = x·32; thread t → tile column t % 32 and rows
/// t / 32 + 8i of the tile (along whichever direction is contiguous in memory).
#[kernel]
pub unsafe fn gemm_stage_kmajor_f32(src: *const f32, os: u64, ks: u64, outer: u64, k: u64, dst: *mut f32, ld: u64) {
    use crate::thread::{block_idx_x, block_idx_y, thread_idx_x};
    let (outer, k, ld) = (outer as usize, k as usize, ld as usize);
    let (q0, o0) = (block_idx_x() as usize * STAGE_TILE, block_idx_y() as usize * STAGE_TILE);
    let (tx, ty) = (thread_idx_x() as usize % STAGE_TILE, thread_idx_x() as usize / STAGE_TILE);
    // SAFETY: forwarded from the caller.
    let tile = unsafe { load_stage_tile(src, (os as usize, ks as usize), (outer, k, k), (o0, q0), (tx, ty)) };
    let mut r = ty;
    while r < STAGE_TILE {
        let (o, q) = (o0 + r, q0 + tx);
        if o < outer && q < k {
            // SAFETY: inside dst (o < outer, q < k ≤ ld) and the tile.
            unsafe { *dst.add(o * ld + q) = *tile.add(r * (STAGE_TILE + 1) + tx) };
        }
        r += STAGE_THREADS as usize / STAGE_TILE;
    }
}

/// The TF32 head and tail of `x`: head = x rounded to TF32 (`cvt.rna`), tail = x − head
/// rounded to TF32, so head + tail is x to about 2⁻²² relative, and head·head + head·tail +
/// tail·head on TF32 tensor cores is an FP32-accurate product. A non-finite head gets a zero
/// tail (∞ − ∞ would poison the product with NaN).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn tf32_split(x: f32) -> (f32, f32) {
    use super::common::to_tf32;
    let head = f32::from_bits(to_tf32(x) & 0xffff_e000);
    let tail = if head.is_finite() { f32::from_bits(to_tf32(x - head) & 0xffff_e000) } else { 0.0 };
    (head, tail)
}

/// The TF32 head and tail of `x` by truncation, in four integer and float operations and no
/// conversion (the split producer's, [`super::wgmma`]'s `Tf32x3Split`): head = x with its low 13
/// bits cleared, tail = x − head (exact) likewise, so head + tail is x to 2⁻²¹ relative, half
/// [`tf32_split`]'s precision. Its two `cvt.rna` ran at a quarter of the rate of the arithmetic
/// and made the producer the bottleneck: FP32 4096³ 2.00 ms, 1.35 with no split at all (H100,
/// docs/runs/2026-11-24-h100-s15/e3). A non-finite head gets a zero tail.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn tf32_split_trunc(x: f32) -> (f32, f32) {
    const MASK: u32 = 0xffff_e000;
    let head = f32::from_bits(x.to_bits() & MASK);
    let tail = if head.is_finite() { f32::from_bits((x - head).to_bits() & MASK) } else { 0.0 };
    (head, tail)
}

/// The FP32-on-TF32 staging of an operand: dst[o·ld + q] = head and dst[o·ld + kp + q] = tail
/// of src[o·os + q·ks] ([`tf32_split`]) for o < outer, q < k; zeros at k ≤ q < kp in both
/// segments (the kernel reads whole slices).
///
/// # Safety
/// `src` covers every element the strides address for o < outer, q < k; `dst` holds outer rows
/// of `ld` ≥ 2·kp floats, kp ≥ k, and is disjoint from `src`. Launch: block `STAGE_THREADS`,
/// grid (⌈kp/32⌉, ⌈outer/32⌉), 32·33·4 bytes of dynamic shared memory.
///
/// # Thread mapping
/// As [`gemm_stage_kmajor_f32`].
#[kernel]
pub unsafe fn gemm_stage_split_tf32(src: *const f32, os: u64, ks: u64, outer: u64, k: u64, dst: *mut f32, ld: u64, kp: u64) {
    use crate::thread::{block_idx_x, block_idx_y, thread_idx_x};
    let (outer, ld, kp) = (outer as usize, ld as usize, kp as usize);
    let (q0, o0) = (block_idx_x() as usize * STAGE_TILE, block_idx_y() as usize * STAGE_TILE);
    let (tx, ty) = (thread_idx_x() as usize % STAGE_TILE, thread_idx_x() as usize / STAGE_TILE);
    // SAFETY: forwarded from the caller.
    let tile = unsafe { load_stage_tile(src, (os as usize, ks as usize), (outer, k as usize, kp), (o0, q0), (tx, ty)) };
    let mut r = ty;
    while r < STAGE_TILE {
        let (o, q) = (o0 + r, q0 + tx);
        if o < outer && q < kp {
            // SAFETY: inside the tile.
            let (head, tail) = tf32_split(unsafe { *tile.add(r * (STAGE_TILE + 1) + tx) });
            // SAFETY: inside dst (o < outer, kp + q < 2·kp ≤ ld).
            unsafe {
                *dst.add(o * ld + q) = head;
                *dst.add(o * ld + kp + q) = tail;
            }
        }
        r += STAGE_THREADS as usize / STAGE_TILE;
    }
}

/// Elements each thread of [`gemm_stage_pad_f32`] copies: one 16-byte store of the padded rows.
pub const PAD_CHUNK_F32: usize = 4;

/// dst[r·ld_dst + c] = src[r·ld_src + c] for r < rows, c < cols on f32: a k-contiguous operand
/// whose rows break 16-byte alignment copied into rows padded to a multiple of 4, which TF32
/// `wgmma` needs ([`gemm_stage_kmajor_f32`] without its transposing tile: no shared memory, no
/// barrier). Each thread copies [`PAD_CHUNK_F32`] elements, loaded one at a time and stored as
/// one 16-byte access ([`pad_rows`]). It staged 23.7 M elements in about 51 µs (3.7 TB/s read
/// and written) where the transposing tiles took about 84: the staged `wgmma` plan of TF32 nt
/// 89×4118×5637 ran 119.1 → 86.0 µs (H200, docs/runs/2026-11-29-s37/t5 against t1).
///
/// # Safety
/// `src` holds `rows` rows of `ld_src` ≥ `cols` floats, `dst` `rows` rows of `ld_dst` ≥ `cols`
/// with `dst` 16-byte aligned and `ld_dst` a multiple of 4; disjoint. Launch: block
/// `STAGE_THREADS`, grid ⌈rows·⌈cols/4⌉/256⌉.
///
/// # Thread mapping
/// Thread i of the grid → row i / ⌈cols/4⌉, columns 4·(i mod ⌈cols/4⌉) ..+ 4.
#[kernel]
pub unsafe fn gemm_stage_pad_f32(src: *const f32, ld_src: u64, rows: u64, cols: u64, dst: *mut f32, ld_dst: u64) {
    // SAFETY: forwarded from the caller; a chunk is 4 floats.
    unsafe { pad_rows::<f32, PAD_CHUNK_F32>((src, ld_src), (rows, cols), (dst, ld_dst), |s| [*s, *s.add(1), *s.add(2), *s.add(3)]) }
}

/// Elements each thread of [`gemm_stage_pad_bf16`] copies: one 16-byte store of the padded rows.
pub const PAD_CHUNK: usize = 8;

/// dst[r·ld_dst + c] = src[r·ld_src + c] for r < rows, c < cols on 16-bit elements: a bf16
/// matrix copied into rows padded to a multiple of 8 elements, which the tensor copy engine
/// needs (bf16 `wgmma` reads either major, so no transpose). Each thread copies [`PAD_CHUNK`]
/// elements, loaded one at a time (the source rows are only 2-byte aligned; a warp's loads still
/// cover 512 contiguous bytes) and stored as one 16-byte access ([`pad_rows`]): one element per
/// thread took 70 µs for 3188×7122 (H100, docs/runs/2026-11-24-h100-s17/r3).
///
/// # Safety
/// `src` holds `rows` rows of `ld_src` ≥ `cols` elements, `dst` `rows` rows of `ld_dst` ≥ `cols`
/// with `dst` 16-byte aligned and `ld_dst` a multiple of 8; disjoint. Launch: block
/// `STAGE_THREADS`, grid ⌈rows·⌈cols/8⌉/256⌉.
///
/// # Thread mapping
/// Thread i of the grid → row i / ⌈cols/8⌉, columns 8·(i mod ⌈cols/8⌉) ..+ 8.
#[kernel]
pub unsafe fn gemm_stage_pad_bf16(src: *const u16, ld_src: u64, rows: u64, cols: u64, dst: *mut u16, ld_dst: u64) {
    // SAFETY: forwarded from the caller; a chunk is 8 bf16, packed in pairs.
    unsafe {
        pad_rows::<u16, PAD_CHUNK>((src, ld_src), (rows, cols), (dst, ld_dst), |s| {
            let mut w = [0f32; 4];
            unroll!(j in [0, 1, 2, 3] {
                let (lo, hi) = (*s.add(2 * j) as u32, *s.add(2 * j + 1) as u32);
                w[j] = f32::from_bits(lo | (hi << 16));
            });
            w
        })
    }
}

/// The body of the padded-row copies: grid thread i copies chunk i (row i / ⌈cols/N⌉, columns
/// N·(i mod ⌈cols/N⌉) ..+ N) of a rows×cols matrix of E, `load` reading a whole chunk of N
/// elements (16 bytes) into the four words of one 16-byte store; a row's last, partial chunk
/// goes an element at a time.
///
/// # Safety
/// As the kernels: `src` holds `rows` rows of `ld_src` ≥ `cols` elements, `dst` as many rows of
/// `ld_dst` ≥ `cols`, `dst` 16-byte aligned and `ld_dst` a multiple of N; disjoint; N·size_of E
/// is 16 and `load` reads N elements from where it is given.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn pad_rows<E: Copy, const N: usize>(
    (src, ld_src): (*const E, u64),
    (rows, cols): (u64, u64),
    (dst, ld_dst): (*mut E, u64),
    load: impl Fn(*const E) -> [f32; 4],
) {
    use crate::thread::{block_idx_x, thread_idx_x};
    use crate::vector::F32x4;
    let chunks = (cols as usize).div_ceil(N);
    let i = block_idx_x() as usize * STAGE_THREADS as usize + thread_idx_x() as usize;
    let (r, c0) = (i / chunks.max(1), N * (i % chunks.max(1)));
    if r as u64 >= rows {
        return;
    }
    // SAFETY: row r < rows of both matrices; columns below cols.
    unsafe {
        let (s, d) = (src.add(r * ld_src as usize), dst.add(r * ld_dst as usize));
        if c0 + N <= cols as usize {
            // 16-byte aligned: dst is, and so is every row start and chunk (multiples of N).
            *(d.add(c0) as *mut F32x4) = F32x4(load(s.add(c0)));
        } else {
            for c in c0..cols as usize {
                *d.add(c) = *s.add(c);
            }
        }
    }
}

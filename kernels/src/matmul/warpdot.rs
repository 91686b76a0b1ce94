//! GEMM for a handful of rows (a batch-1 or batch-few dense layer): one warp per column of C,
//! its lanes splitting k and summing with shuffles. With both operands k-contiguous (x·Wᵀ) each
//! warp streams one row of W with 16-byte loads, every byte of W read once: the layer becomes a
//! memory-bound pass over the weights instead of a tiled GEMM that is mostly idle lanes.

use super::GemmParams;
use crate::kernel;
#[cfg(target_arch = "nvptx64")]
use {
    super::{
        common::{DotElem, fma},
        gemm_epilogue,
    },
    crate::{reduce::warp_sum, thread},
};

/// Rows of C per warp (a grid row of blocks per 4 rows).
pub const WARPDOT_ROWS: usize = 4;
/// Warps (columns of C) per block.
pub const WARPDOT_WARPS: u32 = 8;
/// Threads per block.
pub const WARPDOT_THREADS: u32 = 32 * WARPDOT_WARPS;

/// C = act(α·op(A)·op(B) + bias + β·C) with one warp per column of C and up to 4 rows.
///
/// # Safety
/// `a`, `b`, `c` and `bias` (n floats if `p.has_bias != 0`) cover every element the strides
/// address; `c` is disjoint from the inputs. Launch: block `WARPDOT_THREADS`, grid
/// (⌈n/WARPDOT_WARPS⌉, ⌈m/WARPDOT_ROWS⌉).
///
/// # Thread mapping
/// Warp w of block (x, y) → column x·8 + w, rows y·4 + 0..4; lane l sums k = 4l + 128i + 0..4
/// (vector path; with both operands k-contiguous but W's rows off the quads' alignment, from
/// W's first aligned quad h on: k = h + 4l + 128i + 0..4, the k before h and after the last
/// quad one per lane) or k = l + 32i.
#[kernel]
pub unsafe fn gemm_warpdot_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded.
    unsafe { warpdot::<f32, false>(a, b, c, bias, p) }
}

/// [`gemm_warpdot_f32`] on Cᵀ = op(B)ᵀ·op(A)ᵀ: one warp per row of C and up to 4 columns (a
/// matrix-vector product, a few-column output with a k-contiguous op(A)). The host passes B as
/// `a`, A as `b` and the transposed product's `GemmParams` (m and n swapped, each operand's
/// strides swapped) with C's own `ldc`; each sum is stored at (its column, its row) of that
/// product, so C, the bias (per column of C) and the epilogue are C's.
///
/// # Safety
/// As [`gemm_warpdot_f32`], for the transposed product.
///
/// # Thread mapping
/// As [`gemm_warpdot_f32`], over Cᵀ.
#[kernel]
pub unsafe fn gemm_warpdot_t_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded.
    unsafe { warpdot::<f32, true>(a, b, c, bias, p) }
}

/// [`gemm_warpdot_t_f32`] with bf16 A and B.
///
/// # Safety
/// As [`gemm_warpdot_t_f32`].
///
/// # Thread mapping
/// As [`gemm_warpdot_f32`], over Cᵀ.
#[kernel]
pub unsafe fn gemm_warpdot_t_bf16(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded.
    unsafe { warpdot::<u16, true>(a, b, c, bias, p) }
}

/// [`gemm_warpdot_f32`] with bf16 A and B (8-byte loads of four elements), f32 accumulation:
/// a batch-few layer on bf16 weights reads them once, at half the bytes.
///
/// # Safety
/// As [`gemm_warpdot_f32`].
///
/// # Thread mapping
/// As [`gemm_warpdot_f32`].
#[kernel]
pub unsafe fn gemm_warpdot_bf16(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded.
    unsafe { warpdot::<u16, false>(a, b, c, bias, p) }
}

/// The body of the warp-per-column kernels; `T_C`: the product is Cᵀ's ([`gemm_warpdot_t_f32`]),
/// each sum stored transposed.
///
/// # Safety
/// As [`gemm_warpdot_f32`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn warpdot<T: DotElem, const T_C: bool>(a: *const T, b: *const T, c: *mut f32, bias: *const f32, p: GemmParams) {
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    let lane = thread::lane_id() as usize;
    let col = thread::block_idx_x() as usize * WARPDOT_WARPS as usize + thread::warp_id() as usize;
    let row0 = thread::block_idx_y() as usize * WARPDOT_ROWS;
    if col >= n {
        return; // whole warps only: the shuffles below see all 32 lanes
    }
    let rows = (m - row0).min(WARPDOT_ROWS);
    let (ars, acs) = (p.a_row_stride as usize, p.a_col_stride as usize);
    let (brs, bcs) = (p.b_row_stride as usize, p.b_col_stride as usize);
    let mut acc = [0f32; WARPDOT_ROWS];
    let aligned = |x: usize| x % T::QUAD_BYTES == 0;
    let vec = acs == 1 && brs == 1 && ars % 4 == 0 && bcs % 4 == 0 && aligned(a as usize) && aligned(b as usize);
    let mut q0 = 0;
    if vec {
        let kv = k / 4 * 4;
        let mut q = 4 * lane;
        if core::mem::size_of::<T>() < 4 && rows <= 2 {
            // bf16 on one or two rows: four quads per lane and pass, 16 bytes of W as f32's two.
            // With two, nt 1×4096×4096 read W at 2.2 TB/s, 15.2 µs against cuBLAS's 10.5 (H200,
            // docs/runs/2026-11-27-s25/e4); with four 11.1 (e5), 2×4096×4096 16.4 → 13.3. On four
            // rows four quads ran slower (4×4096×4096 21.4 → 23.9 µs; H100, f1), and f32 keeps
            // two. op(A)'s rows, read by every warp of the block, come from cache row by row:
            // every row's quads loaded first took 120 registers, two blocks per multiprocessor,
            // and slowed the unaligned loop below (nt 1×5099×6665 41.3 → 54.0 µs; H200, e5).
            while q + 384 < kv {
                let mut bv = [[0f32; 4]; 4];
                unroll!(u in [0, 1, 2, 3] {
                    // SAFETY: q + 384 + 4 ≤ k, col < n, rows < m; aligned (checked above).
                    bv[u] = unsafe { T::load4(b.add(col * bcs + q + 128 * u)) };
                });
                unroll!(r in [0, 1] {
                    if r < rows {
                        let mut av = [[0f32; 4]; 4];
                        unroll!(u in [0, 1, 2, 3] {
                            // SAFETY: as above.
                            av[u] = unsafe { T::load4(a.add((row0 + r) * ars + q + 128 * u)) };
                        });
                        unroll!(u in [0, 1, 2, 3] {
                            let (x, y) = (av[u], bv[u]);
                            acc[r] = fma(x[3], y[3], fma(x[2], y[2], fma(x[1], y[1], fma(x[0], y[0], acc[r]))));
                        });
                    }
                });
                q += 512;
            }
        }
        // Two quads per lane and pass, every load issued before the FMAs: one at a time kept a
        // single load of each lane in flight, and 1×5099×6665 streamed W at half of cuBLAS's
        // rate (103 µs against 53; H100).
        while q + 128 < kv {
            // SAFETY: q + 128 + 4 ≤ k, col < n, rows < m; aligned (checked above).
            let bv = unsafe { [T::load4(b.add(col * bcs + q)), T::load4(b.add(col * bcs + q + 128))] };
            let mut av = [[[0f32; 4]; 2]; WARPDOT_ROWS];
            unroll!(r in [0, 1, 2, 3] {
                if r < rows {
                    unroll!(u in [0, 1] {
                        // SAFETY: as above.
                        av[r][u] = unsafe { T::load4(a.add((row0 + r) * ars + q + 128 * u)) };
                    });
                }
            });
            unroll!(r in [0, 1, 2, 3] {
                if r < rows {
                    unroll!(u in [0, 1] {
                        let (x, y) = (av[r][u], bv[u]);
                        acc[r] = fma(x[3], y[3], fma(x[2], y[2], fma(x[1], y[1], fma(x[0], y[0], acc[r]))));
                    });
                }
            });
            q += 256;
        }
        while q < kv {
            // SAFETY: q + 4 ≤ k, col < n, rows < m; aligned (checked above).
            let bv = unsafe { T::load4(b.add(col * bcs + q)) };
            unroll!(r in [0, 1, 2, 3] {
                if r < rows {
                    // SAFETY: as above.
                    let av = unsafe { T::load4(a.add((row0 + r) * ars + q)) };
                    acc[r] = fma(av[3], bv[3], fma(av[2], bv[2], fma(av[1], bv[1], fma(av[0], bv[0], acc[r]))));
                }
            });
            q += 128;
        }
        q0 = kv;
    } else if acs == 1 && brs == 1 && (rows == 1 || core::mem::size_of::<T>() < 4) {
        // Both k-contiguous, but a row stride (or base) breaks the quads' alignment: W's row
        // from its first aligned quad on in aligned quad loads, two per lane and pass as above,
        // op(A) one element at a time (a few rows, read by every warp of the block: cached);
        // the head before it and the tail after the last quad one element per lane. One
        // element per lane and step streamed W slowly: nt 1×5099×6665 (rows of 6665 elements)
        // took 59.0 µs in f32 and 62.9 in bf16, 47.7 and 41.3 this way; bf16 nt 2×3001×4097
        // 22.0 → 15.3 (H200, docs/runs/2026-11-27-s23/c4). Not for f32 on more than one row:
        // its one-element loads of W are whole 128-byte lines per warp already, and op(A)'s
        // four loads per quad cost more than they save (f32 nt 2×3001×4097 21.4 → 24.0 µs,
        // 3×2049×1023 5.1 → 6.6).
        let elem = core::mem::size_of::<T>();
        let row = b as usize + col * bcs * elem;
        let head = ((T::QUAD_BYTES - row % T::QUAD_BYTES) % T::QUAD_BYTES / elem).min(k);
        if lane < head {
            // SAFETY: lane < head ≤ k, col < n, rows < m.
            let bv = unsafe { T::load(b.add(col * bcs + lane)) };
            unroll!(r in [0, 1, 2, 3] {
                if r < rows {
                    // SAFETY: as above.
                    acc[r] = fma(unsafe { T::load(a.add((row0 + r) * ars + lane)) }, bv, acc[r]);
                }
            });
        }
        let kv = head + (k - head) / 4 * 4;
        let quad_a = |r: usize, q: usize| {
            // SAFETY: (its callers) q + 4 ≤ k, r < rows.
            unsafe { core::array::from_fn::<f32, 4, _>(|e| T::load(a.add((row0 + r) * ars + q + e))) }
        };
        let mut q = head + 4 * lane;
        while q + 128 < kv {
            // SAFETY: q + 128 + 4 ≤ k, col < n; W's quads from `head` on are aligned.
            let bv = unsafe { [T::load4(b.add(col * bcs + q)), T::load4(b.add(col * bcs + q + 128))] };
            let mut av = [[[0f32; 4]; 2]; WARPDOT_ROWS];
            unroll!(r in [0, 1, 2, 3] {
                if r < rows {
                    unroll!(u in [0, 1] {
                        av[r][u] = quad_a(r, q + 128 * u);
                    });
                }
            });
            unroll!(r in [0, 1, 2, 3] {
                if r < rows {
                    unroll!(u in [0, 1] {
                        let (x, y) = (av[r][u], bv[u]);
                        acc[r] = fma(x[3], y[3], fma(x[2], y[2], fma(x[1], y[1], fma(x[0], y[0], acc[r]))));
                    });
                }
            });
            q += 256;
        }
        while q < kv {
            // SAFETY: q + 4 ≤ k, col < n; aligned (as above).
            let bv = unsafe { T::load4(b.add(col * bcs + q)) };
            unroll!(r in [0, 1, 2, 3] {
                if r < rows {
                    let av = quad_a(r, q);
                    acc[r] = fma(av[3], bv[3], fma(av[2], bv[2], fma(av[1], bv[1], fma(av[0], bv[0], acc[r]))));
                }
            });
            q += 128;
        }
        q0 = kv;
    }
    let mut q = q0 + lane;
    while q < k {
        // SAFETY: q < k, col < n, rows < m.
        let bv = unsafe { T::load(b.add(q * brs + col * bcs)) };
        unroll!(r in [0, 1, 2, 3] {
            if r < rows {
                // SAFETY: as above.
                acc[r] = fma(unsafe { T::load(a.add((row0 + r) * ars + q * acs)) }, bv, acc[r]);
            }
        });
        q += 32;
    }
    unroll!(r in [0, 1, 2, 3] {
        acc[r] = warp_sum(acc[r]);
    });
    if lane == 0 {
        unroll!(r in [0, 1, 2, 3] {
            if r < rows {
                // SAFETY: (row0 + r, col) is inside C (its transpose with `T_C`).
                unsafe {
                    if T_C {
                        gemm_epilogue(c, bias, &p, col, row0 + r, acc[r]);
                    } else {
                        gemm_epilogue(c, bias, &p, row0 + r, col, acc[r]);
                    }
                }
            }
        });
    }
}

/// Columns of C per block of the column kernels (four per thread).
pub const COLDOT_COLS: usize = 4 * COLDOT_THREADS as usize;
/// Threads per block of the column kernels.
pub const COLDOT_THREADS: u32 = 256;
/// k per split-K slice of the column kernels.
pub const COLDOT_BK: usize = 16;
/// Most rows of C the column kernels take: four per block row (grid y), each block row reading
/// B again (from L2 after the first).
pub const COLDOT_MAX_ROWS: usize = 16;

/// C = act(α·op(A)·op(B) + bias + β·C) for a few rows (m ≤ `COLDOT_MAX_ROWS`, four per block
/// row) with an n-contiguous op(B) (a
/// batch-few x·W with W stored k×n, or a batch-few input gradient dY·W): four columns of C per
/// thread, read 16 bytes at a time along B's rows, k split over z. The warp-per-column kernel
/// reads such a B with a stride between lanes; the tile kernels run 64 or 128 rows for 4
/// (f32 1×4096×4096: 63 µs against cuBLAS's 23; H100).
///
/// # Safety
/// As `gemm_warpdot_f32`, with m ≤ `COLDOT_MAX_ROWS`. Launch: block `COLDOT_THREADS`, grid
/// (⌈n/COLDOT_COLS⌉, ⌈m/4⌉, `p.splits`) with `p.slices_per_split` counted in `COLDOT_BK`
/// slices; with split-K a counter per block of the (x, y) grid and a workspace of
/// ⌈n/COLDOT_COLS⌉·⌈m/4⌉·splits·4·COLDOT_COLS floats.
///
/// # Thread mapping
/// Thread t of block (x, y, z) → columns x·1024 + 4t + 0..4 of rows 4y..4y + 4, k-slices of
/// split z.
#[kernel]
pub unsafe fn gemm_coldot_f32(a: *const f32, b: *const f32, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded.
    unsafe { coldot(a, b, c, bias, p) }
}

/// [`gemm_coldot_f32`] with bf16 A and B, f32 accumulation.
///
/// # Safety
/// As [`gemm_coldot_f32`].
///
/// # Thread mapping
/// As [`gemm_coldot_f32`].
#[kernel]
pub unsafe fn gemm_coldot_bf16(a: *const u16, b: *const u16, c: *mut f32, bias: *const f32, p: GemmParams) {
    // SAFETY: forwarded.
    unsafe { coldot(a, b, c, bias, p) }
}

/// The body of the column kernels.
///
/// # Safety
/// As [`gemm_coldot_f32`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn coldot<T: DotElem>(a: *const T, b: *const T, c: *mut f32, bias: *const f32, p: GemmParams) {
    use crate::matmul::split::{load_l2_x4, split_count_in, split_index, split_k_range, split_slot, sync_threads_or};
    use crate::vector::F32x4;
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    let tid = thread::thread_idx_x() as usize;
    let row0 = thread::block_idx_y() as usize * WARPDOT_ROWS;
    let tile = thread::block_idx_y() as usize * thread::grid_dim_x() as usize + thread::block_idx_x() as usize;
    let col0 = thread::block_idx_x() as usize * COLDOT_COLS + 4 * tid;
    let rows = (m - row0).min(WARPDOT_ROWS);
    let c = c.wrapping_add(row0 * p.ldc as usize);
    let z = split_index(&p);
    let (q0, q1) = split_k_range(&p, z, COLDOT_BK, k);
    let (ars, acs, brs) = (p.a_row_stride as usize, p.a_col_stride as usize, p.b_row_stride as usize);
    let a = a.wrapping_add(row0 * ars);
    let aligned = |x: usize| x % T::QUAD_BYTES == 0;
    let vec = col0 + 4 <= n && brs % 4 == 0 && aligned(b as usize);
    let mut acc = [[0f32; 4]; WARPDOT_ROWS];
    // B's quad (row q, columns col0..col0 + 4), zero past n.
    let quad = |q: usize| -> [f32; 4] {
        // SAFETY: q < k; the columns read are below n (vector path: col0 + 4 ≤ n).
        unsafe {
            if vec { T::load4(b.add(q * brs + col0)) } else { core::array::from_fn(|j| if col0 + j < n { T::load(b.add(q * brs + col0 + j)) } else { 0.0 }) }
        }
    };
    if col0 < n {
        let mut q = q0;
        // Four rows of B per pass, their loads issued before the FMAs.
        while q + 4 <= q1 {
            let bv = [quad(q), quad(q + 1), quad(q + 2), quad(q + 3)];
            unroll!(r in [0, 1, 2, 3] {
                if r < rows {
                    unroll!(u in [0, 1, 2, 3] {
                        // SAFETY: row r < m, q + u < k.
                        let av = unsafe { T::load(a.add(r * ars + (q + u) * acs)) };
                        unroll!(j in [0, 1, 2, 3] {
                            acc[r][j] = fma(av, bv[u][j], acc[r][j]);
                        });
                    });
                }
            });
            q += 4;
        }
        while q < q1 {
            let bv = quad(q);
            unroll!(r in [0, 1, 2, 3] {
                if r < rows {
                    // SAFETY: row r < m, q < k.
                    let av = unsafe { T::load(a.add(r * ars + q * acs)) };
                    unroll!(j in [0, 1, 2, 3] {
                        acc[r][j] = fma(av, bv[j], acc[r][j]);
                    });
                }
            });
            q += 1;
        }
    }
    if p.splits > 1 {
        // Each thread's 4×4 partial at its own places (row-major quads of the 4×1024 tile);
        // the block that counts in last adds every split's in z order, eight splits' loads
        // issued together.
        let area = WARPDOT_ROWS * COLDOT_COLS;
        // SAFETY: with split-K the host gives a counter per block and tiles·splits·area floats.
        unsafe {
            let own = split_slot(&p, tile, z as usize, area) as *mut F32x4;
            unroll!(r in [0, 1, 2, 3] {
                *own.add(r * COLDOT_THREADS as usize + tid) = F32x4(acc[r]);
            });
            if !split_count_in(&p, tile, tid == 0, sync_threads_or) {
                return;
            }
            let splits = p.splits as usize;
            unroll!(r in [0, 1, 2, 3] {
                if r < rows {
                    let mut sum = F32x4::ZERO;
                    let mut zz = 0;
                    while zz < splits {
                        let mut w = [F32x4::ZERO; 8];
                        unroll!(g in [0, 1, 2, 3, 4, 5, 6, 7] {
                            if zz + g < splits {
                                w[g] = load_l2_x4(split_slot(&p, tile, zz + g, area).add(4 * (r * COLDOT_THREADS as usize + tid)));
                            }
                        });
                        unroll!(g in [0, 1, 2, 3, 4, 5, 6, 7] {
                            if zz + g < splits {
                                sum = if zz + g == 0 { w[g] } else { sum.zip(w[g], |x, y| x + y) };
                            }
                        });
                        zz += 8;
                    }
                    acc[r] = sum.0;
                }
            });
        }
    }
    if col0 < n {
        unroll!(r in [0, 1, 2, 3] {
            if r < rows {
                // SAFETY: row r < m; gemm_epilogue4 bounds-checks the columns.
                unsafe { super::gemm_epilogue4(c, bias, &p, r, col0, acc[r]) };
            }
        });
    }
}

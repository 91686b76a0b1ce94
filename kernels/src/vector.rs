//! `F32x4`: four floats moved as one 16-byte access (`ld.global.v4.f32`), the widest a thread
//! can issue, which elementwise kernels need to reach memory bandwidth; and [`stream_map`], the
//! loop every streaming elementwise kernel shares.

#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct F32x4(pub [f32; 4]);

impl F32x4 {
    pub const ZERO: F32x4 = F32x4([0.0; 4]);

    #[inline(always)]
    pub fn map(self, f: impl Fn(f32) -> f32) -> F32x4 {
        let [a, b, c, d] = self.0;
        F32x4([f(a), f(b), f(c), f(d)])
    }

    #[inline(always)]
    pub fn zip(self, other: F32x4, f: impl Fn(f32, f32) -> f32) -> F32x4 {
        let ([a, b, c, d], [e, g, h, i]) = (self.0, other.0);
        F32x4([f(a, e), f(b, g), f(c, h), f(d, i)])
    }
}

/// Threads per block of the streaming elementwise kernels.
pub const STREAM_BLOCK: u32 = 256;
/// 16-byte quads each thread of a streaming kernel loads before it stores any.
pub const STREAM_QUADS: usize = 4;
/// Floats one block of a streaming kernel covers per chunk.
pub const STREAM_CHUNK: usize = STREAM_BLOCK as usize * STREAM_QUADS * 4;

/// c[i] = f(a[i], b[i]) for i < n (b is not read unless `BINARY`; f then gets 0 for it).
///
/// Block `g` takes chunk `g` (then `g + gridDim.x`, …) of [`STREAM_CHUNK`] contiguous floats;
/// each thread issues its [`STREAM_QUADS`] 16-byte loads per input, a block apart so every warp
/// instruction covers 512 contiguous bytes, before its first store, which keeps 64 bytes per
/// input in flight per thread. The launch covers the data with one chunk per block (a
/// grid-stride loop over single quads with a grid sized to the GPU was ~5% slower at 2²⁴–2²⁸
/// floats on an H100). The last `n % 4` floats go one each to the grid's first threads.
///
/// # Safety
/// `a`, `b` (if `BINARY`), `c` hold `n` f32 and are 16-byte aligned; `c` equals an input or is
/// disjoint from them. Launch: blocks of `STREAM_BLOCK` threads.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn stream_map<const BINARY: bool>(a: *const f32, b: *const f32, c: *mut f32, n: usize, f: impl Fn(f32, f32) -> f32) {
    use crate::thread;
    const U: usize = STREAM_QUADS;
    const { assert!(U == 4) };
    const BD: usize = STREAM_BLOCK as usize;
    let quads = n / 4;
    let (a4, b4, c4) = (a as *const F32x4, b as *const F32x4, c as *mut F32x4);
    let tid = thread::thread_idx_x() as usize;
    let mut chunk = thread::block_idx_x() as usize;
    let grid = thread::grid_dim_x() as usize;
    // SAFETY (whole loop): every quad index is < n/4 and every float index < n.
    unsafe {
        while chunk * BD * U < quads {
            let base = chunk * BD * U + tid;
            if base + (U - 1) * BD < quads {
                // `unroll!`, not a `for` loop: a loop here stays rolled when `f` branches
                // (tanh), which puts the quads in local memory.
                let (mut x, mut y) = ([F32x4::ZERO; U], [F32x4::ZERO; U]);
                unroll!(j in [0, 1, 2, 3] { x[j] = *a4.add(base + j * BD); });
                if BINARY {
                    unroll!(j in [0, 1, 2, 3] { y[j] = *b4.add(base + j * BD); });
                }
                unroll!(j in [0, 1, 2, 3] { *c4.add(base + j * BD) = x[j].zip(y[j], &f); });
            } else {
                for j in 0..U {
                    let q = base + j * BD;
                    if q < quads {
                        let y = if BINARY { *b4.add(q) } else { F32x4::ZERO };
                        *c4.add(q) = (*a4.add(q)).zip(y, &f);
                    }
                }
            }
            chunk += grid;
        }
        let t = quads * 4 + thread::index_1d();
        if t < n {
            *c.add(t) = f(*a.add(t), if BINARY { *b.add(t) } else { 0.0 });
        }
    }
}

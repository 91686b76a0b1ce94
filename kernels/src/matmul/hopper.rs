//! Hopper's asynchronous machinery as thin wrappers over inline PTX (sm_90a only): transaction
//! barriers (`mbarrier`), the tensor memory accelerator (`cp.async.bulk.tensor`, "TMA") and
//! warpgroup MMA (`wgmma.mma_async`) with its shared-memory matrix descriptors.
//!
//! Shared-memory addresses are 32-bit `.shared` window offsets throughout, as the instructions
//! take them.

use core::arch::asm;

/// The `.shared` window address of a generic pointer into shared memory.
#[inline(always)]
pub fn shared_addr<T>(p: *const T) -> u32 {
    let a: u64;
    // SAFETY: address arithmetic only.
    unsafe { asm!("cvta.to.shared.u64 {a}, {p};", a = out(reg64) a, p = in(reg64) p) };
    a as u32
}

/// `bar.sync id, threads`: waits until `threads` threads (whole warps) of the block have reached
/// named barrier `id` (0 is `__syncthreads`'s), so a subset of the warps can synchronize.
#[inline(always)]
pub fn named_barrier(id: u32, threads: u32) {
    // SAFETY: a barrier; callers use each id with one fixed set of warps.
    unsafe { asm!("bar.sync {i}, {n};", i = in(reg32) id, n = in(reg32) threads) };
}

/// Initializes the barrier at `bar` to expect `count` arrivals per phase.
///
/// # Safety
/// `bar` is an 8-byte aligned shared address no other thread uses yet.
#[inline(always)]
pub unsafe fn mbarrier_init(bar: u32, count: u32) {
    // SAFETY: forwarded.
    unsafe { asm!("mbarrier.init.shared::cta.b64 [{b}], {c};", b = in(reg32) bar, c = in(reg32) count) };
}

/// Makes barrier initializations visible to the async proxy (TMA completions) and the cluster.
#[inline(always)]
pub fn fence_barrier_init() {
    // SAFETY: a fence.
    unsafe { asm!("fence.mbarrier_init.release.cluster;") };
}

/// One arrival that also tells the barrier to wait for `bytes` more bytes of asynchronous copies
/// in this phase.
///
/// # Safety
/// `bar` is an initialized barrier.
#[inline(always)]
pub unsafe fn mbarrier_arrive_expect_tx(bar: u32, bytes: u32) {
    // SAFETY: forwarded.
    unsafe { asm!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [{b}], {n};", b = in(reg32) bar, n = in(reg32) bytes) };
}

/// One arrival.
///
/// # Safety
/// `bar` is an initialized barrier.
#[inline(always)]
pub unsafe fn mbarrier_arrive(bar: u32) {
    // SAFETY: forwarded.
    unsafe { asm!("mbarrier.arrive.shared::cta.b64 _, [{b}];", b = in(reg32) bar) };
}

/// Waits until the barrier's phase with parity `parity` has completed.
///
/// # Safety
/// `bar` is an initialized barrier.
#[inline(always)]
pub unsafe fn mbarrier_wait(bar: u32, parity: u32) {
    loop {
        let done: u32;
        // SAFETY: forwarded; `try_wait` suspends for a while before it reports "not yet".
        unsafe {
            asm!(
                "{{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [{b}], {ph}; selp.u32 {d}, 1, 0, p; }}",
                b = in(reg32) bar, ph = in(reg32) parity, d = out(reg32) done,
            )
        };
        if done != 0 {
            return;
        }
    }
}

/// Starts a TMA copy of the 2-D box at coordinates (`x` innermost, `y`) of the tensor described
/// by the tensor map at generic address `map` into shared memory at `dst`; its bytes count
/// towards the transaction of `bar`'s current phase. Boxes that overhang the tensor are
/// zero-filled.
///
/// # Safety
/// `map` is a valid tensor map (in `.param`, `.const` or `.global` space); `dst` has room for
/// the box and satisfies the map's alignment (1024 bytes for 128-byte swizzling).
#[inline(always)]
pub unsafe fn tma_load_2d(dst: u32, map: u64, x: i32, y: i32, bar: u32) {
    // SAFETY: forwarded.
    unsafe {
        asm!(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{d}], [{m}, {{{x}, {y}}}], [{b}];",
            d = in(reg32) dst, m = in(reg64) map, x = in(reg32) x, y = in(reg32) y, b = in(reg32) bar,
        )
    };
}

/// [`tma_load_2d`] into the same shared address of every block of the cluster in `mask` (bit
/// r: rank r), completing bytes on the barrier at `bar`'s offset in each of them (TMA
/// multicast: one L2 read feeds several blocks).
///
/// # Safety
/// As `tma_load_2d`, for every block in `mask`: each has initialized the barrier (a cluster
/// barrier since), has room for the box at `dst` and expects its bytes.
#[inline(always)]
pub unsafe fn tma_load_2d_multicast(dst: u32, map: u64, x: i32, y: i32, bar: u32, mask: u16) {
    // SAFETY: forwarded.
    unsafe {
        asm!(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{d}], [{m}, {{{x}, {y}}}], [{b}], {k};",
            d = in(reg32) dst, m = in(reg64) map, x = in(reg32) x, y = in(reg32) y, b = in(reg32) bar, k = in(reg16) mask,
        )
    };
}

/// One arrival on the barrier at `.shared::cluster` address `bar` ([`map_shared_rank`]:
/// possibly another block's of this cluster). Release semantics at block scope only: the
/// arrival frees a stage the arriving block read through `wgmma` (already waited for), so no
/// write of its needs publishing; `.release.cluster` made every multicast plan about 1.3×
/// slower than its plain twin (8192³ nt 1.43 → 1.82 ms, H200, docs/runs/2026-11-28-s29/j1).
///
/// # Safety
/// `bar` maps to an initialized barrier of a block of the cluster that stays live until the
/// arrival is done (a cluster barrier after it).
#[inline(always)]
pub unsafe fn mbarrier_arrive_cluster(bar: u32) {
    // SAFETY: forwarded.
    unsafe { asm!("mbarrier.arrive.shared::cluster.b64 _, [{b}];", b = in(reg32) bar) };
}

/// Orders this thread's earlier shared-memory accesses (generic proxy) before later
/// asynchronous-proxy accesses to the same bytes (`wgmma` reading a tile the thread wrote, a
/// TMA copy overwriting bytes it read).
#[inline(always)]
pub fn fence_proxy_async() {
    // SAFETY: a fence.
    unsafe { asm!("fence.proxy.async.shared::cta;") };
}

/// The f32 at shared address `addr`.
///
/// # Safety
/// `addr` is a 4-byte aligned shared address inside the block's shared memory.
#[inline(always)]
pub unsafe fn ld_shared_f32(addr: u32) -> f32 {
    let v: f32;
    // SAFETY: forwarded.
    unsafe { asm!("ld.shared.f32 {v}, [{a}];", v = out(reg32) v, a = in(reg32) addr, options(readonly, nostack)) };
    v
}

/// The four f32 at shared address `addr`.
///
/// # Safety
/// `addr` is a 16-byte aligned shared address inside the block's shared memory.
#[inline(always)]
pub unsafe fn ld_shared_f32x4(addr: u32) -> [f32; 4] {
    let (x, y, z, w): (f32, f32, f32, f32);
    // SAFETY: forwarded.
    unsafe {
        asm!(
            "ld.shared.v4.f32 {{{x}, {y}, {z}, {w}}}, [{a}];",
            a = in(reg32) addr, x = out(reg32) x, y = out(reg32) y, z = out(reg32) z, w = out(reg32) w,
            options(readonly, nostack),
        )
    };
    [x, y, z, w]
}

/// Stores four f32 at shared address `addr`.
///
/// # Safety
/// `addr` is a 16-byte aligned shared address inside the block's shared memory.
#[inline(always)]
pub unsafe fn st_shared_f32x4(addr: u32, v: [f32; 4]) {
    // SAFETY: forwarded.
    unsafe {
        asm!(
            "st.shared.v4.f32 [{a}], {{{x}, {y}, {z}, {w}}};",
            a = in(reg32) addr, x = in(reg32) v[0], y = in(reg32) v[1], z = in(reg32) v[2], w = in(reg32) v[3],
            options(nostack),
        )
    };
}

/// Stores two f32 at shared address `addr`.
///
/// # Safety
/// `addr` is an 8-byte aligned shared address inside the block's shared memory.
#[inline(always)]
pub unsafe fn st_shared_f32x2(addr: u32, v: [f32; 2]) {
    // SAFETY: forwarded.
    unsafe {
        asm!(
            "st.shared.v2.f32 [{a}], {{{x}, {y}}};",
            a = in(reg32) addr, x = in(reg32) v[0], y = in(reg32) v[1],
            options(nostack),
        )
    };
}

/// Waits until the grids this one depends on have completed and their memory is visible
/// (`griddepcontrol.wait`). A kernel launched with programmatic stream serialization may start
/// while the previous kernel in its stream is still running, so it must call this before it
/// reads or writes global memory; without that launch attribute it returns at once.
#[inline(always)]
pub fn grid_dependency_wait() {
    // SAFETY: a wait; it touches no memory.
    unsafe { asm!("griddepcontrol.wait;") };
}

/// Lets the next kernel of the stream start launching once every block of this grid has called
/// this or exited (`griddepcontrol.launch_dependents`), so its launch and prologue overlap this
/// grid's tail; it still waits for this grid's completion before touching memory.
#[inline(always)]
pub fn launch_dependents() {
    // SAFETY: a scheduling hint.
    unsafe { asm!("griddepcontrol.launch_dependents;") };
}

/// Waits until every thread of every block in this block's thread-block cluster has arrived
/// (`barrier.cluster` with release/acquire semantics: shared-memory writes made before it are
/// visible to the cluster's blocks after it). Every thread of the block must call it.
#[inline(always)]
pub fn cluster_sync() {
    // SAFETY: a barrier over the whole cluster; all threads of each block reach it.
    unsafe { asm!("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;") };
}

/// The address in the shared memory of the cluster's block `rank` that corresponds to this
/// block's shared address `addr` (`mapa`): a `.shared::cluster` address for
/// [`ld_shared_cluster_f32x4`].
#[inline(always)]
pub fn map_shared_rank(addr: u32, rank: u32) -> u32 {
    let d: u32;
    // SAFETY: address arithmetic only.
    unsafe { asm!("mapa.shared::cluster.u32 {d}, {a}, {r};", d = out(reg32) d, a = in(reg32) addr, r = in(reg32) rank, options(pure, nomem, nostack)) };
    d
}

/// Four f32 at `.shared::cluster` address `addr` (distributed shared memory: possibly another
/// block's of this cluster).
///
/// # Safety
/// `addr` is 16-byte aligned and maps into a live block of the cluster, whose writes there were
/// made visible by a [`cluster_sync`].
#[inline(always)]
pub unsafe fn ld_shared_cluster_f32x4(addr: u32) -> [f32; 4] {
    let (a, b, c, d): (f32, f32, f32, f32);
    // SAFETY: forwarded.
    unsafe {
        asm!(
            "ld.shared::cluster.v4.f32 {{{a}, {b}, {c}, {d}}}, [{p}];",
            a = out(reg32) a, b = out(reg32) b, c = out(reg32) c, d = out(reg32) d, p = in(reg32) addr,
            options(readonly, nostack),
        )
    };
    [a, b, c, d]
}

/// [`cluster_sync`] that orders no memory: for a barrier that only keeps every block's shared
/// memory alive until the cluster's reads of it have returned (their values already used), so
/// the arrival does not wait for the block's outstanding global stores.
#[inline(always)]
pub fn cluster_sync_relaxed() {
    // SAFETY: a barrier over the whole cluster; all threads of each block reach it.
    unsafe { asm!("barrier.cluster.arrive.relaxed.aligned; barrier.cluster.wait.aligned;") };
}

/// Starts fetching the tensor map at generic address `map` (a kernel parameter) into the cache
/// the copy engine reads descriptors from, so the first copy does not wait for it.
#[inline(always)]
pub fn prefetch_tensormap(map: u64) {
    // SAFETY: a prefetch; the address is the map's, as `tma_load_2d` takes it.
    unsafe { asm!("prefetch.tensormap [{m}];", m = in(reg64) map) };
}

/// A wgmma shared-memory matrix descriptor for a tile written by TMA with 128-byte swizzling
/// (rows of 128 bytes, 8-row groups 1024 bytes apart). `lbo` is the byte distance between
/// 64-element column blocks of an MN-major tile (unused for K-major tiles); the tile must start
/// on a 1024-byte boundary (offsets into it, to step k, may be any multiple of 16).
#[inline(always)]
pub const fn smem_desc(addr: u32, lbo: u32) -> u64 {
    let start = ((addr & 0x3_ffff) >> 4) as u64;
    let lbo = ((lbo & 0x3_ffff) >> 4) as u64;
    let sbo = (1024 >> 4) as u64;
    start | (lbo << 16) | (sbo << 32) | (1 << 62)
}

/// The shared address of the 16 bytes of k = 4·k4 .. 4·k4 + 3 in row `row` of a K-major f32
/// tile at `dst` in the layout [`smem_desc`] describes: rows of 128 bytes, their 16-byte chunks
/// swizzled by row % 8 (`dst` 1024-aligned; with `dst` = 0, the chunk's offset in the tile).
#[inline(always)]
pub fn kmajor_chunk(dst: u32, row: usize, k4: usize) -> u32 {
    dst + (row * super::WG_ROW_BYTES + ((k4 ^ (row % 8)) * 16)) as u32
}

/// A wgmma descriptor for an MN-major tile written by TMA with 64-byte swizzling (rows of 64
/// bytes: 32 bf16 of m or n per k, 8-row groups 512 bytes apart): a 32-wide operand. The tile
/// must start on a 512-byte boundary.
#[inline(always)]
pub const fn smem_desc_mn64(addr: u32) -> u64 {
    let start = ((addr & 0x3_ffff) >> 4) as u64;
    // The next 32-wide column block (none in a 32-wide tile) and the next 8 rows of k.
    let (lbo, sbo) = ((4096 >> 4) as u64, (512 >> 4) as u64);
    start | (lbo << 16) | (sbo << 32) | (2 << 62)
}

/// Orders this warpgroup's register writes before the `wgmma` instructions that follow.
#[inline(always)]
pub fn wgmma_fence() {
    // SAFETY: a fence; every thread of the warpgroup executes it.
    unsafe { asm!("wgmma.fence.sync.aligned;") };
}

/// Closes the group of `wgmma` instructions issued since the last commit.
#[inline(always)]
pub fn wgmma_commit() {
    // SAFETY: as wgmma_fence.
    unsafe { asm!("wgmma.commit_group.sync.aligned;") };
}

/// Waits until at most `N` committed `wgmma` groups are still running.
#[inline(always)]
pub fn wgmma_wait<const N: u32>() {
    // SAFETY: as wgmma_fence.
    unsafe { asm!("wgmma.wait_group.sync.aligned {n};", n = const N) };
}

/// Expands to one `wgmma.mma_async` on 64×N f32 accumulators `$d` (N/2 per thread):
/// `$pre`, `$n` and `$post` spell the shape and types, `$tail` the scale and transpose immediates.
macro_rules! wgmma_m64 {
    ($pre:literal, $n:literal, $post:literal, $tail:literal, $d:ident, $da:expr, $db:expr, [$i0:tt $(, $i:tt)*]) => {
        core::arch::asm!(
            concat!(
                "{{ .reg .pred p; setp.ne.b32 p, 1, 0; ", $pre, $n, $post, " {{{", stringify!($i0), "}",
                $(", {", stringify!($i), "}",)*
                "}}, {da}, {db}, p", $tail, "; }}"
            ),
            inout(reg32) $d[$i0], $(inout(reg32) $d[$i],)*
            da = in(reg64) $da, db = in(reg64) $db,
        )
    };
}

/// As [`wgmma_m64`] with op(A) from four registers `$a` (a 64×8 TF32 slice: each warp's 16 rows
/// as an `mma.m16n8k8` A fragment) instead of a shared-memory descriptor.
macro_rules! wgmma_m64_rega {
    ($pre:literal, $n:literal, $post:literal, $tail:literal, $d:ident, $a:expr, $db:expr, [$i0:tt $(, $i:tt)*]) => {
        core::arch::asm!(
            concat!(
                "{{ .reg .pred p; setp.ne.b32 p, 1, 0; ", $pre, $n, $post, " {{{", stringify!($i0), "}",
                $(", {", stringify!($i), "}",)*
                "}}, {{{a0}, {a1}, {a2}, {a3}}}, {db}, p", $tail, "; }}"
            ),
            inout(reg32) $d[$i0], $(inout(reg32) $d[$i],)*
            a0 = in(reg32) $a[0], a1 = in(reg32) $a[1], a2 = in(reg32) $a[2], a3 = in(reg32) $a[3],
            db = in(reg64) $db,
        )
    };
}

/// Expands `$m!(args…, [0, 1, …, N/2 − 1])` for N = `$n` (32, 64, 128, 192, 208 or 256): the
/// accumulator indices of a 64×N tile.
macro_rules! with_acc_indices {
    (16, $m:ident!($($args:tt)*)) => {
        $m!($($args)* [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
    };
    (32, $m:ident!($($args:tt)*)) => {
        $m!($($args)* [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
            26, 27, 28, 29, 30, 31
        ])
    };
    (64, $m:ident!($($args:tt)*)) => {
        $m!($($args)* [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
            26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
            49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63
        ])
    };
    (96, $m:ident!($($args:tt)*)) => {
        $m!($($args)* [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
            26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
            49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71,
            72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94,
            95
        ])
    };
    (104, $m:ident!($($args:tt)*)) => {
        $m!($($args)* [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
            26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
            49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71,
            72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94,
            95, 96, 97, 98, 99, 100, 101, 102, 103
        ])
    };
    (128, $m:ident!($($args:tt)*)) => {
        $m!($($args)* [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
            26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
            49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71,
            72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94,
            95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113,
            114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127
        ])
    };
}

/// Reinterprets accumulators of a const-generic length as the concrete array an instruction's
/// register list names (`N` was matched to `M` by the caller).
///
/// # Safety
/// `N == M`.
#[inline(always)]
unsafe fn acc_as<const N: usize, const M: usize>(d: &mut [f32; N]) -> &mut [f32; M] {
    // SAFETY: same length (the caller's contract), same element type.
    unsafe { &mut *(d as *mut [f32; N] as *mut [f32; M]) }
}

/// Expands to the `wgmma` of the accumulator count `$nacc` (16, 32, 64, 104 or 128: n = 32, 64,
/// 128, 208, 256)
/// for the instruction prefix `$pre` ("…m64n") and suffix `$post` ("k16.f32.bf16.bf16").
macro_rules! wgmma_any_n {
    ($nacc:ident, $pre:literal, $post:literal, $tail:literal, $d:ident, $da:ident, $db:ident) => {
        match $nacc {
            16 => {
                let d = acc_as::<$nacc, 16>($d);
                with_acc_indices!(16, wgmma_m64!($pre, "32", $post, $tail, d, $da, $db,))
            }
            32 => {
                let d = acc_as::<$nacc, 32>($d);
                with_acc_indices!(32, wgmma_m64!($pre, "64", $post, $tail, d, $da, $db,))
            }
            64 => {
                let d = acc_as::<$nacc, 64>($d);
                with_acc_indices!(64, wgmma_m64!($pre, "128", $post, $tail, d, $da, $db,))
            }
            96 => {
                let d = acc_as::<$nacc, 96>($d);
                with_acc_indices!(96, wgmma_m64!($pre, "192", $post, $tail, d, $da, $db,))
            }
            104 => {
                let d = acc_as::<$nacc, 104>($d);
                with_acc_indices!(104, wgmma_m64!($pre, "208", $post, $tail, d, $da, $db,))
            }
            128 => {
                let d = acc_as::<$nacc, 128>($d);
                with_acc_indices!(128, wgmma_m64!($pre, "256", $post, $tail, d, $da, $db,))
            }
            _ => panic!("wgmma: 16, 32, 64, 96, 104 or 128 accumulators per thread"),
        }
    };
}

/// D += A·B on a 64×N×16 bf16 tile (N = 2·`NACC`), f32 accumulation; `TA`/`TB`: the operand is
/// MN-major in shared memory (transposed), else K-major.
///
/// # Safety
/// The descriptors point at tiles of this warpgroup's stage that are fully written; every
/// thread of the warpgroup executes it; `d` is not touched until a `wgmma_wait` covers it.
#[inline(always)]
pub unsafe fn wgmma_bf16<const TA: bool, const TB: bool, const NACC: usize>(d: &mut [f32; NACC], da: u64, db: u64) {
    // SAFETY: forwarded; each arm reinterprets `d` at its own length.
    unsafe {
        match (TA, TB) {
            (false, false) => wgmma_any_n!(NACC, "wgmma.mma_async.sync.aligned.m64n", "k16.f32.bf16.bf16", ", 1, 1, 0, 0", d, da, db),
            (false, true) => wgmma_any_n!(NACC, "wgmma.mma_async.sync.aligned.m64n", "k16.f32.bf16.bf16", ", 1, 1, 0, 1", d, da, db),
            (true, false) => wgmma_any_n!(NACC, "wgmma.mma_async.sync.aligned.m64n", "k16.f32.bf16.bf16", ", 1, 1, 1, 0", d, da, db),
            (true, true) => wgmma_any_n!(NACC, "wgmma.mma_async.sync.aligned.m64n", "k16.f32.bf16.bf16", ", 1, 1, 1, 1", d, da, db),
        }
    }
}

/// D += A·B on a 64×N×8 TF32 tile (f32 inputs, low mantissa bits ignored), f32 accumulation.
/// TF32 `wgmma` reads both operands K-major only.
///
/// # Safety
/// As [`wgmma_bf16`].
#[inline(always)]
pub unsafe fn wgmma_tf32<const NACC: usize>(d: &mut [f32; NACC], da: u64, db: u64) {
    // SAFETY: forwarded.
    unsafe { wgmma_any_n!(NACC, "wgmma.mma_async.sync.aligned.m64n", "k8.f32.tf32.tf32", ", 1, 1", d, da, db) }
}

/// D += A·B on a 64×N×8 TF32 tile (N = 2·`NACC`: 64, 128 or 192) with op(A) from registers (`a`: this thread's four
/// elements of the 64×8 slice, warp w holding rows 16w.., laid out as an `mma.m16n8k8` TF32 A
/// fragment: a[i] at row lane/4 + 8·(i%2), column lane%4 + 4·(i/2)) and op(B) K-major in shared
/// memory; f32 accumulation.
///
/// # Safety
/// As [`wgmma_bf16`], for B; `a` is not modified before a `wgmma_wait` covers this instruction.
#[inline(always)]
pub unsafe fn wgmma_tf32_rega<const NACC: usize>(d: &mut [f32; NACC], a: &[f32; 4], db: u64) {
    // SAFETY: NACC is matched to the instruction's register count; forwarded.
    unsafe {
        match NACC {
            32 => {
                let d = acc_as::<NACC, 32>(d);
                with_acc_indices!(32, wgmma_m64_rega!("wgmma.mma_async.sync.aligned.m64n", "64", "k8.f32.tf32.tf32", ", 1, 1", d, a, db,))
            }
            64 => {
                let d = acc_as::<NACC, 64>(d);
                with_acc_indices!(64, wgmma_m64_rega!("wgmma.mma_async.sync.aligned.m64n", "128", "k8.f32.tf32.tf32", ", 1, 1", d, a, db,))
            }
            96 => {
                let d = acc_as::<NACC, 96>(d);
                with_acc_indices!(96, wgmma_m64_rega!("wgmma.mma_async.sync.aligned.m64n", "192", "k8.f32.tf32.tf32", ", 1, 1", d, a, db,))
            }
            _ => panic!("wgmma_tf32_rega: 32, 64 or 96 accumulators per thread (n = 64, 128, 192)"),
        }
    }
}

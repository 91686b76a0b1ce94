//! Shared memory, typed. Two kinds, as in CUDA:
//!
//! - **dynamic** (`extern __shared__`): one launch-sized region, whose size the host sets per
//!   launch (the launch configuration's shared-memory bytes): [`dynamic_shared`];
//! - **static** (`__shared__ float tile[32][33]`): an array whose size is fixed in the kernel,
//!   which the launch does not need to know about: [`static_shared!`](crate::static_shared).

/// The block's dynamic shared memory as a typed pointer. Its size is whatever the launch gave;
/// each kernel documents how many bytes it needs.
#[inline(always)]
pub fn dynamic_shared<T>() -> *mut T {
    core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
}

/// A block-wide static shared array, `__shared__ T name[N]`: evaluates to a `*mut [T; N]` in
/// shared memory, 16-byte aligned, uninitialized at the start of every block.
///
/// ```ignore
/// let tile = kernel_std::static_shared!(TILE: [f32; 32 * 33]);
/// ```
///
/// rustc has no address-space attribute for a `static`, so the array is declared in the PTX of
/// the kernel itself (`.shared .align 16 .b8 NAME[bytes]`). Each name may appear once per
/// kernel, after inlining: use it in the kernel's body or in a helper called once, never inside
/// a loop that could be unrolled.
#[macro_export]
macro_rules! static_shared {
    ($name:ident : [$t:ty; $n:expr]) => {{
        let p: u64;
        // SAFETY: declares a block-local shared array and takes its generic address; nothing is
        // read or written.
        unsafe {
            ::core::arch::asm!(
                concat!(".shared .align 16 .b8 ", stringify!($name), "[{bytes}];"),
                concat!("cvta.shared.u64 {p}, ", stringify!($name), ";"),
                bytes = const ::core::mem::size_of::<[$t; $n]>(),
                p = out(reg64) p,
                options(nomem, nostack, preserves_flags),
            )
        };
        const { assert!(::core::mem::align_of::<$t>() <= 16, "static_shared! aligns to 16 bytes") };
        p as *mut [$t; $n]
    }};
}

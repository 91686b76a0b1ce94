//! Shared memory. Kernels use the launch-sized ("dynamic", `extern __shared__`) region, whose
//! size the host sets per launch (`LaunchConfig::shared_mem_bytes`).

/// The block's dynamic shared memory as a typed pointer. Its size is whatever the launch gave;
/// each kernel documents how many bytes it needs.
#[inline(always)]
pub fn dynamic_shared<T>() -> *mut T {
    core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
}

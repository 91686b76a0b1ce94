//! Thread, block and grid indices with the names a CUDA programmer looks for
//! (`threadIdx.x` → [`thread_idx_x`], …), after Rust-CUDA's `cuda_std::thread`.

use core::arch::nvptx;

macro_rules! special_registers {
    ($($(#[$doc:meta])* $name:ident => $intrinsic:ident;)*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub fn $name() -> u32 {
            // SAFETY: reading a special register has no preconditions.
            unsafe { nvptx::$intrinsic() as u32 }
        }
    )*};
}

special_registers! {
    /// `threadIdx.x`
    thread_idx_x => _thread_idx_x;
    /// `threadIdx.y`
    thread_idx_y => _thread_idx_y;
    /// `threadIdx.z`
    thread_idx_z => _thread_idx_z;
    /// `blockIdx.x`
    block_idx_x => _block_idx_x;
    /// `blockIdx.y`
    block_idx_y => _block_idx_y;
    /// `blockIdx.z`
    block_idx_z => _block_idx_z;
    /// `blockDim.x`
    block_dim_x => _block_dim_x;
    /// `blockDim.y`
    block_dim_y => _block_dim_y;
    /// `blockDim.z`
    block_dim_z => _block_dim_z;
    /// `gridDim.x`
    grid_dim_x => _grid_dim_x;
    /// `gridDim.y`
    grid_dim_y => _grid_dim_y;
    /// `gridDim.z`
    grid_dim_z => _grid_dim_z;
}

/// `blockIdx.x * blockDim.x + threadIdx.x`: this thread's element in a 1-D launch.
#[inline(always)]
pub fn index_1d() -> usize {
    block_idx_x() as usize * block_dim_x() as usize + thread_idx_x() as usize
}

/// `(x, y)` global indices of a 2-D launch: x runs along contiguous columns, y along rows.
#[inline(always)]
pub fn index_2d() -> (usize, usize) {
    let x = block_idx_x() as usize * block_dim_x() as usize + thread_idx_x() as usize;
    let y = block_idx_y() as usize * block_dim_y() as usize + thread_idx_y() as usize;
    (x, y)
}

/// Total threads along x in the grid: the step of a grid-stride loop.
#[inline(always)]
pub fn grid_stride_x() -> usize {
    grid_dim_x() as usize * block_dim_x() as usize
}

/// Total threads along y in the grid.
#[inline(always)]
pub fn grid_stride_y() -> usize {
    grid_dim_y() as usize * block_dim_y() as usize
}

/// Flat index of this thread inside its block.
#[inline(always)]
pub fn thread_idx_in_block() -> u32 {
    (thread_idx_z() * block_dim_y() + thread_idx_y()) * block_dim_x() + thread_idx_x()
}

/// `__syncthreads()`: a barrier for every thread of the block.
#[inline(always)]
pub fn sync_threads() {
    // SAFETY: callers reach the barrier uniformly across the block (documented per kernel).
    unsafe { nvptx::_syncthreads() }
}

/// Lane within the warp (0..32).
#[inline(always)]
pub fn lane_id() -> u32 {
    thread_idx_in_block() % 32
}

/// Warp index within the block.
#[inline(always)]
pub fn warp_id() -> u32 {
    thread_idx_in_block() / 32
}

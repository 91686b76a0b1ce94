//! Launch geometry: a typed `LaunchConfig` with named constructors, checked against the
//! hardware limits before any launch.

use crate::error::{Error, Result};

/// Grid or block extent in x, y, z (CUDA's `dim3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    pub const fn x(x: u32) -> Dim3 {
        Dim3 { x, y: 1, z: 1 }
    }
    pub const fn xy(x: u32, y: u32) -> Dim3 {
        Dim3 { x, y, z: 1 }
    }
    pub const fn xyz(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }
    /// 1×1×1: a launch without thread-block clusters.
    pub const ONE: Dim3 = Dim3 { x: 1, y: 1, z: 1 };
    pub fn volume(self) -> u64 {
        u64::from(self.x) * u64::from(self.y) * u64::from(self.z)
    }
}

/// The hardware's limits on a launch (the same on every GPU since compute capability 3.0).
pub const MAX_THREADS_PER_BLOCK: u32 = 1024;
pub const MAX_GRID: Dim3 = Dim3 { x: (1 << 31) - 1, y: 65_535, z: 65_535 };
/// Most blocks in a thread-block cluster that every cluster-capable GPU (compute capability
/// 9.0 and up) accepts.
pub const MAX_PORTABLE_CLUSTER: u64 = 8;

/// Everything `cuLaunchKernel` needs besides the function and its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchConfig {
    pub grid: Dim3,
    pub block: Dim3,
    pub shared_mem_bytes: u32,
    /// Blocks per thread-block cluster ([`Dim3::ONE`]: none). A cluster's blocks run at once on
    /// one GPU processing cluster and can read each other's shared memory (compute capability
    /// 9.0 and up; launched with `cuLaunchKernelEx`).
    pub cluster: Dim3,
    /// Launched with programmatic stream serialization: the kernel may start once every block
    /// of the previous kernel in the stream has called `griddepcontrol.launch_dependents` (or
    /// exited), before that kernel completes. Only for kernels that call `griddepcontrol.wait`
    /// before touching global memory (`kernels::matmul::grid_dependency_wait`).
    pub overlaps_previous: bool,
}

impl Default for LaunchConfig {
    /// One block of one thread, no shared memory, no cluster, no overlap.
    fn default() -> Self {
        LaunchConfig { grid: Dim3::ONE, block: Dim3::ONE, shared_mem_bytes: 0, cluster: Dim3::ONE, overlaps_previous: false }
    }
}

impl LaunchConfig {
    /// One thread per element: `ceil(n / block)` blocks of `block` threads.
    pub fn for_num_elems(op: &'static str, n: usize, block: u32) -> Result<LaunchConfig> {
        let blocks = n.div_ceil(block as usize);
        let grid_x = u32::try_from(blocks).ok().filter(|&g| g <= MAX_GRID.x).ok_or(Error::TooLarge {
            op,
            what: "blocks in x",
            value: blocks as u64,
            limit: u64::from(MAX_GRID.x),
        })?;
        Ok(LaunchConfig { grid: Dim3::x(grid_x), block: Dim3::x(block), shared_mem_bytes: 0, ..LaunchConfig::default() })
    }

    /// A grid-stride launch over `work` items: enough blocks to cover them, at most `max_blocks`
    /// (kernels loop over the rest).
    pub fn grid_stride(work: usize, block: u32, max_blocks: u32) -> LaunchConfig {
        let blocks = work.div_ceil(block as usize).clamp(1, max_blocks as usize) as u32;
        LaunchConfig { grid: Dim3::x(blocks), block: Dim3::x(block), shared_mem_bytes: 0, ..LaunchConfig::default() }
    }

    /// One thread per element of a `rows × cols` matrix, x along columns. Fails if the grid
    /// would exceed the limit in y (kernels without a grid-stride loop need full coverage).
    pub fn for_2d(op: &'static str, rows: usize, cols: usize, block: (u32, u32)) -> Result<LaunchConfig> {
        let gx = cols.div_ceil(block.0 as usize);
        let gy = rows.div_ceil(block.1 as usize);
        let too_large = |what, value: usize, limit: u32| Error::TooLarge { op, what, value: value as u64, limit: u64::from(limit) };
        let gx = u32::try_from(gx).ok().filter(|&g| g <= MAX_GRID.x).ok_or(too_large("blocks in x", gx, MAX_GRID.x))?;
        let gy = u32::try_from(gy).ok().filter(|&g| g <= MAX_GRID.y).ok_or(too_large("blocks in y", gy, MAX_GRID.y))?;
        Ok(LaunchConfig { grid: Dim3::xy(gx, gy), block: Dim3::xy(block.0, block.1), shared_mem_bytes: 0, ..LaunchConfig::default() })
    }

    /// A 2-D grid-stride launch: covers the matrix where the limits allow, loops beyond.
    pub fn for_2d_strided(rows: usize, cols: usize, block: (u32, u32)) -> LaunchConfig {
        let gx = cols.div_ceil(block.0 as usize).clamp(1, 65_535) as u32;
        let gy = rows.div_ceil(block.1 as usize).clamp(1, MAX_GRID.y as usize) as u32;
        LaunchConfig { grid: Dim3::xy(gx, gy), block: Dim3::xy(block.0, block.1), shared_mem_bytes: 0, ..LaunchConfig::default() }
    }

    pub fn with_shared_mem(mut self, bytes: u32) -> LaunchConfig {
        self.shared_mem_bytes = bytes;
        self
    }

    /// This launch with programmatic stream serialization ([`LaunchConfig::overlaps_previous`]).
    pub fn with_overlap(mut self) -> LaunchConfig {
        self.overlaps_previous = true;
        self
    }

    /// This launch with its blocks grouped into clusters of `cluster` (each grid dimension a
    /// multiple of the cluster's, checked by [`LaunchConfig::validate`]).
    pub fn with_cluster(mut self, cluster: Dim3) -> LaunchConfig {
        self.cluster = cluster;
        self
    }

    /// Checks the block and grid against the hardware limits and the shared memory against
    /// what this device allows one block (`max_shared`).
    pub fn validate(&self, op: &'static str, max_shared: u32) -> Result<()> {
        let b = self.block;
        let g = self.grid;
        if b.volume() == 0 || g.volume() == 0 {
            return Err(Error::InvalidArgument { op, reason: format!("empty launch {self:?}") });
        }
        if b.volume() > u64::from(MAX_THREADS_PER_BLOCK) || b.z > 64 {
            return Err(Error::TooLarge { op, what: "threads per block", value: b.volume(), limit: u64::from(MAX_THREADS_PER_BLOCK) });
        }
        for (what, v, lim) in [("grid x", g.x, MAX_GRID.x), ("grid y", g.y, MAX_GRID.y), ("grid z", g.z, MAX_GRID.z)] {
            if v > lim {
                return Err(Error::TooLarge { op, what, value: u64::from(v), limit: u64::from(lim) });
            }
        }
        let c = self.cluster;
        if c.volume() == 0 || c.volume() > MAX_PORTABLE_CLUSTER {
            return Err(Error::TooLarge { op, what: "blocks per cluster", value: c.volume(), limit: MAX_PORTABLE_CLUSTER });
        }
        if !g.x.is_multiple_of(c.x) || !g.y.is_multiple_of(c.y) || !g.z.is_multiple_of(c.z) {
            return Err(Error::InvalidArgument { op, reason: format!("grid {g:?} is not a whole number of clusters {c:?}") });
        }
        if self.shared_mem_bytes > max_shared {
            return Err(Error::TooLarge { op, what: "shared memory bytes per block", value: u64::from(self.shared_mem_bytes), limit: u64::from(max_shared) });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_thread_per_element_covers_n() {
        for n in [1usize, 255, 256, 257, 1 << 20] {
            let c = LaunchConfig::for_num_elems("t", n, 256).unwrap();
            assert!(c.grid.volume() * c.block.volume() >= n as u64);
            assert!((c.grid.x as usize - 1) * 256 < n);
        }
    }

    #[test]
    fn oversized_grids_are_errors_not_truncations() {
        let n = (MAX_GRID.x as usize + 1) * 256;
        assert!(matches!(LaunchConfig::for_num_elems("t", n, 256), Err(Error::TooLarge { .. })));
        assert!(matches!(LaunchConfig::for_2d("t", 65_536 * 16, 16, (16, 16)), Err(Error::TooLarge { what: "blocks in y", .. })));
        let c = LaunchConfig::for_2d("t", 65_535 * 16, 16, (16, 16)).unwrap();
        assert!(c.validate("t", 48 * 1024).is_ok());
    }

    #[test]
    fn validate_rejects_bad_blocks_and_shared_memory() {
        let mut c = LaunchConfig::for_num_elems("t", 10, 256).unwrap();
        c.block = Dim3::xy(64, 32);
        assert!(c.validate("t", 0).is_err());
        let c = LaunchConfig::for_num_elems("t", 10, 256).unwrap().with_shared_mem(100_000);
        assert!(matches!(c.validate("t", 49_152), Err(Error::TooLarge { .. })));
    }

    #[test]
    fn validate_rejects_clusters_that_do_not_tile_the_grid() {
        let c = LaunchConfig { grid: Dim3::xyz(4, 2, 4), ..LaunchConfig::for_num_elems("t", 10, 256).unwrap() };
        assert!(c.with_cluster(Dim3::xyz(1, 1, 4)).validate("t", 0).is_ok());
        assert!(matches!(c.with_cluster(Dim3::xyz(1, 1, 3)).validate("t", 0), Err(Error::InvalidArgument { .. })));
        assert!(matches!(c.with_cluster(Dim3::xyz(2, 2, 4)).validate("t", 0), Err(Error::TooLarge { what: "blocks per cluster", .. })));
        assert!(matches!(c.with_cluster(Dim3::xyz(0, 1, 1)).validate("t", 0), Err(Error::TooLarge { .. })));
    }
}

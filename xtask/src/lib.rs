//! Build tooling of this workspace: `cargo xtask build-ptx` and `validate-ptx`, thin callers of
//! `kernel-builder` (re-exported here under the module names the tests use).

pub use kernel_builder::{cubin, linker, ptx, ptxas, ptxinfo};

use std::path::{Path, PathBuf};

/// The workspace root, from a member crate's `CARGO_MANIFEST_DIR` (one level down).
pub fn workspace_from_manifest_dir(manifest_dir: &Path) -> PathBuf {
    manifest_dir.parent().map(Path::to_path_buf).unwrap_or_else(|| manifest_dir.to_path_buf())
}

/// The build of this workspace's `kernels` crate, shared by the xtask and the host's build
/// script, so both write the same files (`target/ptx/kernels-<arch>.ptx`) with the same hash.
pub fn kernels_builder(workspace: &Path) -> kernel_builder::Builder {
    kernel_builder::Builder::new(workspace.join("kernels")).kernels(kernels::KERNELS).target_dir(workspace.join("target/ptx"))
}

//! The toolchain components a kernel build needs, checked before it starts so that a missing one
//! is named with the command that installs it (instead of surfacing as a failure deep in the
//! nested build).

use std::path::PathBuf;
use std::process::Command;

/// The active toolchain's sysroot.
pub fn sysroot() -> Result<PathBuf, String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(&rustc).args(["--print", "sysroot"]).output().map_err(|e| format!("running rustc --print sysroot: {e}"))?;
    if !out.status.success() {
        return Err(format!("rustc --print sysroot failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

/// Checks that the toolchain is a nightly with `rust-src` (for `-Zbuild-std=core`) and
/// `llvm-tools` (the linker's `llvm-link`, `opt`, `llc`).
pub fn check() -> Result<(), String> {
    let sysroot = sysroot()?;
    let core = sysroot.join("lib/rustlib/src/rust/library/core/Cargo.toml");
    if !core.is_file() {
        return Err(format!(
            "the rust-src component is missing from {} (the kernels build `core` from source): \
             `rustup component add rust-src`, or list it under `components` in rust-toolchain.toml",
            sysroot.display()
        ));
    }
    crate::linker::llvm_tools_dir().map(|_| ())
}

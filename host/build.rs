//! Builds the kernels' PTX (for each architecture in `xtask::ptx::DEFAULT_ARCHES`) whenever the
//! kernel sources change, so `cargo run`/`test`/`bench` never embed stale PTX. It uses the same
//! builder as `cargo xtask build-ptx` and the same output folder (`target/ptx/`), and acts as
//! the NVPTX linker for the nested build (see `xtask::linker`).

use std::path::{Path, PathBuf};

use xtask::ptx::{DEFAULT_ARCHES, PtxBuild, source_hash, workspace_from_manifest_dir};

fn main() {
    xtask::linker::run_if_requested();
    if let Err(e) = run() {
        eprintln!("{e}");
        println!("cargo::error=building the kernels' PTX failed: {}", e.lines().next().unwrap_or(""));
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?);
    let workspace = workspace_from_manifest_dir(&manifest);
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?);
    for dir in ["kernels/src", "kernels/macros/src", "kernels/Cargo.toml", "kernels/macros/Cargo.toml", "xtask/src", "rust-toolchain.toml"] {
        println!("cargo::rerun-if-changed={}", workspace.join(dir).display());
    }
    // A stable linker path, so the nested build's flags (and so its cache) do not depend on
    // which executable started it.
    let ptx_dir = workspace.join("target/ptx");
    std::fs::create_dir_all(&ptx_dir).map_err(|e| format!("creating {}: {e}", ptx_dir.display()))?;
    for arch in DEFAULT_ARCHES {
        let build = PtxBuild { workspace: workspace.clone(), out_dir: ptx_dir.clone(), arch: arch.to_string(), verbose: false };
        let ptx = build.build()?;
        copy_if_changed(&ptx, &out_dir.join(format!("kernels-{arch}.ptx")))?;
    }
    println!("cargo::rustc-env=KERNELS_SOURCE_HASH={}", source_hash(&workspace)?);
    Ok(())
}

fn copy_if_changed(from: &Path, to: &Path) -> Result<(), String> {
    let data = std::fs::read(from).map_err(|e| format!("reading {}: {e}", from.display()))?;
    if std::fs::read(to).ok().as_deref() != Some(&data[..]) {
        std::fs::write(to, data).map_err(|e| format!("writing {}: {e}", to.display()))?;
    }
    Ok(())
}

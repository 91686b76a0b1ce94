//! Builds the kernels' PTX (for each architecture in `xtask::ptx::DEFAULT_ARCHES`) whenever the
//! kernel sources change, so `cargo run`/`test`/`bench` never embed stale PTX. It uses the same
//! builder as `cargo xtask build-ptx` and the same output folder (`target/ptx/`), and acts as
//! the NVPTX linker for the nested build (see `xtask::linker`).
//!
//! It also assembles each PTX into a cubin with `ptxas` (cached by `xtask::cubin`, so an
//! unchanged PTX never runs ptxas again), so that programs start without waiting for the
//! driver's JIT. Without ptxas only the PTX is embedded, and the build says so;
//! `KERNELS_REQUIRE_CUBINS=1` (CI) makes that an error.

use std::path::{Path, PathBuf};

use xtask::ptx::{DEFAULT_ARCHES, PtxBuild, source_hash, workspace_from_manifest_dir};

const REQUIRE_CUBINS: &str = "KERNELS_REQUIRE_CUBINS";

fn main() {
    xtask::linker::run_if_requested();
    if let Err(e) = run() {
        eprintln!("{e}");
        println!("cargo::error=building the kernels failed: {}", e.lines().next().unwrap_or(""));
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
    println!("cargo::rerun-if-env-changed=PTXAS");
    println!("cargo::rerun-if-env-changed={REQUIRE_CUBINS}");
    let require = std::env::var(REQUIRE_CUBINS).is_ok_and(|v| v == "1");
    let ptxas = xtask::ptxas::find();
    // A stable linker path, so the nested build's flags (and so its cache) do not depend on
    // which executable started it.
    let ptx_dir = workspace.join("target/ptx");
    std::fs::create_dir_all(&ptx_dir).map_err(|e| format!("creating {}: {e}", ptx_dir.display()))?;
    let mut missing = Vec::new();
    std::thread::scope(|scope| -> Result<(), String> {
        let mut cubins = Vec::new();
        for arch in DEFAULT_ARCHES {
            let build = PtxBuild { workspace: workspace.clone(), out_dir: ptx_dir.clone(), arch: arch.to_string(), verbose: false };
            let ptx = build.build()?;
            pack(&std::fs::read(&ptx).map_err(|e| format!("reading {}: {e}", ptx.display()))?, &out_dir.join(format!("kernels-{arch}.ptx")))?;
            // ptxas for this arch runs while the next arch's PTX builds.
            if let Some(ptxas) = &ptxas {
                cubins.push((arch, scope.spawn(move || xtask::cubin::build(ptxas, &ptx, arch))));
            }
        }
        for (arch, handle) in cubins {
            let dest = out_dir.join(format!("kernels-{arch}.cubin"));
            match handle.join().unwrap_or_else(|_| Err("ptxas thread panicked".into())) {
                Ok(cubin) => pack(&std::fs::read(&cubin.path).map_err(|e| format!("reading {}: {e}", cubin.path.display()))?, &dest)?,
                Err(e) if require => return Err(e),
                Err(e) => {
                    println!("cargo::warning={arch}: ptxas failed, so only PTX is embedded for {arch}: {}", e.lines().next().unwrap_or(""));
                    missing.push(*arch);
                }
            }
        }
        Ok(())
    })?;
    if ptxas.is_none() {
        if require {
            return Err(format!("{REQUIRE_CUBINS}=1 but {}", xtask::ptxas::HOW_TO_GET));
        }
        println!(
            "cargo::warning=ptxas not found: only PTX is embedded, so a program's first run on a GPU waits while the driver \
             compiles the kernels (about 40 s on an H100; the driver caches the result). To embed cubins, install ptxas \
             (`python3 -m pip install nvidia-cuda-nvcc`, or the CUDA toolkit) and rebuild with PTXAS=/path/to/ptxas"
        );
        missing.extend(DEFAULT_ARCHES.iter().copied());
    }
    // An empty image: no cubin for that arch (the host then loads the PTX).
    for arch in missing {
        pack(&[], &out_dir.join(format!("kernels-{arch}.cubin")))?;
    }
    println!("cargo::rustc-env=KERNELS_SOURCE_HASH={}", source_hash(&workspace)?);
    Ok(())
}

/// Writes `data` to `to` and its zstd compression (level 19) to `to.zst`, which the host
/// embeds: each of the ~18 binaries of a GPU bundle carries all four images, 15 MB raw, 2.8 MB
/// gzipped, 1.7 MB this way. Compresses only when `data` changed (a few seconds each).
fn pack(data: &[u8], to: &Path) -> Result<(), String> {
    let zst = to.with_extension(format!("{}.zst", to.extension().map(|e| e.to_string_lossy()).unwrap_or_default()));
    if std::fs::read(to).ok().as_deref() == Some(data) && zst.is_file() {
        return Ok(());
    }
    let packed = if data.is_empty() { Vec::new() } else { zstd::bulk::compress(data, 19).map_err(|e| format!("compressing {}: {e}", to.display()))? };
    std::fs::write(&zst, packed).map_err(|e| format!("writing {}: {e}", zst.display()))?;
    std::fs::write(to, data).map_err(|e| format!("writing {}: {e}", to.display()))
}

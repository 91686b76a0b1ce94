//! Builds the kernels (`kernels/`, for each architecture in `kernel_builder::DEFAULT_ARCHES`)
//! through `kernel-builder` whenever their sources change, so `cargo run`/`test`/`bench` never
//! embed stale kernels, into the same files as `cargo xtask build-ptx` (`target/ptx/`). The
//! builder assembles each PTX into a cubin where `ptxas` is found (cached: an unchanged PTX never
//! runs ptxas again), so programs start without the driver's JIT; `KERNELS_REQUIRE_CUBINS=1`
//! (CI) makes a missing ptxas an error. Here the images are only compressed for embedding.

use std::path::{Path, PathBuf};

use kernel_builder::Cubins;

const REQUIRE_CUBINS: &str = "KERNELS_REQUIRE_CUBINS";

fn main() {
    // The builder links the PTX with this executable.
    kernel_builder::linker::run_if_requested();
    if let Err(e) = run() {
        eprintln!("{e}");
        println!("cargo::error=building the kernels failed: {}", e.lines().next().unwrap_or(""));
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?);
    let workspace = xtask::workspace_from_manifest_dir(&manifest);
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?);
    println!("cargo::rerun-if-changed={}", workspace.join("kernels/src").display());
    println!("cargo::rerun-if-env-changed=PTXAS");
    println!("cargo::rerun-if-env-changed={REQUIRE_CUBINS}");
    let require = std::env::var(REQUIRE_CUBINS).is_ok_and(|v| v == "1");
    let built = xtask::kernels_builder(&workspace).cubins(if require { Cubins::Required } else { Cubins::IfPtxasFound }).build()?;
    for s in &built.sources {
        println!("cargo::rerun-if-changed={}", s.display());
    }
    for w in &built.warnings {
        println!("cargo::warning={w}");
    }
    for m in &built.modules {
        let read = |p: &Path| std::fs::read(p).map_err(|e| format!("reading {}: {e}", p.display()));
        pack(&read(&m.ptx)?, &out_dir.join(format!("kernels-{}.ptx", m.arch)))?;
        // An empty image: no cubin for that arch (the host then loads the PTX).
        let cubin = match &m.cubin {
            Some(c) => read(c)?,
            None => Vec::new(),
        };
        pack(&cubin, &out_dir.join(format!("kernels-{}.cubin", m.arch)))?;
    }
    println!("cargo::rustc-env=KERNELS_SOURCE_HASH={}", built.hash);
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

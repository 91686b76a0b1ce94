//! Compiles the `kernels` crate to PTX for one GPU architecture.
//!
//! A nested `cargo rustc` builds `kernels` as a fat-LTO `cdylib` for `nvptx64-nvidia-cuda`, with
//! `core` built from source (`-Zbuild-std=core`, because rustup has no prebuilt std for that
//! target here) and the calling executable as the linker (see [`crate::linker`]). The result is
//! copied to `<target>/ptx/kernels-<arch>.ptx` with a first line `// kernels-source-hash: <hex>`,
//! so a host can tell PTX built from other kernel sources from its own.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::linker::LINKER_ENV;

/// Architectures the host embeds: `sm_80` runs on Ampere and newer; `sm_90a` unlocks Hopper-only
/// instructions (`wgmma`, bulk tensor copies) and runs on compute capability 9.0 exactly.
pub const DEFAULT_ARCHES: &[&str] = &["sm_80", "sm_90a"];

/// Prefix of the first PTX line carrying the kernel-source hash.
pub use kernels::info::PTX_HASH_PREFIX as HASH_PREFIX;

/// One PTX build.
#[derive(Debug, Clone)]
pub struct PtxBuild {
    /// Workspace root (holds `kernels/`).
    pub workspace: PathBuf,
    /// Where the nested cargo keeps its artifacts and where `kernels-<arch>.ptx` is written.
    pub out_dir: PathBuf,
    /// `sm_80`, `sm_90`, `sm_90a`, …
    pub arch: String,
    /// Print cargo's progress (the xtask does; the build script stays quiet).
    pub verbose: bool,
}

impl PtxBuild {
    /// The stable path of the PTX this build writes.
    pub fn ptx_path(&self) -> PathBuf {
        self.out_dir.join(format!("kernels-{}.ptx", self.arch))
    }

    /// Builds (incrementally) and returns the path of the stamped PTX.
    pub fn build(&self) -> Result<PathBuf, String> {
        check_arch(&self.arch)?;
        let linker = self.install_linker()?;
        let target_dir = self.out_dir.join(&self.arch);
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut cmd = Command::new(cargo);
        clean_cargo_env(&mut cmd);
        cmd.current_dir(&self.workspace)
            .args(["rustc", "--release", "--package", "kernels", "--lib", "--crate-type", "cdylib"])
            .args(["--target", "nvptx64-nvidia-cuda", "-Zbuild-std=core"])
            .arg("--target-dir")
            .arg(&target_dir)
            .env(LINKER_ENV, "1")
            .env("CARGO_ENCODED_RUSTFLAGS", [format!("-Ctarget-cpu={}", self.arch), format!("-Clinker={}", linker.display())].join("\x1f"))
            .env("CARGO_PROFILE_RELEASE_LTO", "fat")
            .env("CARGO_PROFILE_RELEASE_PANIC", "abort")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1")
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "3")
            .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
            .env("CARGO_PROFILE_RELEASE_INCREMENTAL", "false");
        if !self.verbose {
            cmd.arg("--quiet");
        }
        let out = cmd.output().map_err(|e| format!("running cargo for the kernels: {e}"))?;
        if self.verbose {
            eprint!("{}", String::from_utf8_lossy(&out.stderr));
        }
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let hint = if stderr.contains("rust-src") || stderr.contains("build-std") {
                "\nhint: -Zbuild-std needs the rust-src component (`rustup component add rust-src`)"
            } else {
                ""
            };
            return Err(format!("building kernels for {} failed:\n{stderr}{hint}", self.arch));
        }
        let built = target_dir.join("nvptx64-nvidia-cuda/release/kernels.ptx");
        let ptx = std::fs::read_to_string(&built)
            .map_err(|e| format!("reading {}: {e} (did the linker run?)", built.display()))?;
        let ptx = patch_entries(&ptx, kernels::KERNELS)?;
        let hash = source_hash(&self.workspace)?;
        let stamped = format!("{HASH_PREFIX}{hash}\n{}", hash_global(&ptx, &hash)?);
        let dest = self.ptx_path();
        // Rewrite only on change, so dependents' mtimes stay put on no-op builds.
        if std::fs::read_to_string(&dest).ok().as_deref() != Some(stamped.as_str()) {
            std::fs::write(&dest, stamped).map_err(|e| format!("writing {}: {e}", dest.display()))?;
        }
        Ok(dest)
    }
}

impl PtxBuild {
    /// Copies the running executable (which calls [`crate::linker::run_if_requested`]) to a
    /// fixed path, so the nested build's `-Clinker=` flag, and with it cargo's cache, is the same
    /// whether the xtask or the host's build script started the build.
    fn install_linker(&self) -> Result<PathBuf, String> {
        let exe = std::env::current_exe().map_err(|e| format!("locating the linker executable: {e}"))?;
        std::fs::create_dir_all(&self.out_dir).map_err(|e| format!("creating {}: {e}", self.out_dir.display()))?;
        let dest = self.out_dir.join("ptx-linker");
        let tmp = self.out_dir.join(format!("ptx-linker.{}.tmp", std::process::id()));
        std::fs::copy(&exe, &tmp).map_err(|e| format!("copying {} to {}: {e}", exe.display(), tmp.display()))?;
        // rename is atomic: a rustc already running the old linker keeps its file.
        std::fs::rename(&tmp, &dest).map_err(|e| format!("installing {}: {e}", dest.display()))?;
        Ok(dest)
    }
}

/// Name of the global holding the kernel-source hash (16 ASCII bytes) in the compiled module:
/// the first-line comment does not survive `ptxas`, this does, so a cubin can be checked too.
pub const HASH_GLOBAL: &str = "kernels_source_hash";

/// Declares [`HASH_GLOBAL`], initialized to `hash`, after the PTX's `.address_size` line.
pub fn hash_global(ptx: &str, hash: &str) -> Result<String, String> {
    if ptx.contains(&format!(" {HASH_GLOBAL}[")) {
        return Ok(ptx.to_string());
    }
    let at = ptx.find("\n.address_size").ok_or("PTX has no .address_size line")?;
    let end = ptx[at + 1..].find('\n').map_or(ptx.len(), |i| at + 1 + i + 1);
    let bytes = hash.bytes().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
    let decl = format!("\n.visible .global .align 1 .b8 {HASH_GLOBAL}[{}] = {{{bytes}}};\n", hash.len());
    Ok(format!("{}{decl}{}", &ptx[..end], &ptx[end..]))
}

/// Adds to each kernel's `.entry` what rustc cannot ask LLVM for:
/// - its launch bounds (`#[kernel(max_threads = …, min_blocks = …)]`) as `.maxntid` and
///   `.minnctapersm` after the parameter list, where PTX puts performance directives; without
///   them ptxas may give a kernel more registers than its block size allows (the launch would
///   fail) or than lets `min_blocks` blocks share a multiprocessor;
/// - 64-byte alignment for `TensorMap` parameters (Rust aligns parameters to at most 16 bytes;
///   the copy engine needs 64).
pub fn patch_entries(ptx: &str, kernels: &[kernels::KernelInfo]) -> Result<String, String> {
    let mut lines: Vec<String> = ptx.lines().map(str::to_owned).collect();
    for k in kernels {
        let header = format!(".entry {}(", k.name);
        let Some(start) = lines.iter().position(|l| l.trim_start().starts_with(".visible .entry ") && l.contains(&header)) else {
            continue; // not built for this architecture
        };
        let close = (start..lines.len())
            .find(|&i| lines[i].trim_start().starts_with(')'))
            .ok_or_else(|| format!("PTX entry {} has no closing parenthesis", k.name))?;
        for (i, kind) in k.params.iter().enumerate() {
            if *kind != kernels::ParamKind::TensorMap {
                continue;
            }
            let decl = format!("{}_param_{i}[128]", k.name);
            let line = lines[start..close]
                .iter_mut()
                .find(|l| l.contains(&decl))
                .ok_or_else(|| format!("PTX entry {}: no 128-byte parameter {i} for its TensorMap", k.name))?;
            *line = line.replace(".align 16 ", ".align 64 ");
            if !line.contains(".align 64 ") {
                return Err(format!("PTX entry {}: unexpected declaration of TensorMap parameter {i}: {line}", k.name));
            }
        }
        if k.max_threads == 0 || lines.get(close + 1).is_some_and(|l| l.trim_start().starts_with(".maxntid")) {
            continue; // no bounds, or already applied
        }
        let mut directives = vec![format!(".maxntid {}, 1, 1", k.max_threads)];
        if k.min_blocks > 0 {
            directives.push(format!(".minnctapersm {}", k.min_blocks));
        }
        lines.splice(close + 1..close + 1, directives);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Ok(out)
}

/// Accepts `sm_XY` and `sm_XYa` with XY ≥ 70.
pub fn check_arch(arch: &str) -> Result<(), String> {
    let digits = arch.strip_prefix("sm_").map(|s| s.trim_end_matches('a'));
    match digits.and_then(|d| d.parse::<u32>().ok()) {
        Some(n) if n >= 70 => Ok(()),
        _ => Err(format!("unsupported GPU architecture `{arch}`: expected sm_70 or newer, e.g. sm_80, sm_90a")),
    }
}

/// Removes what the outer cargo (when called from a build script or `cargo run`) put in the
/// environment, so the nested build is configured only by what [`PtxBuild::build`] sets.
fn clean_cargo_env(cmd: &mut Command) {
    for (key, _) in std::env::vars_os() {
        let k = key.to_string_lossy();
        let keep = k == "CARGO_HOME" || k == "CARGO" || k == "CARGO_NET_OFFLINE";
        let strip = (k.starts_with("CARGO_") && !keep)
            || k.starts_with("RUSTC")
            || k.starts_with("RUSTDOC")
            || matches!(
                k.as_ref(),
                "RUSTFLAGS" | "TARGET" | "HOST" | "PROFILE" | "OUT_DIR" | "OPT_LEVEL" | "DEBUG" | "NUM_JOBS"
                    | "MAKEFLAGS" | "MFLAGS" | "CARGO_MAKEFLAGS"
            );
        if strip {
            cmd.env_remove(&key);
        }
    }
}

/// Files whose content determines the PTX: the kernels crate, its proc macro, and this builder.
pub fn source_files(workspace: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["kernels/src", "kernels/macros/src", "xtask/src/linker.rs", "xtask/src/ptx.rs"] {
        collect(&workspace.join(dir), &mut files);
    }
    for f in ["kernels/Cargo.toml", "kernels/macros/Cargo.toml", "rust-toolchain.toml"] {
        collect(&workspace.join(f), &mut files);
    }
    files.sort();
    files
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        if let Ok(rd) = std::fs::read_dir(path) {
            for e in rd.flatten() {
                collect(&e.path(), out);
            }
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}

/// FNV-1a (64-bit) over the relative paths and contents of [`source_files`].
pub fn source_hash(workspace: &Path) -> Result<String, String> {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for f in source_files(workspace) {
        let rel = f.strip_prefix(workspace).unwrap_or(&f);
        eat(rel.to_string_lossy().replace('\\', "/").as_bytes());
        eat(&std::fs::read(&f).map_err(|e| format!("reading {}: {e}", f.display()))?);
    }
    Ok(format!("{h:016x}"))
}

/// Workspace root as seen from a crate's `CARGO_MANIFEST_DIR` (one level down).
pub fn workspace_from_manifest_dir(manifest_dir: &Path) -> PathBuf {
    manifest_dir.parent().map(Path::to_path_buf).unwrap_or_else(|| manifest_dir.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_bounds_go_after_the_parameter_list() {
        use kernels::ParamKind::{Pointer, TensorMap};
        let ptx = ".visible .entry foo(\n\t.param .align 16 .b8 foo_param_0[128],\n\t.param .u64 foo_param_1\n)\n{\n\tret;\n}\n.visible .entry bar(\n)\n{\n}\n";
        let k = |name, params, max_threads, min_blocks| kernels::KernelInfo { name, params, min_arch: kernels::MinArch::Any, max_threads, min_blocks };
        let ks = [k("foo", &[TensorMap, Pointer], 256, 2), k("bar", &[], 0, 0), k("absent", &[], 128, 0)];
        let out = patch_entries(ptx, &ks).unwrap();
        assert!(out.contains(".param .align 64 .b8 foo_param_0[128],"), "{out}");
        assert!(out.contains("foo_param_1\n)\n.maxntid 256, 1, 1\n.minnctapersm 2\n{"), "{out}");
        assert!(out.contains(".entry bar(\n)\n{"), "{out}");
        assert_eq!(patch_entries(&out, &ks).unwrap(), out, "applying twice changes nothing");
    }

    #[test]
    fn hash_global_follows_address_size() {
        let ptx = ".version 7.0\n.target sm_80\n.address_size 64\n\n.visible .entry k()\n{\n}\n";
        let out = hash_global(ptx, "0123456789abcdef").unwrap();
        assert!(out.starts_with(".version 7.0\n.target sm_80\n.address_size 64\n\n.visible .global .align 1 .b8 kernels_source_hash[16] = {48, 49, 50,"), "{out}");
        assert!(out.ends_with("101, 102};\n\n.visible .entry k()\n{\n}\n"), "{out}");
        assert_eq!(hash_global(&out, "0123456789abcdef").unwrap(), out, "applying twice changes nothing");
        assert!(hash_global(".version 7.0\n", "00").is_err());
    }

    #[test]
    fn arch_names() {
        for ok in ["sm_70", "sm_80", "sm_90", "sm_90a", "sm_100a"] {
            assert!(check_arch(ok).is_ok(), "{ok}");
        }
        for bad in ["", "sm80", "sm_", "sm_61", "compute_90", "sm_9x"] {
            assert!(check_arch(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn hash_changes_with_sources() {
        let dir = std::env::temp_dir().join(format!("ptx-hash-{}", std::process::id()));
        let src = dir.join("kernels/src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(src.join("lib.rs"), "a").unwrap();
        let h1 = source_hash(&dir).unwrap();
        assert_eq!(h1, source_hash(&dir).unwrap());
        std::fs::write(src.join("lib.rs"), "b").unwrap();
        assert_ne!(h1, source_hash(&dir).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! Compiles one kernel crate to PTX for one GPU architecture.
//!
//! A nested `cargo rustc` builds the crate as a fat-LTO `cdylib` for `nvptx64-nvidia-cuda`, with
//! `core` built from source (`-Zbuild-std=core`, because rustup has no prebuilt std for that
//! target) and the calling executable as the linker (see [`crate::linker`]). The result gets
//! what rustc cannot ask LLVM for ([`patch_entries`]), is checked against the crate's kernel
//! descriptors ([`check_entries`]), and is written to `<out_dir>/<lib>-<arch>.ptx` with a first
//! line `// kernels-source-hash: <hex>`, the hash of every source file the build read, so a host
//! can tell PTX built from other sources from its own.

use std::path::{Path, PathBuf};
use std::process::Command;

use kernel_std::{KernelInfo, ParamKind};

use crate::linker::LINKER_ENV;
use crate::ptxinfo;

/// Architectures built when none are named: `sm_80` runs on Ampere and newer; `sm_90a` unlocks
/// Hopper-only instructions (`wgmma`, bulk tensor copies) and runs on compute capability 9.0 only.
pub const DEFAULT_ARCHES: &[&str] = &["sm_80", "sm_90a"];

/// Prefix of the first PTX line carrying the kernel-source hash.
pub use kernel_std::launch::PTX_HASH_PREFIX as HASH_PREFIX;

/// The builder's own code that shapes the PTX, part of every source hash.
const BUILDER_SOURCES: [&str; 2] = [include_str!("linker.rs"), include_str!("ptx.rs")];

/// One PTX build.
#[derive(Debug, Clone)]
pub struct PtxBuild {
    /// The kernel crate (the folder of its `Cargo.toml`).
    pub crate_dir: PathBuf,
    /// Where the nested cargo keeps its artifacts (`<out_dir>/<arch>/`) and where
    /// `<lib>-<arch>.ptx` is written.
    pub out_dir: PathBuf,
    /// `sm_80`, `sm_90`, `sm_90a`, …
    pub arch: String,
    /// The crate's kernel descriptors (its `KERNELS` table, from `#[kernel]`): their launch
    /// bounds go into the PTX, and every `.entry` is checked against them. Empty: no check.
    pub kernels: &'static [KernelInfo],
    /// Print cargo's progress (a tool does; a build script stays quiet).
    pub verbose: bool,
}

/// What [`PtxBuild::compile`] produced, before its stamp: the hash covers the sources of every
/// architecture's build (an architecture may compile files others do not), so it is stamped
/// once all are built ([`PtxBuild::write_stamped`]).
#[derive(Debug, Clone)]
pub struct CompiledPtx {
    pub ptx: String,
    /// Every local source file the build read.
    pub sources: Vec<PathBuf>,
}

impl PtxBuild {
    /// The crate's library name (`[lib] name`, else the package name with `-` as `_`).
    pub fn lib_name(&self) -> Result<String, String> {
        lib_name(&self.crate_dir.join("Cargo.toml"))
    }

    /// The stable path of the PTX this build writes.
    pub fn ptx_path(&self) -> Result<PathBuf, String> {
        Ok(self.out_dir.join(format!("{}-{}.ptx", self.lib_name()?, self.arch)))
    }

    /// Compiles the crate (incrementally: the nested cargo rebuilds only what changed), patches
    /// and checks the PTX.
    pub fn compile(&self) -> Result<CompiledPtx, String> {
        check_arch(&self.arch)?;
        crate::toolchain::check()?;
        let lib = self.lib_name()?;
        let linker = self.install_linker()?;
        let target_dir = self.out_dir.join(&self.arch);
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut cmd = Command::new(cargo);
        clean_cargo_env(&mut cmd);
        cmd.current_dir(&self.crate_dir)
            .args(["rustc", "--release", "--lib", "--crate-type", "cdylib", "--manifest-path"])
            .arg(self.crate_dir.join("Cargo.toml"))
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
            return Err(format!("building {} for {} failed:\n{stderr}{hint}", self.crate_dir.display(), self.arch));
        }
        let release = target_dir.join("nvptx64-nvidia-cuda/release");
        let built = release.join(format!("{lib}.ptx"));
        let ptx = std::fs::read_to_string(&built).map_err(|e| format!("reading {}: {e} (did the linker run?)", built.display()))?;
        let ptx = patch_entries(&ptx, self.kernels)?;
        let failures = check_entries(&ptx, &self.arch, self.kernels);
        if !failures.is_empty() {
            return Err(format!("the PTX does not match the kernel descriptors:\n{}", failures.join("\n")));
        }
        let sources = sources_from_dep_info(&release.join(format!("{lib}.d")), &self.crate_dir)?;
        Ok(CompiledPtx { ptx, sources })
    }

    /// Stamps `ptx` with `hash` and writes it to [`PtxBuild::ptx_path`] (only if it changed, so
    /// dependents' mtimes stay put on no-op builds).
    pub fn write_stamped(&self, ptx: &str, hash: &str) -> Result<PathBuf, String> {
        let stamped = format!("{HASH_PREFIX}{hash}\n{}", hash_global(ptx, hash)?);
        let dest = self.ptx_path()?;
        if std::fs::read_to_string(&dest).ok().as_deref() != Some(stamped.as_str()) {
            std::fs::write(&dest, stamped).map_err(|e| format!("writing {}: {e}", dest.display()))?;
        }
        Ok(dest)
    }

    /// Copies the running executable (which calls [`crate::linker::run_if_requested`]) to a
    /// fixed path, so the nested build's `-Clinker=` flag, and with it cargo's cache, is the same
    /// whichever program (a tool, a build script) started the build.
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

/// Each kernel in `kernels` must be an entry of the PTX (unless its architecture is above this
/// one) with the parameter sizes and pointer-ness its Rust signature declares.
pub fn check_entries(ptx: &str, arch: &str, kernels: &[KernelInfo]) -> Vec<String> {
    let entries = ptxinfo::entries(ptx);
    let mut failures = Vec::new();
    for k in kernels {
        if !k.available_on(arch) {
            continue;
        }
        let Some(e) = entries.iter().find(|e| e.name == k.name) else {
            failures.push(format!("{arch}: kernel `{}` is missing from the PTX", k.name));
            continue;
        };
        let want: Vec<(u32, bool)> = k.params.iter().map(|p| (p.bytes(), p.is_pointer())).collect();
        let got: Vec<(u32, bool)> = e.params.iter().map(|p| (p.bytes, p.is_ptr)).collect();
        if want != got {
            failures.push(format!("{arch}: `{}` parameters (bytes, pointer) are {got:?} in PTX, {want:?} in Rust", k.name));
        }
    }
    // And the other way: a kernel left out of the table is never looked up, so the host cannot
    // launch it (eight new kernels once reached the GPU that way).
    for e in &entries {
        if !kernels.iter().any(|k| k.name == e.name) {
            failures.push(format!("{arch}: kernel `{}` is in the PTX but not in the kernel table", e.name));
        }
    }
    failures
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
pub fn patch_entries(ptx: &str, kernels: &[KernelInfo]) -> Result<String, String> {
    let mut lines: Vec<String> = ptx.lines().map(str::to_owned).collect();
    for k in kernels {
        let header = format!(".entry {}(", k.name);
        let Some(start) = lines.iter().position(|l| l.trim_start().starts_with(".visible .entry ") && l.contains(&header)) else {
            continue; // not built for this architecture
        };
        let close =
            (start..lines.len()).find(|&i| lines[i].trim_start().starts_with(')')).ok_or_else(|| format!("PTX entry {} has no closing parenthesis", k.name))?;
        for (i, kind) in k.params.iter().enumerate() {
            if *kind != ParamKind::TensorMap {
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
                "RUSTFLAGS" | "TARGET" | "HOST" | "PROFILE" | "OUT_DIR" | "OPT_LEVEL" | "DEBUG" | "NUM_JOBS" | "MAKEFLAGS" | "MFLAGS" | "CARGO_MAKEFLAGS"
            );
        if strip {
            cmd.env_remove(&key);
        }
    }
}

/// The library name of the crate whose manifest is `manifest`.
pub fn lib_name(manifest: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(manifest).map_err(|e| format!("reading {}: {e}", manifest.display()))?;
    let (mut section, mut package, mut lib) = (String::new(), None, None);
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.trim_matches(|c| c == '[' || c == ']').trim().to_string();
            continue;
        }
        let Some(value) = line.strip_prefix("name").map(str::trim_start).and_then(|l| l.strip_prefix('=')) else { continue };
        let value = value.trim().trim_matches('"').to_string();
        match section.as_str() {
            "package" => package = Some(value),
            "lib" => lib = Some(value),
            _ => {}
        }
    }
    lib.or(package).map(|n| n.replace('-', "_")).ok_or_else(|| format!("{}: no [package] name", manifest.display()))
}

/// The sources a build read, from cargo's dep-info file (every local source file, the kernel
/// crate's dependencies and proc macros included), with the manifests of their crates and the
/// crate's `rust-toolchain.toml`.
pub fn sources_from_dep_info(dep_info: &Path, crate_dir: &Path) -> Result<Vec<PathBuf>, String> {
    let text = std::fs::read_to_string(dep_info).map_err(|e| format!("reading {}: {e}", dep_info.display()))?;
    let first = text.lines().next().unwrap_or("");
    let deps = first.split_once(": ").map_or("", |(_, d)| d);
    let mut files: Vec<PathBuf> = deps.replace("\\ ", "\u{0}").split_whitespace().map(|p| PathBuf::from(p.replace('\u{0}', " "))).collect();
    let mut extra = Vec::new();
    for f in &files {
        if let Some(manifest) = f.ancestors().skip(1).map(|d| d.join("Cargo.toml")).find(|m| m.is_file()) {
            extra.push(manifest);
        }
    }
    extra.push(crate_dir.join("Cargo.toml"));
    if let Some(toolchain) = crate_dir.ancestors().map(|d| d.join("rust-toolchain.toml")).find(|t| t.is_file()) {
        extra.push(toolchain);
    }
    files.extend(extra);
    files.sort();
    files.dedup();
    Ok(files)
}

/// FNV-1a (64-bit) over the builder's own code and each file's path (relative to the files'
/// common folder, so the hash does not depend on where the checkout lies) and contents.
pub fn source_hash(files: &[PathBuf]) -> Result<String, String> {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for s in BUILDER_SOURCES {
        eat(s.as_bytes());
    }
    let root = common_ancestor(files);
    for f in files {
        let rel = f.strip_prefix(&root).unwrap_or(f);
        eat(rel.to_string_lossy().replace('\\', "/").as_bytes());
        eat(&std::fs::read(f).map_err(|e| format!("reading {}: {e}", f.display()))?);
    }
    Ok(format!("{h:016x}"))
}

fn common_ancestor(files: &[PathBuf]) -> PathBuf {
    let mut root = files.first().and_then(|f| f.parent()).map(Path::to_path_buf).unwrap_or_default();
    for f in files {
        while !f.starts_with(&root) {
            if !root.pop() {
                return PathBuf::new();
            }
        }
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_bounds_go_after_the_parameter_list() {
        use kernel_std::ParamKind::{Pointer, TensorMap};
        let ptx = ".visible .entry foo(\n\t.param .align 16 .b8 foo_param_0[128],\n\t.param .u64 foo_param_1\n)\n{\n\tret;\n}\n.visible .entry bar(\n)\n{\n}\n";
        let k = |name, params, max_threads, min_blocks| KernelInfo { name, params, min_arch: kernel_std::MinArch::Any, max_threads, min_blocks };
        let ks = [k("foo", &[TensorMap, Pointer], 256, 2), k("bar", &[], 0, 0), k("absent", &[], 128, 0)];
        let out = patch_entries(ptx, &ks).unwrap();
        assert!(out.contains(".param .align 64 .b8 foo_param_0[128],"), "{out}");
        assert!(out.contains("foo_param_1\n)\n.maxntid 256, 1, 1\n.minnctapersm 2\n{"), "{out}");
        assert!(out.contains(".entry bar(\n)\n{"), "{out}");
        assert_eq!(patch_entries(&out, &ks).unwrap(), out, "applying twice changes nothing");
    }

    #[test]
    fn entries_and_table_agree_both_ways() {
        let ptx = ".visible .entry foo(\n)\n{\n}\n.visible .entry extra(\n)\n{\n}\n";
        let k = |name, params| KernelInfo { name, params, min_arch: kernel_std::MinArch::Any, max_threads: 0, min_blocks: 0 };
        let failures = check_entries(ptx, "sm_80", &[k("foo", &[]), k("gone", &[])]);
        assert_eq!(failures.len(), 2, "{failures:?}");
        assert!(failures[0].contains("`gone` is missing from the PTX"), "{failures:?}");
        assert!(failures[1].contains("`extra` is in the PTX but not in the kernel table"), "{failures:?}");
        assert!(check_entries(ptx, "sm_80", &[k("foo", &[]), k("extra", &[])]).is_empty());
    }

    #[test]
    fn hash_global_follows_address_size() {
        let ptx = ".version 7.0\n.target sm_80\n.address_size 64\n\n.visible .entry k()\n{\n}\n";
        let out = hash_global(ptx, "0123456789abcdef").unwrap();
        assert!(
            out.starts_with(".version 7.0\n.target sm_80\n.address_size 64\n\n.visible .global .align 1 .b8 kernels_source_hash[16] = {48, 49, 50,"),
            "{out}"
        );
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
    fn hash_changes_with_sources_not_with_their_folder() {
        let dir = std::env::temp_dir().join(format!("ptx-hash-{}", std::process::id()));
        let (a, b) = (dir.join("a/kernels/src"), dir.join("b/kernels/src"));
        for d in [&a, &b] {
            std::fs::create_dir_all(d).unwrap();
            std::fs::write(d.join("lib.rs"), "x").unwrap();
            std::fs::write(d.join("k.rs"), "y").unwrap();
        }
        let files = |d: &Path| vec![d.join("k.rs"), d.join("lib.rs")];
        let h1 = source_hash(&files(&a)).unwrap();
        assert_eq!(h1, source_hash(&files(&b)).unwrap(), "the same sources elsewhere");
        std::fs::write(b.join("lib.rs"), "z").unwrap();
        assert_ne!(h1, source_hash(&files(&b)).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dep_info_and_lib_names() {
        let dir = std::env::temp_dir().join(format!("ptx-depinfo-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("k/src")).unwrap();
        std::fs::write(dir.join("k/Cargo.toml"), "[package]\nname = \"my-kernels\"\n[dependencies]\nname = \"x\"\n").unwrap();
        std::fs::write(dir.join("k/src/lib.rs"), "").unwrap();
        let d = dir.join("k.d");
        std::fs::write(&d, format!("/out/k.ptx: {}\n", dir.join("k/src/lib.rs").display())).unwrap();
        let files = sources_from_dep_info(&d, &dir.join("k")).unwrap();
        assert!(files.contains(&dir.join("k/src/lib.rs")) && files.contains(&dir.join("k/Cargo.toml")), "{files:?}");
        assert_eq!(lib_name(&dir.join("k/Cargo.toml")).unwrap(), "my_kernels");
        std::fs::write(dir.join("k/Cargo.toml"), "[package]\nname = \"a\"\n[lib]\nname = \"b_c\"\n").unwrap();
        assert_eq!(lib_name(&dir.join("k/Cargo.toml")).unwrap(), "b_c");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

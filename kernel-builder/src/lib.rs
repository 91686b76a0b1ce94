//! Compiles a kernel crate (written with `kernel-std`) to PTX for the architectures listed, and
//! to cubins where `ptxas` is available: the role Rust-CUDA's `cuda_builder` plays, on rustc's
//! own `nvptx64-nvidia-cuda` backend. Called from a build script:
//!
//! ```no_run
//! // In `fn main` of the build.rs of a crate that launches the kernels of its `kernels/` crate.
//! // The builder links the PTX with this very executable (see `linker`): first thing in main.
//! kernel_builder::linker::run_if_requested();
//! kernel_builder::Builder::new("kernels").build_for_cargo();
//! ```
//!
//! and then `include!(concat!(env!("OUT_DIR"), "/<lib>.images.rs"))` is the list of
//! `(arch, ptx, cubin)` byte slices the host runtime loads.
//!
//! * Incremental: the nested cargo rebuilds only what changed, `ptxas` runs only when a PTX
//!   changed ([`cubin`]), and a build script reruns only when a source the build read changed.
//! * Clear about what is missing: the `rust-src` and `llvm-tools` components ([`toolchain`]),
//!   and `ptxas` (then only PTX is built, with a warning, unless cubins are [`Cubins::Required`]).
//! * Each PTX is stamped with the hash of every source it was built from ([`ptx`]).
//!
//! Modules: [`ptx`] (one build), [`linker`] (the NVPTX linker: `llvm-link` → `opt` → `llc`),
//! [`cubin`] and [`ptxas`] (ahead-of-time SASS, resource reports), [`ptxinfo`] (reading PTX).

pub mod cubin;
pub mod linker;
pub mod ptx;
pub mod ptxas;
pub mod ptxinfo;
pub mod toolchain;

use std::path::{Path, PathBuf};

use kernel_std::KernelInfo;

pub use ptx::DEFAULT_ARCHES;

/// Whether cubins are built besides the PTX.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cubins {
    /// Where `ptxas` is found; without it, only PTX (and a warning).
    IfPtxasFound,
    /// Always: a missing or failing `ptxas` fails the build.
    Required,
    /// Never.
    Never,
}

/// A kernel crate's build for a list of architectures.
#[derive(Debug, Clone)]
pub struct Builder {
    crate_dir: PathBuf,
    arches: Vec<String>,
    kernels: &'static [KernelInfo],
    target_dir: Option<PathBuf>,
    cubins: Cubins,
    verbose: bool,
}

/// The kernels of one architecture.
#[derive(Debug, Clone)]
pub struct ArchModule {
    pub arch: String,
    pub ptx: PathBuf,
    /// `None` without ptxas (or with [`Cubins::Never`]).
    pub cubin: Option<PathBuf>,
}

/// What [`Builder::build`] produced.
#[derive(Debug, Clone)]
pub struct Built {
    pub lib: String,
    /// The sources' hash stamped into every PTX.
    pub hash: String,
    pub modules: Vec<ArchModule>,
    /// Every file the build read.
    pub sources: Vec<PathBuf>,
    /// What the build would like its caller to know (no ptxas, a failed cubin).
    pub warnings: Vec<String>,
}

impl Builder {
    /// The kernel crate in `crate_dir` (relative paths are taken from `CARGO_MANIFEST_DIR`
    /// when set, as in a build script), for [`DEFAULT_ARCHES`].
    pub fn new(crate_dir: impl AsRef<Path>) -> Builder {
        let dir = crate_dir.as_ref();
        let crate_dir = match std::env::var_os("CARGO_MANIFEST_DIR") {
            Some(m) if dir.is_relative() => PathBuf::from(m).join(dir),
            _ => dir.to_path_buf(),
        };
        let arches = DEFAULT_ARCHES.iter().map(|a| a.to_string()).collect();
        Builder { crate_dir, arches, kernels: &[], target_dir: None, cubins: Cubins::IfPtxasFound, verbose: false }
    }

    /// The architectures to build (`sm_80`, `sm_90a`, …), replacing the defaults.
    pub fn arches<S: AsRef<str>>(mut self, arches: &[S]) -> Builder {
        self.arches = arches.iter().map(|a| a.as_ref().to_string()).collect();
        self
    }

    /// The crate's kernel descriptors (its `KERNELS` table): launch bounds written into the PTX,
    /// each `.entry` checked against its Rust signature.
    pub fn kernels(mut self, kernels: &'static [KernelInfo]) -> Builder {
        self.kernels = kernels;
        self
    }

    /// Where the nested builds and the outputs go (default: `ptx/` in the calling build's target
    /// folder, else in the kernel crate's `target/`). Builds sharing one share `core`.
    pub fn target_dir(mut self, dir: impl Into<PathBuf>) -> Builder {
        self.target_dir = Some(dir.into());
        self
    }

    pub fn cubins(mut self, cubins: Cubins) -> Builder {
        self.cubins = cubins;
        self
    }

    /// Show the nested cargo's progress.
    pub fn verbose(mut self, verbose: bool) -> Builder {
        self.verbose = verbose;
        self
    }

    fn resolved_target_dir(&self) -> PathBuf {
        if let Some(d) = &self.target_dir {
            return d.clone();
        }
        // A build script's OUT_DIR is <target>/<profile>/build/<pkg>-<hash>/out.
        match std::env::var_os("OUT_DIR").map(PathBuf::from).as_deref().and_then(|o| o.ancestors().nth(4)) {
            Some(target) => target.join("ptx"),
            None => self.crate_dir.join("target/ptx"),
        }
    }

    /// Builds every architecture's PTX, stamps them with the hash of all their sources, then
    /// assembles the cubins side by side.
    pub fn build(&self) -> Result<Built, String> {
        let out_dir = self.resolved_target_dir();
        std::fs::create_dir_all(&out_dir).map_err(|e| format!("creating {}: {e}", out_dir.display()))?;
        let ptxas = match self.cubins {
            Cubins::Never => None,
            Cubins::IfPtxasFound => ptxas::find(),
            Cubins::Required => Some(ptxas::find().ok_or(ptxas::HOW_TO_GET)?),
        };
        let mut warnings = Vec::new();
        if ptxas.is_none() && self.cubins == Cubins::IfPtxasFound {
            warnings.push(format!("only PTX is built, so a program's first run on a GPU waits while the driver compiles it; {}", ptxas::HOW_TO_GET));
        }
        let builds: Vec<ptx::PtxBuild> = self
            .arches
            .iter()
            .map(|arch| ptx::PtxBuild {
                crate_dir: self.crate_dir.clone(),
                out_dir: out_dir.clone(),
                arch: arch.clone(),
                kernels: self.kernels,
                verbose: self.verbose,
            })
            .collect();
        let lib = ptx::lib_name(&self.crate_dir.join("Cargo.toml"))?;
        let compiled = builds.iter().map(ptx::PtxBuild::compile).collect::<Result<Vec<_>, String>>()?;
        let mut sources: Vec<PathBuf> = compiled.iter().flat_map(|c| c.sources.iter().cloned()).collect();
        sources.sort();
        sources.dedup();
        let hash = ptx::source_hash(&sources)?;
        let paths = builds.iter().zip(&compiled).map(|(b, c)| b.write_stamped(&c.ptx, &hash)).collect::<Result<Vec<_>, String>>()?;
        // ptxas takes seconds to minutes per module: one thread per architecture.
        let results: Vec<Option<Result<cubin::Cubin, String>>> = std::thread::scope(|scope| {
            let jobs: Vec<_> =
                self.arches.iter().zip(&paths).map(|(arch, path)| ptxas.as_ref().map(|p| scope.spawn(move || cubin::build(p, path, arch)))).collect();
            jobs.into_iter().map(|j| j.map(|h| h.join().unwrap_or_else(|_| Err("ptxas thread panicked".into())))).collect()
        });
        let mut modules = Vec::new();
        for ((arch, ptx), result) in self.arches.iter().zip(paths).zip(results) {
            let cubin = match result {
                None => None,
                Some(Ok(c)) => Some(c.path),
                Some(Err(e)) if self.cubins == Cubins::Required => return Err(e),
                Some(Err(e)) => {
                    warnings.push(format!("{arch}: ptxas failed, so only PTX is built for {arch}: {}", e.lines().next().unwrap_or("")));
                    None
                }
            };
            modules.push(ArchModule { arch: arch.clone(), ptx, cubin });
        }
        Ok(Built { lib, hash, modules, sources, warnings })
    }

    /// For a build script: builds, copies each `<lib>-<arch>.ptx` and `<lib>-<arch>.cubin`
    /// (empty where there is none) into `OUT_DIR`, writes `OUT_DIR/<lib>.images.rs` (an
    /// expression: `&[(arch, ptx bytes, cubin bytes)]`), and tells cargo to rerun when a source
    /// changes. A failure stops the build with its message.
    pub fn build_for_cargo(&self) -> Built {
        match self.try_build_for_cargo() {
            Ok(built) => built,
            Err(e) => {
                eprintln!("{e}");
                println!("cargo::error=building the kernels of {} failed: {}", self.crate_dir.display(), e.lines().next().unwrap_or(""));
                std::process::exit(1);
            }
        }
    }

    fn try_build_for_cargo(&self) -> Result<Built, String> {
        let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set: build_for_cargo runs in a build script")?);
        println!("cargo::rerun-if-changed={}", self.crate_dir.join("src").display());
        println!("cargo::rerun-if-changed={}", self.crate_dir.join("Cargo.toml").display());
        println!("cargo::rerun-if-env-changed=PTXAS");
        let built = self.build()?;
        for s in &built.sources {
            println!("cargo::rerun-if-changed={}", s.display());
        }
        for w in &built.warnings {
            println!("cargo::warning={w}");
        }
        let mut images = String::from("// Written by kernel-builder: (architecture, PTX, cubin or empty) per architecture.\n&[\n");
        for m in &built.modules {
            let ptx = out.join(format!("{}-{}.ptx", built.lib, m.arch));
            let cubin = out.join(format!("{}-{}.cubin", built.lib, m.arch));
            copy_if_changed(&std::fs::read(&m.ptx).map_err(|e| format!("reading {}: {e}", m.ptx.display()))?, &ptx)?;
            let bytes = match &m.cubin {
                Some(c) => std::fs::read(c).map_err(|e| format!("reading {}: {e}", c.display()))?,
                None => Vec::new(),
            };
            copy_if_changed(&bytes, &cubin)?;
            images.push_str(&format!(
                "    ({:?}, include_bytes!({:?}).as_slice(), include_bytes!({:?}).as_slice()),\n",
                m.arch,
                ptx.display().to_string(),
                cubin.display().to_string()
            ));
        }
        images.push_str("]\n");
        copy_if_changed(images.as_bytes(), &out.join(format!("{}.images.rs", built.lib)))?;
        Ok(built)
    }
}

/// Writes `data` to `to` unless it already holds exactly that (keeps mtimes on no-op builds).
fn copy_if_changed(data: &[u8], to: &Path) -> Result<(), String> {
    if std::fs::read(to).ok().as_deref() == Some(data) {
        return Ok(());
    }
    std::fs::write(to, data).map_err(|e| format!("writing {}: {e}", to.display()))
}

//! Finds the CUDA driver library for `cust`'s link. The workspace patches this crate in for the
//! crates.io `find_cuda_helper`, whose search looks only in `CUDA_LIBRARY_PATH` and under a CUDA
//! toolkit and panics otherwise, so a machine with just the NVIDIA driver could not build.
//!
//! Order:
//! 1. `CUDA_LIBRARY_PATH`, an override: each folder and its `lib64/`; nothing else is searched.
//! 2. Where the dynamic loader looks: `LD_LIBRARY_PATH`, `/etc/ld.so.conf` and what it includes,
//!    the multiarch and default folders (`/usr/lib/x86_64-linux-gnu`, `/usr/lib64`, …), and
//!    WSL's `/usr/lib/wsl/lib`.
//! 3. A CUDA toolkit (`CUDA_PATH`, `CUDA_ROOT`, `CUDA_TOOLKIT_ROOT_DIR`, `/usr/local/cuda*`,
//!    `/opt/cuda`), whose `stubs/` hold a link-only `libcuda.so`.
//!
//! In each folder `libcuda.so` is taken, else `libcuda.so.1` (a driver without the development
//! link). Either is linked through a `libcuda.so` symlink in `OUT_DIR`, so no system folder joins
//! the linker's search path. The binaries need `libcuda.so.1` at run time: the driver's.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

const NAMES: [&str; 2] = ["libcuda.so", "libcuda.so.1"];

/// Where to look. [`Search::from_env`] describes this machine; tests give a fake `root`.
#[derive(Debug, Clone, Default)]
pub struct Search {
    /// Prefix of every system path: `/`, or a fake root in tests.
    pub root: PathBuf,
    /// `CUDA_LIBRARY_PATH` (colon-separated).
    pub cuda_library_path: Option<OsString>,
    /// `LD_LIBRARY_PATH` (colon-separated).
    pub ld_library_path: Option<OsString>,
    /// `CUDA_PATH`, `CUDA_ROOT`, `CUDA_TOOLKIT_ROOT_DIR`, where set.
    pub toolkit_env: Vec<PathBuf>,
    /// The target's CPU (`x86_64`, `aarch64`), naming the multiarch and toolkit folders.
    pub cpu: String,
}

impl Search {
    /// This machine, for the target cargo builds for.
    pub fn from_env() -> Search {
        let target = std::env::var("TARGET").unwrap_or_default();
        let cpu = target.split('-').next().filter(|c| !c.is_empty()).unwrap_or(std::env::consts::ARCH).to_string();
        Search {
            root: PathBuf::from("/"),
            cuda_library_path: std::env::var_os("CUDA_LIBRARY_PATH").filter(|v| !v.is_empty()),
            ld_library_path: std::env::var_os("LD_LIBRARY_PATH").filter(|v| !v.is_empty()),
            toolkit_env: ["CUDA_PATH", "CUDA_ROOT", "CUDA_TOOLKIT_ROOT_DIR"].iter().filter_map(std::env::var_os).map(PathBuf::from).collect(),
            cpu,
        }
    }

    /// A system path under [`Search::root`].
    fn sys(&self, path: &str) -> PathBuf {
        self.root.join(path.trim_start_matches('/'))
    }

    /// The folders to search, in order (see the crate docs).
    pub fn folders(&self) -> Vec<PathBuf> {
        if let Some(over) = &self.cuda_library_path {
            return std::env::split_paths(over).flat_map(|d| [d.clone(), d.join("lib64")]).collect();
        }
        let mut dirs: Vec<PathBuf> = Vec::new();
        if let Some(ld) = &self.ld_library_path {
            dirs.extend(std::env::split_paths(ld).filter(|d| !d.as_os_str().is_empty()));
        }
        ld_so_conf(self, &self.sys("/etc/ld.so.conf"), &mut dirs, 0);
        let multiarch = format!("{}-linux-gnu", self.cpu);
        for d in [
            format!("/usr/lib/{multiarch}"),
            format!("/lib/{multiarch}"),
            "/usr/lib64".into(),
            "/lib64".into(),
            "/usr/lib".into(),
            "/lib".into(),
            "/usr/lib/wsl/lib".into(),
        ] {
            dirs.push(self.sys(&d));
        }
        let toolkit_target = if self.cpu == "aarch64" { "sbsa-linux" } else { "x86_64-linux" };
        let mut toolkits = self.toolkit_env.clone();
        toolkits.extend(["/usr/local/cuda", "/opt/cuda"].map(|d| self.sys(d)));
        if let Ok(rd) = std::fs::read_dir(self.sys("/usr/local")) {
            let mut versioned: Vec<PathBuf> = rd.flatten().filter(|e| e.file_name().to_string_lossy().starts_with("cuda-")).map(|e| e.path()).collect();
            versioned.sort();
            toolkits.extend(versioned.into_iter().rev()); // newest first
        }
        for t in toolkits {
            for sub in ["lib64".to_string(), format!("targets/{toolkit_target}/lib")] {
                dirs.push(t.join(&sub));
                dirs.push(t.join(sub).join("stubs"));
            }
        }
        let mut seen = std::collections::HashSet::new();
        dirs.retain(|d| seen.insert(d.clone()));
        dirs
    }

    /// The driver library to link, or an error that lists what was searched.
    pub fn find(&self) -> Result<PathBuf, String> {
        let folders = self.folders();
        for dir in &folders {
            for name in NAMES {
                let lib = dir.join(name);
                if lib.is_file() {
                    return Ok(lib);
                }
            }
        }
        let listed = folders.iter().map(|d| format!("  {}", d.display())).collect::<Vec<_>>().join("\n");
        Err(match &self.cuda_library_path {
            Some(v) => format!("CUDA_LIBRARY_PATH={} holds no libcuda.so or libcuda.so.1; searched:\n{listed}", v.to_string_lossy()),
            None => format!(
                "the CUDA driver library (libcuda.so or libcuda.so.1) was not found; searched:\n{listed}\n\
                 Install the NVIDIA driver, or set CUDA_LIBRARY_PATH to the folder that holds it. On a machine \
                 without a GPU, `.ci/fetch-libcuda DIR` unpacks one to link against (see the README)."
            ),
        })
    }
}

/// Appends the folders listed in an `ld.so.conf`-style file, following `include` lines.
fn ld_so_conf(search: &Search, file: &Path, out: &mut Vec<PathBuf>, depth: u32) {
    let Ok(text) = std::fs::read_to_string(file) else { return };
    if depth > 8 {
        return; // an include cycle
    }
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(pattern) = line.strip_prefix("include").filter(|r| r.starts_with([' ', '\t'])) {
            for pat in pattern.split_whitespace() {
                // Relative patterns are relative to the including file's folder.
                let pat = if pat.starts_with('/') { search.sys(pat) } else { file.parent().unwrap_or(Path::new("/")).join(pat) };
                for f in glob_last(&pat) {
                    ld_so_conf(search, &f, out, depth + 1);
                }
            }
        } else if !line.is_empty() && !line.starts_with("hwcap") {
            out.extend(line.split([' ', '\t', ':', ',']).filter(|d| d.starts_with('/')).map(|d| search.sys(d)));
        }
    }
}

/// The files matching `pattern`, where only the last component may hold `*` (as in
/// `/etc/ld.so.conf.d/*.conf`), sorted like the loader reads them.
fn glob_last(pattern: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(name)) = (pattern.parent(), pattern.file_name().map(|n| n.to_string_lossy().into_owned())) else {
        return Vec::new();
    };
    if !name.contains('*') {
        return if pattern.is_file() { vec![pattern.to_path_buf()] } else { Vec::new() };
    }
    let parts: Vec<&str> = name.split('*').collect();
    let matches = |s: &str| {
        let (first, last) = (parts[0], parts[parts.len() - 1]);
        if !s.starts_with(first) || !s.ends_with(last) || s.len() < first.len() + last.len() {
            return false;
        }
        let mut rest = &s[first.len()..s.len() - last.len()];
        for p in &parts[1..parts.len() - 1] {
            match rest.find(p) {
                Some(i) => rest = &rest[i + p.len()..],
                None => return false,
            }
        }
        true
    };
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|rd| rd.flatten().filter(|e| matches(&e.file_name().to_string_lossy())).map(|e| e.path()).collect()).unwrap_or_default();
    files.sort();
    files
}

/// Makes `<dir>/libcuda.so` a symlink to `lib`, so `-lcuda` finds it whatever its name.
pub fn link_folder(lib: &Path, dir: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let link = dir.join("libcuda.so");
    match std::fs::remove_file(&link) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let target = std::fs::canonicalize(lib)?;
    #[cfg(unix)]
    std::os::unix::fs::symlink(&target, &link)?;
    #[cfg(not(unix))]
    std::fs::copy(&target, &link)?;
    Ok(dir.to_path_buf())
}

/// What `cust_raw`'s and `cust`'s build scripts call: finds the driver library and tells cargo to
/// link it, or stops the build with the places searched.
pub fn include_cuda() {
    if std::env::var_os("DOCS_RS").is_some() || cfg!(doc) {
        return;
    }
    for var in ["CUDA_LIBRARY_PATH", "CUDA_PATH", "CUDA_ROOT", "CUDA_TOOLKIT_ROOT_DIR"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let lib = match Search::from_env().find() {
        Ok(lib) => lib,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_else(|| ".".into())).join("libcuda-link");
    let dir = link_folder(&lib, &out).unwrap_or_else(|e| {
        eprintln!("error: linking {} into {}: {e}", lib.display(), out.display());
        std::process::exit(1);
    });
    // A driver upgrade replaces the file: search again.
    println!("cargo:rerun-if-changed={}", lib.display());
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=dylib=cuda");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh empty folder standing in for `/`.
    struct FakeRoot(PathBuf);

    impl FakeRoot {
        fn new(tag: &str) -> FakeRoot {
            let dir = std::env::temp_dir().join(format!("fake-root-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            FakeRoot(dir)
        }
        fn file(&self, path: &str, text: &str) -> PathBuf {
            let p = self.0.join(path.trim_start_matches('/'));
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, text).unwrap();
            p
        }
        fn search(&self) -> Search {
            Search { root: self.0.clone(), cpu: "x86_64".into(), ..Search::default() }
        }
    }

    impl Drop for FakeRoot {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn driver_only_debian_layout() {
        let r = FakeRoot::new("debian");
        let lib = r.file("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "elf");
        assert_eq!(r.search().find().unwrap(), lib);
    }

    #[test]
    fn driver_only_rhel_and_wsl_layouts() {
        let r = FakeRoot::new("rhel");
        let lib = r.file("/usr/lib64/libcuda.so.1", "elf");
        assert_eq!(r.search().find().unwrap(), lib);
        let w = FakeRoot::new("wsl");
        let lib = w.file("/usr/lib/wsl/lib/libcuda.so.1", "elf");
        assert_eq!(w.search().find().unwrap(), lib);
    }

    #[test]
    fn ld_so_conf_includes_are_followed() {
        let r = FakeRoot::new("ldconf");
        r.file("/etc/ld.so.conf", "# comment\ninclude /etc/ld.so.conf.d/*.conf\n");
        r.file("/etc/ld.so.conf.d/other.txt", "/wrong\n");
        r.file("/etc/ld.so.conf.d/nvidia.conf", "/opt/nvidia/lib  # driver\n");
        r.file("/wrong/libcuda.so.1", "elf");
        let lib = r.file("/opt/nvidia/lib/libcuda.so.1", "elf");
        r.file("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "elf"); // found later in the order
        assert_eq!(r.search().find().unwrap(), lib);
    }

    #[test]
    fn loader_paths_come_before_the_toolkit_stub() {
        let r = FakeRoot::new("stub");
        r.file("/usr/local/cuda/lib64/stubs/libcuda.so", "stub");
        let driver = r.file("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "elf");
        assert_eq!(r.search().find().unwrap(), driver);
        std::fs::remove_file(&driver).unwrap();
        assert_eq!(r.search().find().unwrap(), r.0.join("usr/local/cuda/lib64/stubs/libcuda.so"));
        // LD_LIBRARY_PATH comes first of all.
        let own = r.file("/home/me/drv/libcuda.so.1", "elf");
        let s = Search { ld_library_path: Some(r.0.join("home/me/drv").into()), ..r.search() };
        assert_eq!(s.find().unwrap(), own);
    }

    #[test]
    fn cuda_library_path_overrides_and_is_strict() {
        let r = FakeRoot::new("override");
        r.file("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "elf");
        let mine = r.file("/drv/lib64/libcuda.so", "elf");
        let s = Search { cuda_library_path: Some(r.0.join("drv").into()), ..r.search() };
        assert_eq!(s.find().unwrap(), mine);
        let empty = Search { cuda_library_path: Some(r.0.join("nothing").into()), ..r.search() };
        let e = empty.find().unwrap_err();
        assert!(e.starts_with("CUDA_LIBRARY_PATH=") && e.contains("nothing/lib64"), "{e}");
    }

    #[test]
    fn nothing_found_says_where_it_looked_and_what_to_do() {
        let r = FakeRoot::new("empty");
        let e = r.search().find().unwrap_err();
        for want in ["usr/lib/x86_64-linux-gnu", "usr/lib64", "usr/lib/wsl/lib", "usr/local/cuda/lib64/stubs", "CUDA_LIBRARY_PATH", "fetch-libcuda"] {
            assert!(e.contains(want), "missing {want:?} in: {e}");
        }
    }

    #[test]
    fn links_libcuda_so_1_as_libcuda_so() {
        let r = FakeRoot::new("link");
        let lib = r.file("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "driver bytes");
        let dir = link_folder(&lib, &r.0.join("out")).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("libcuda.so")).unwrap(), "driver bytes");
        // Again (a rerun of the build script) replaces the link.
        let other = r.file("/usr/lib64/libcuda.so.1", "other driver");
        link_folder(&other, &r.0.join("out")).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("libcuda.so")).unwrap(), "other driver");
    }

    #[test]
    fn glob_matches_only_the_pattern() {
        let r = FakeRoot::new("glob");
        let a = r.file("/d/a.conf", "");
        let b = r.file("/d/b.conf", "");
        r.file("/d/a.conf.bak", "");
        assert_eq!(glob_last(&r.0.join("d/*.conf")), [a, b]);
    }
}

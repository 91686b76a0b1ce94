//! Ahead-of-time SASS: each PTX assembled by `ptxas` into a cubin, which the host embeds beside
//! the PTX so that a program's first kernel does not wait for the driver to JIT-compile the whole
//! module (42 s for the `sm_90a` PTX on an H100 with an empty driver cache).
//!
//! `ptxas` takes about as long here, so a cubin is kept beside its PTX with a key (the PTX's
//! bytes, the SASS architecture, the flags, `ptxas --version`) and rebuilt only when the key
//! changes. `cargo xtask validate-ptx` and the host's build script share these files: whichever
//! runs first pays for `ptxas`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The flags every cubin is built with (`-v` is added for the resource report).
pub const FLAGS: &[&str] = &["-O3"];

/// A built (or reused) cubin.
#[derive(Debug, Clone)]
pub struct Cubin {
    pub path: PathBuf,
    /// `ptxas -v` output: per-kernel registers, shared memory, spills ([`crate::ptxas::parse_report`]).
    pub log: String,
    /// Whether `ptxas` ran (false: the cached cubin matched its key).
    pub rebuilt: bool,
}

/// Where the cubin of `ptx` for `sass_arch` lives: `kernels-sm_80.cubin` beside
/// `kernels-sm_80.ptx`, or `kernels-sm_80.sm_90.cubin` for SASS of another architecture.
pub fn cubin_path(ptx: &Path, sass_arch: &str) -> PathBuf {
    let stem = ptx.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = if stem.ends_with(&format!("-{sass_arch}")) { format!("{stem}.cubin") } else { format!("{stem}.{sass_arch}.cubin") };
    ptx.with_file_name(name)
}

/// FNV-1a, 64-bit.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// `ptxas --version`, which goes into every key: another ptxas may emit other SASS.
pub fn ptxas_version(ptxas: &Path) -> Result<String, String> {
    let out = Command::new(ptxas).arg("--version").output().map_err(|e| format!("running {} --version: {e}", ptxas.display()))?;
    if !out.status.success() {
        return Err(format!("{} --version failed: {}", ptxas.display(), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.contains("release") || l.starts_with("Build")).collect::<Vec<_>>().join("; "))
}

/// The key a cubin is rebuilt on.
pub fn key(ptx: &[u8], sass_arch: &str, ptxas_version: &str) -> String {
    format!("ptx-fnv1a {:016x}\narch {sass_arch}\nflags {}\nptxas {ptxas_version}\n", fnv1a(ptx), FLAGS.join(" "))
}

/// Assembles `ptx` for `sass_arch` unless the cubin beside it already has the same key.
pub fn build(ptxas: &Path, ptx: &Path, sass_arch: &str) -> Result<Cubin, String> {
    crate::ptx::check_arch(sass_arch)?;
    let text = std::fs::read(ptx).map_err(|e| format!("reading {}: {e}", ptx.display()))?;
    let key = key(&text, sass_arch, &ptxas_version(ptxas)?);
    let path = cubin_path(ptx, sass_arch);
    let (key_path, log_path) = (path.with_extension("cubin.key"), path.with_extension("cubin.log"));
    if std::fs::read_to_string(&key_path).ok().as_deref() == Some(key.as_str())
        && path.is_file()
        && let Ok(log) = std::fs::read_to_string(&log_path)
    {
        return Ok(Cubin { path, log, rebuilt: false });
    }
    // The key goes first and is written last, so an interrupted build is never reused; the
    // cubin is renamed into place, so a reader never sees half of one.
    let _ = std::fs::remove_file(&key_path);
    let tmp = path.with_extension(format!("cubin.{}.tmp", std::process::id()));
    let out = Command::new(ptxas)
        .arg("-v")
        .args(FLAGS)
        .arg(format!("-arch={sass_arch}"))
        .arg(ptx)
        .arg("-o")
        .arg(&tmp)
        .output()
        .map_err(|e| format!("running {}: {e}", ptxas.display()))?;
    let log = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("ptxas -arch={sass_arch} rejected {}:\n{log}", ptx.display()));
    }
    let write = |p: &Path, data: &str| std::fs::write(p, data).map_err(|e| format!("writing {}: {e}", p.display()));
    std::fs::rename(&tmp, &path).map_err(|e| format!("renaming {} to {}: {e}", tmp.display(), path.display()))?;
    write(&log_path, &log)?;
    write(&key_path, &key)?;
    Ok(Cubin { path, log, rebuilt: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubin_names() {
        let ptx = Path::new("/t/ptx/kernels-sm_80.ptx");
        assert_eq!(cubin_path(ptx, "sm_80"), Path::new("/t/ptx/kernels-sm_80.cubin"));
        assert_eq!(cubin_path(ptx, "sm_90"), Path::new("/t/ptx/kernels-sm_80.sm_90.cubin"));
        assert_eq!(cubin_path(Path::new("kernels-sm_90a.ptx"), "sm_90a"), Path::new("kernels-sm_90a.cubin"));
    }

    #[test]
    fn key_changes_with_every_input() {
        let base = key(b"ptx", "sm_80", "13.5");
        assert_eq!(base, key(b"ptx", "sm_80", "13.5"));
        for other in [key(b"ptx2", "sm_80", "13.5"), key(b"ptx", "sm_90a", "13.5"), key(b"ptx", "sm_80", "13.6")] {
            assert_ne!(base, other);
        }
    }

    /// A fake `ptxas` (a shell script) that counts its runs: the second build reuses the cubin,
    /// a changed PTX rebuilds it, and a failure leaves no cubin that a later build could reuse.
    #[cfg(unix)]
    #[test]
    fn rebuilds_only_when_the_key_changes() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("cubin-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fake = dir.join("ptxas");
        let script = format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 0.0'; exit 0; fi\n\
             echo run >> {runs}\ngrep -q bad \"$4\" && {{ echo 'ptxas fatal: bad' >&2; exit 1; }}\n\
             echo \"ptxas info    : Compiling entry function 'k' for '$3'\" >&2\ncp \"$4\" \"$6\"\n",
            runs = dir.join("runs").display()
        );
        std::fs::write(&fake, script).unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let ptx = dir.join("kernels-sm_80.ptx");
        let runs = || std::fs::read_to_string(dir.join("runs")).map(|s| s.lines().count()).unwrap_or(0);

        std::fs::write(&ptx, "one").unwrap();
        let first = build(&fake, &ptx, "sm_80").unwrap();
        assert!(first.rebuilt && first.log.contains("'k'"), "{first:?}");
        assert_eq!(std::fs::read_to_string(&first.path).unwrap(), "one");
        let again = build(&fake, &ptx, "sm_80").unwrap();
        assert!(!again.rebuilt && again.log == first.log && runs() == 1);

        std::fs::write(&ptx, "two").unwrap();
        assert!(build(&fake, &ptx, "sm_80").unwrap().rebuilt);
        assert_eq!(std::fs::read_to_string(&first.path).unwrap(), "two");

        std::fs::write(&ptx, "bad").unwrap();
        let e = build(&fake, &ptx, "sm_80").unwrap_err();
        assert!(e.contains("ptxas fatal: bad"), "{e}");
        assert!(!first.path.with_extension("cubin.key").exists(), "a failed build leaves no key");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

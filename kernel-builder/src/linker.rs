//! A stand-in for rustc's `llvm-bitcode-linker`, which rustup cannot install for NVPTX here.
//!
//! rustc links an `nvptx64-nvidia-cuda` cdylib by calling a linker of the "llbc" flavour with:
//! `--export-symbol NAME`… (the kernels), bitcode objects, rlibs, `--target`, `--target-cpu`,
//! `-o OUT.ptx`, `-O<n>`. The builder passes its own executable as `-C linker=` and sets
//! [`LINKER_ENV`]; the program calls [`run_if_requested`] first thing in `main`, which does the
//! link and exits. Linking is: `llvm-link` all bitcode, `opt` internalizing everything but the
//! exported kernels then optimizing, `llc` to PTX.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Set (to any value) by the builder in the environment of the nested cargo; its presence makes
/// [`run_if_requested`] act as the linker.
pub const LINKER_ENV: &str = "KERNELS_PTX_LINKER";

/// If this process was started by rustc as the NVPTX linker, link and exit; otherwise return.
pub fn run_if_requested() {
    if std::env::var_os(LINKER_ENV).is_none() {
        return;
    }
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match link(&args) {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            eprintln!("kernels PTX linker: {e}");
            std::process::exit(1);
        }
    }
}

#[derive(Debug, Default)]
struct LinkArgs {
    exports: Vec<String>,
    inputs: Vec<PathBuf>,
    target_cpu: Option<String>,
    output: Option<PathBuf>,
}

fn parse(args: &[OsString]) -> Result<LinkArgs, String> {
    let mut out = LinkArgs::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let s = a.to_string_lossy();
        let mut value = |flag: &str| it.next().map(|v| v.to_string_lossy().into_owned()).ok_or_else(|| format!("{flag} needs a value"));
        match s.as_ref() {
            "--export-symbol" => out.exports.push(value("--export-symbol")?),
            "--target-cpu" => out.target_cpu = Some(value("--target-cpu")?),
            "-o" => out.output = Some(PathBuf::from(value("-o")?)),
            "--target" | "-L" | "--bitcode-linker" | "--linker-flavor" => {
                value(&s)?;
            }
            _ if s.starts_with('-') => {} // -O3, --debug, … : the optimization level is fixed below
            _ => out.inputs.push(PathBuf::from(a)),
        }
    }
    if out.output.is_none() {
        return Err("no -o output given".into());
    }
    Ok(out)
}

/// Directory holding rustup's `llvm-tools` (`llvm-link`, `opt`, `llc`, `llvm-ar`).
pub fn llvm_tools_dir() -> Result<PathBuf, String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = capture(Command::new(&rustc).args(["--print", "sysroot"]))?;
    let vv = capture(Command::new(&rustc).arg("-vV"))?;
    let host = vv.lines().find_map(|l| l.strip_prefix("host: ")).ok_or("rustc -vV printed no host triple")?;
    let dir = Path::new(sysroot.trim()).join("lib/rustlib").join(host.trim()).join("bin");
    if !dir.join("llc").exists() {
        return Err(format!(
            "llc not found in {}: install the llvm-tools component \
             (`rustup component add llvm-tools`; rust-toolchain.toml lists it)",
            dir.display()
        ));
    }
    Ok(dir)
}

fn capture(cmd: &mut Command) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("running {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn run(cmd: &mut Command) -> Result<(), String> {
    capture(cmd).map(|_| ())
}

fn is_bitcode(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|b| b.starts_with(b"BC\xC0\xDE"))
}

fn link(args: &[OsString]) -> Result<(), String> {
    let a = parse(args)?;
    let out = a.output.as_ref().expect("checked in parse");
    let tools = llvm_tools_dir()?;
    let work = out.with_extension("link");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| format!("creating {}: {e}", work.display()))?;

    // Objects go in whole; rlib members (compiler_builtins) only where something needs them.
    let mut objects = Vec::new();
    let mut archive_members = Vec::new();
    for (i, input) in a.inputs.iter().enumerate() {
        if input.extension().is_some_and(|e| e == "rlib" || e == "a") {
            let dir = work.join(format!("ar{i}"));
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            run(Command::new(tools.join("llvm-ar")).arg("x").arg(input).current_dir(&dir))?;
            for entry in std::fs::read_dir(&dir).map_err(|e| e.to_string())? {
                let p = entry.map_err(|e| e.to_string())?.path();
                if is_bitcode(&p) {
                    archive_members.push(p);
                }
            }
        } else if is_bitcode(input) {
            objects.push(input.clone());
        }
    }
    if objects.is_empty() {
        return Err("no bitcode objects among the linker inputs".into());
    }
    let linked = work.join("linked.bc");
    let mut cmd = Command::new(tools.join("llvm-link"));
    cmd.args(&objects);
    if !archive_members.is_empty() {
        cmd.arg("--only-needed").args(&archive_members);
    }
    run(cmd.arg("-o").arg(&linked))?;

    let optimized = work.join("opt.bc");
    run(Command::new(tools.join("opt"))
        .arg(format!("--internalize-public-api-list={}", a.exports.join(",")))
        .arg("--passes=internalize,globaldce,default<O3>")
        .arg(&linked)
        .arg("-o")
        .arg(&optimized))?;

    let cpu = a.target_cpu.as_deref().unwrap_or("sm_80");
    run(Command::new(tools.join("llc")).args(["-mtriple=nvptx64-nvidia-cuda", &format!("-mcpu={cpu}"), "-O3"]).arg(&optimized).arg("-o").arg(out))?;
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rustc_llbc_arguments() {
        let args: Vec<OsString> = [
            "--export-symbol",
            "vec_add_f32",
            "--export-symbol",
            "sigmoid_f32",
            "a.rcgu.o",
            "libcompiler_builtins.rlib",
            "-L",
            "/x",
            "--target",
            "nvptx64-nvidia-cuda",
            "--target-cpu",
            "sm_90a",
            "-o",
            "out.ptx",
            "-O3",
            "--debug",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let a = parse(&args).unwrap();
        assert_eq!(a.exports, ["vec_add_f32", "sigmoid_f32"]);
        assert_eq!(a.inputs, [PathBuf::from("a.rcgu.o"), PathBuf::from("libcompiler_builtins.rlib")]);
        assert_eq!(a.target_cpu.as_deref(), Some("sm_90a"));
        assert_eq!(a.output, Some(PathBuf::from("out.ptx")));
    }

    #[test]
    fn rejects_missing_output() {
        let args = [OsString::from("a.o")];
        assert!(parse(&args).unwrap_err().contains("-o"));
    }
}

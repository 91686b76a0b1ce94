//! `cargo xtask <command>`: build and tooling tasks for the workspace.
//!
//! ```text
//! cargo xtask build-ptx [--arch sm_80] [--arch sm_90a] [--validate]
//! cargo xtask validate-ptx [--arch …]
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use xtask::ptx::DEFAULT_ARCHES;
use xtask::{cubin, ptxas, ptxinfo};

const USAGE: &str = "usage: cargo xtask <command> [options]

commands:
  build-ptx      compile kernels/ to target/ptx/kernels-<arch>.ptx (default archs: sm_80, sm_90a)
  validate-ptx   build, then assemble each PTX with ptxas (target/ptx/*.cubin, reused by the
                 host build), check every kernel's parameter list against kernels::KERNELS,
                 and print registers / shared memory / spills

options:
  --arch <sm_XY[a]>  an architecture to build (repeatable)
  --validate         with build-ptx: validate afterwards
";

fn main() -> ExitCode {
    xtask::linker::run_if_requested();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let Some((cmd, rest)) = args.split_first() else {
        eprint!("{USAGE}");
        return Err("no command given".into());
    };
    let mut arches = Vec::new();
    let mut validate = false;
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--arch" => arches.push(it.next().ok_or("--arch needs a value")?.clone()),
            "--validate" => validate = true,
            "-h" | "--help" => {
                print!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown option `{other}`\n{USAGE}")),
        }
    }
    if arches.is_empty() {
        arches = DEFAULT_ARCHES.iter().map(|s| s.to_string()).collect();
    }
    match cmd.as_str() {
        "build-ptx" => {
            let built = build_all(&arches)?;
            if validate {
                validate_all(&built)?;
            }
            Ok(())
        }
        "validate-ptx" => validate_all(&build_all(&arches)?),
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n{USAGE}")),
    }
}

fn workspace() -> PathBuf {
    xtask::workspace_from_manifest_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// Builds the PTX only: the cubins come from `validate-ptx` (for more SASS architectures) or the
/// host's build script.
fn build_all(arches: &[String]) -> Result<Vec<(String, PathBuf)>, String> {
    let started = std::time::Instant::now();
    let built = xtask::kernels_builder(&workspace()).arches(arches).cubins(kernel_builder::Cubins::Never).verbose(true).build()?;
    for m in &built.modules {
        let ptx = std::fs::read_to_string(&m.ptx).map_err(|e| e.to_string())?;
        println!("built {} ({} kernels, {:.1} KiB)", m.ptx.display(), ptxinfo::entries(&ptx).len(), ptx.len() as f64 / 1024.0);
    }
    println!("in {:.1}s, source hash {}", started.elapsed().as_secs_f64(), built.hash);
    Ok(built.modules.into_iter().map(|m| (m.arch, m.ptx)).collect())
}

/// The SASS architectures each PTX is assembled for: its own, plus sm_90 for `sm_80` PTX (the
/// driver JIT-compiles it there on Hopper).
fn sass_arches(ptx_arch: &str) -> Vec<String> {
    match ptx_arch {
        "sm_80" => vec!["sm_80".into(), "sm_90".into()],
        a => vec![a.to_string()],
    }
}

fn validate_all(built: &[(String, PathBuf)]) -> Result<(), String> {
    let ptxas = ptxas::find().ok_or(ptxas::HOW_TO_GET)?;
    let mut failures = Vec::new();
    for (arch, path) in built {
        let ptx = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        failures.extend(check_signatures(&ptx, arch));
    }
    // ptxas takes tens of seconds per module: run them side by side.
    let jobs: Vec<(&PathBuf, String)> = built.iter().flat_map(|(arch, path)| sass_arches(arch).into_iter().map(move |s| (path, s))).collect();
    let results: Vec<(Result<cubin::Cubin, String>, f64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .iter()
            .map(|(path, sass)| {
                let ptxas = &ptxas;
                scope.spawn(move || {
                    let started = std::time::Instant::now();
                    (cubin::build(ptxas, path, sass), started.elapsed().as_secs_f64())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| (Err("ptxas thread panicked".into()), 0.0))).collect()
    });
    for ((path, sass), (cubin, seconds)) in jobs.iter().zip(results) {
        let cubin = cubin?;
        let report = ptxas::parse_report(&cubin.log);
        let how = if cubin.rebuilt { format!("assembled in {seconds:.1}s") } else { "cached".into() };
        println!("\nptxas -arch={sass} {}: OK ({how}: {})", path.display(), cubin.path.display());
        println!("  {:<34} {:>5} {:>8} {:>6} {:>7} {:>7}", "kernel", "regs", "smem B", "stack", "spill-S", "spill-L");
        for k in &report {
            println!("  {:<34} {:>5} {:>8} {:>6} {:>7} {:>7}", k.name, k.registers, k.shared_bytes, k.stack_bytes, k.spill_stores, k.spill_loads);
            // A GEMM kernel whose register tile lands in local memory (a stack frame: an
            // array indexed at run time, or spills) runs several times slower: a split-K
            // reduction loop that did so made every GEMM 25× slower on an H100.
            if k.name.starts_with("gemm_") && (k.stack_bytes > 0 || k.spill_stores > 0 || k.spill_loads > 0) {
                failures.push(format!(
                    "{sass}: `{}` uses local memory ({} bytes of stack, {} / {} bytes spilled)",
                    k.name, k.stack_bytes, k.spill_stores, k.spill_loads
                ));
            }
        }
    }
    if failures.is_empty() {
        println!("\nevery kernel's PTX parameter list matches kernels::KERNELS; no GEMM kernel uses local memory");
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// Each kernel in the table must be an entry of the PTX with the parameter list its Rust
/// signature declares (the builder checks this too; here it is reported with the resources).
fn check_signatures(ptx: &str, arch: &str) -> Vec<String> {
    xtask::ptx::check_entries(ptx, arch, kernels::KERNELS)
}

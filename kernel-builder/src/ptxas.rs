//! Finding and running NVIDIA's `ptxas`: it assembles PTX to SASS on a CPU-only machine, which
//! both validates the PTX and reports each kernel's registers, shared memory and spills.

use std::path::{Path, PathBuf};
use std::process::Command;

/// How to get `ptxas` where none is found.
pub const HOW_TO_GET: &str = "ptxas not found: install it with `python3 -m pip install nvidia-cuda-nvcc` \
     (it ships ptxas for x86-64 and aarch64 Linux), or install the CUDA toolkit, or set PTXAS=/path/to/ptxas";

/// Resource use of one kernel as ptxas reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelResources {
    pub name: String,
    pub registers: u32,
    pub shared_bytes: u32,
    pub stack_bytes: u32,
    pub spill_stores: u32,
    pub spill_loads: u32,
}

/// `$PTXAS` (nothing if it names no file), then `ptxas` on `PATH`, `$CUDA_HOME/bin`, `/usr/local/cuda/bin`, then the copy the
/// `nvidia-cuda-nvcc` Python package ships.
pub fn find() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTXAS") {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|d| d.join("ptxas")));
    }
    if let Some(home) = std::env::var_os("CUDA_HOME") {
        candidates.push(Path::new(&home).join("bin/ptxas"));
    }
    candidates.push("/usr/local/cuda/bin/ptxas".into());
    if let Ok(out) = Command::new("python3")
        .args(["-c", "import nvidia, os; print('\\n'.join(os.path.join(p, d, 'bin', 'ptxas') for p in nvidia.__path__ for d in sorted(os.listdir(p))))"])
        .output()
    {
        candidates.extend(String::from_utf8_lossy(&out.stdout).lines().map(PathBuf::from));
    }
    candidates.into_iter().find(|p| p.is_file())
}

/// Parses `ptxas -v` output.
pub fn parse_report(log: &str) -> Vec<KernelResources> {
    let mut out: Vec<KernelResources> = Vec::new();
    // Whose "Function properties" the next stack-frame line reports: ptxas also lists the
    // device functions a kernel calls, after the kernel, and their (empty) frames must not
    // overwrite the kernel's.
    let mut props_of = String::new();
    for line in log.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            let name = rest.split('\'').next().unwrap_or("").to_string();
            out.push(KernelResources { name, ..Default::default() });
            continue;
        }
        if let Some(rest) = line.split("Function properties for ").nth(1) {
            props_of = rest.trim().to_string();
            continue;
        }
        let Some(k) = out.last_mut() else { continue };
        if line.contains("stack frame") && props_of != k.name {
            continue;
        }
        let num_before = |needle: &str| -> Option<u32> {
            let idx = line.find(needle)?;
            line[..idx].split(|c: char| !c.is_ascii_digit()).rfind(|s| !s.is_empty())?.parse().ok()
        };
        if line.contains("stack frame") {
            k.stack_bytes = num_before(" bytes stack frame").unwrap_or(0);
            k.spill_stores = num_before(" bytes spill stores").unwrap_or(0);
            k.spill_loads = num_before(" bytes spill loads").unwrap_or(0);
        }
        if line.contains("Used ") && line.contains("registers") {
            k.registers = num_before(" registers").unwrap_or(0);
            k.shared_bytes = num_before(" bytes smem").unwrap_or(0);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ptxas_verbose_output() {
        let log = "ptxas info    : 0 bytes gmem\n\
            ptxas info    : Compiling entry function 'vec_add_f32' for 'sm_80'\n\
            ptxas info    : Function properties for vec_add_f32\n\
            \x20   8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n\
            ptxas info    : Used 10 registers, used 1 barriers, 4096 bytes smem, 380 bytes cmem[0]\n";
        let r = parse_report(log);
        assert_eq!(r, [KernelResources { name: "vec_add_f32".into(), registers: 10, shared_bytes: 4096, stack_bytes: 8, spill_stores: 4, spill_loads: 12 }]);
    }

    #[test]
    fn a_called_device_function_does_not_hide_the_kernels_spills() {
        // ptxas 13.5 lists the device functions a kernel calls after the kernel.
        let log = "ptxas info    : Compiling entry function 'gemm_rowdot_f32' for 'sm_90a'\n\
            ptxas info    : Function properties for gemm_rowdot_f32\n\
            \x20   512 bytes stack frame, 508 bytes spill stores, 516 bytes spill loads\n\
            ptxas info    : Used 128 registers, used 1 barriers, 512 bytes cumulative stack size\n\
            ptxas info    : Function properties for _RNvNtCs_7kernels6matmul20activate_out_of_line\n\
            \x20   0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
        let r = parse_report(log);
        assert_eq!((r.len(), r[0].stack_bytes, r[0].spill_stores, r[0].spill_loads, r[0].registers), (1, 512, 508, 516, 128));
    }
}

//! SCRATCH (not kept): per-block phase stamps of the wgmma kernels (probe build only).
use benches::graph_timing::measure_with;
use benches::metrics::random_f32;
use host::buffer_bf16::DeviceMatrixBf16;
use host::ops::matmul::{Bf16Kernel, Bf16Plan, Epilogue, Multicast, Transpose, gemm_bf16_with_plan};
use host::{DeviceMatrix, Gpu, Result};

fn main() {
    if let Err(e) = run() {
        eprintln!("stamps: {e}");
        std::process::exit(1);
    }
}

fn pct(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn kernel(name: &str) -> Bf16Kernel {
    *Bf16Kernel::ALL.iter().find(|k| format!("{k:?}") == name).expect("kernel")
}

// args: layout:MxNxK:Kernel:splits[:mc]
fn run() -> Result<()> {
    let gpu = Gpu::new()?;
    for spec in std::env::args().skip(1).filter(|a| a.contains(':')) {
        let f: Vec<&str> = spec.split(':').collect();
        let (ta, tb) = (if f[0].as_bytes()[0] == b't' { Transpose::Yes } else { Transpose::No }, if f[0].as_bytes()[1] == b't' { Transpose::Yes } else { Transpose::No });
        let v: Vec<usize> = f[1].split('x').map(|x| x.parse().unwrap()).collect();
        let (m, n, k) = (v[0], v[1], v[2]);
        let mut plan = Bf16Plan::new(kernel(f[2]), f[3].parse().unwrap());
        if f.len() > 4 && f[4] == "mc" {
            plan.multicast = Multicast::PAIRS;
        }
        let (ar, ac) = if ta == Transpose::Yes { (k, m) } else { (m, k) };
        let (br, bc) = if tb == Transpose::Yes { (n, k) } else { (k, n) };
        let a16 = DeviceMatrixBf16::from_f32(&gpu, ar, ac, &random_f32(7, m * k, -1.0, 1.0))?;
        let b16 = DeviceMatrixBf16::from_f32(&gpu, br, bc, &random_f32(8, k * n, -1.0, 1.0))?;
        let mut c = DeviceMatrix::zeros(&gpu, m, n)?;
        let mut op = |c: &mut DeviceMatrix, alpha: f32| gemm_bf16_with_plan(&gpu, &a16, ta, &b16, tb, Epilogue { alpha, ..Epilogue::default() }, c, plan);
        let pairs = std::env::var("PROBE").unwrap_or("1/3".into());
        for pair in pairs.split(',') {
        let (ta_, sa_) = pair.split_once('/').unwrap();
        let (ta_, sa_): (f32, f32) = (ta_.parse().unwrap(), sa_.parse().unwrap());
        let t = measure_with(&gpu, &mut || op(&mut c, ta_), "x", (0.3, 30.0, 5))?;
        let t3 = measure_with(&gpu, &mut || op(&mut c, sa_), "x", (0.3, 30.0, 5))?;
        for _ in 0..10 {
            op(&mut c, sa_)?;
        }
        gpu.synchronize()?;
        let out = c.to_host(&gpu)?;
        let mut rows: Vec<[u32; 7]> = Vec::new();
        for r in 0..m {
            for c0 in (0..n.saturating_sub(7)).step_by(16) {
                let at = |i: usize| out[r * n + c0 + i].to_bits();
                if at(7) == 0 && at(1).wrapping_sub(at(0)) < 1_000_000 && at(6).wrapping_sub(at(0)) < 1_000_000 {
                    let mut s = [0u32; 7];
                    for (i, x) in s.iter_mut().enumerate() {
                        *x = at(i);
                    }
                    rows.push(s);
                }
            }
        }
        if rows.is_empty() {
            println!("{spec} a{ta_}: no stamps; time {:.2} us", t.ms * 1e3);
            continue;
        }
        let base = rows.iter().map(|s| s[0]).min().unwrap();
        let rel: Vec<[f64; 7]> = rows
            .iter()
            .map(|s| {
                let mut r = [0f64; 7];
                for i in 0..7 {
                    r[i] = s[i].wrapping_sub(base) as i32 as f64 / 1000.0;
                }
                r
            })
            .collect();
        let names = ["entry", "wait", "loop", "staged", "sync", "sum", "end"];
        print!("{spec} a{ta_} blocks {} time {:.2} us (stamped {:.2}) |", rel.len(), t.ms * 1e3, t3.ms * 1e3);
        for (i, nm) in names.iter().enumerate() {
            let mut v: Vec<f64> = rel.iter().map(|r| r[i]).collect();
            print!(" {nm} {:.2}/{:.2}/{:.2}", pct(&mut v, 0.0), pct(&mut v, 0.5), pct(&mut v, 1.0));
        }
        println!();
        print!("    durations (median/max):");
        for (i, nm) in [(1, "init"), (2, "main"), (3, "stage"), (4, "sync"), (5, "sum"), (6, "close")] {
            let mut v: Vec<f64> = rel.iter().map(|r| r[i] - r[i - 1]).collect();
            print!(" {nm} {:.2}/{:.2}", pct(&mut v, 0.5), pct(&mut v, 1.0));
        }
        let mut spread: Vec<f64> = rel.iter().map(|r| r[2]).collect();
        let (lo, hi) = (pct(&mut spread, 0.0), pct(&mut spread, 1.0));
        println!(" | loop-end spread {:.2}", hi - lo);
        }
    }
    Ok(())
}

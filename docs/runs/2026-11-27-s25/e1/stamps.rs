//! SCRATCH: per-block phase stamps of the wgmma kernels (hack build only).
use benches::graph_timing::measure_with;
use benches::metrics::random_f32;
use host::buffer_bf16::DeviceMatrixBf16;
use host::ops::matmul::{Bf16Kernel, Bf16Plan, Epilogue, Transpose, gemm_bf16_with_plan};
use host::{DeviceMatrix, Gpu, Result};

fn main() {
    if let Err(e) = run() {
        eprintln!("stamps: {e}");
        std::process::exit(1);
    }
}

fn pct(v: &mut Vec<f64>, q: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn run() -> Result<()> {
    let gpu = Gpu::new()?;
    let shapes: Vec<(usize, usize, usize)> = std::env::args().skip(1).map(|s| {
        let v: Vec<usize> = s.split('x').map(|x| x.parse().unwrap()).collect();
        (v[0], v[1], v[2])
    }).collect();
    for (m, n, k) in shapes {
        let ha = random_f32(7, m * k, -1.0, 1.0);
        let hb = random_f32(8, k * n, -1.0, 1.0);
        let a16 = DeviceMatrixBf16::from_f32(&gpu, m, k, &ha)?;
        let b16 = DeviceMatrixBf16::from_f32(&gpu, k, n, &hb)?;
        let mut c = DeviceMatrix::zeros(&gpu, m, n)?;
        for (kernel, bm, bn) in [(Bf16Kernel::Wgmma, 128, 256), (Bf16Kernel::Wgmma128x208, 128, 208), (Bf16Kernel::Wgmma64x128, 64, 128), (Bf16Kernel::Wgmma64x64, 64, 64)] {
            let plan = Bf16Plan { kernel, splits: 1 };
            let mut op = |c: &mut DeviceMatrix| gemm_bf16_with_plan(&gpu, &a16, Transpose::No, &b16, Transpose::No, Epilogue::default(), c, plan);
            let t = measure_with(&gpu, &mut || op(&mut c), "x", (0.3, 20.0, 5))?;
            for _ in 0..20 {
                op(&mut c)?;
            }
            gpu.synchronize()?;
            let out = c.to_host(&gpu)?;
            let mut rows: Vec<[u32; 7]> = Vec::new();
            for m0 in (0..m).step_by(bm) {
                for n0 in (0..n).step_by(bn) {
                    if n0 + 8 > n {
                        continue;
                    }
                    let mut s = [0u32; 7];
                    for i in 0..7 {
                        s[i] = out[m0 * n + n0 + i].to_bits();
                    }
                    rows.push(s);
                }
            }
            let base = rows.iter().map(|s| s[0]).min().unwrap();
            let rel: Vec<[f64; 7]> = rows.iter().map(|s| {
                let mut r = [0f64; 7];
                for i in 0..7 {
                    r[i] = s[i].wrapping_sub(base) as i32 as f64 / 1000.0;
                }
                r
            }).collect();
            let names = ["entry", "wait", "first", "loop", "staged", "stored", "end"];
            print!("{m}x{n}x{k} {kernel:?} tiles {} time {:.2} us |", rel.len(), t.ms * 1000.0);
            for i in 0..7 {
                let mut v: Vec<f64> = rel.iter().map(|r| r[i]).collect();
                print!(" {} {:.2}/{:.2}/{:.2}", names[i], pct(&mut v, 0.0), pct(&mut v, 0.5), pct(&mut v, 1.0));
            }
            println!();
            // Per-block phase durations (median / max).
            print!("    durations:");
            for (i, nm) in [(1, "init"), (2, "fill"), (3, "main"), (4, "stage"), (5, "store"), (6, "drain")] {
                let mut v: Vec<f64> = rel.iter().map(|r| r[i] - r[i - 1]).collect();
                print!(" {nm} {:.2}/{:.2}", pct(&mut v, 0.5), pct(&mut v, 1.0));
            }
            println!();
        }
    }
    Ok(())
}

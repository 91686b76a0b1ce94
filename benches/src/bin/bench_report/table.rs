//! The report's Markdown: one table per op and the findings stated from the run's numbers.

use std::fmt::Write as _;

use crate::{Ctx, OpReport, Row, Series, Work, rate};

pub(crate) fn fmt_time(ms: f64) -> String {
    if ms < 1e-3 {
        format!("{:.0} ns", ms * 1e6)
    } else if ms < 1.0 {
        format!("{:.1} µs", ms * 1e3)
    } else if ms < 1000.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{:.2} s", ms / 1e3)
    }
}

pub(crate) fn fmt_speedup(x: f64) -> String {
    if x >= 10.0 {
        format!("{x:.0}×")
    } else if x >= 1.0 {
        format!("{x:.1}×")
    } else {
        format!("{x:.2}×")
    }
}

/// Best CPU time of a row and its series name.
pub(crate) fn best_cpu<'a>(op: &'a OpReport, row: &Row) -> Option<(&'a str, f64)> {
    op.series.iter().filter(|s| !s.gpu).filter_map(|s| row.times.get(s.key).map(|&t| (s.header, t))).min_by(|a, b| a.1.total_cmp(&b.1))
}

pub(crate) fn write_table(md: &mut String, op: &OpReport, ctx: &Ctx, flops_ceiling: f64) {
    let _ = writeln!(md, "## {}\n", op.title);
    for n in &op.notes {
        let _ = writeln!(md, "{n}");
    }
    let _ = writeln!(md);
    let present: Vec<&Series> = op.series.iter().filter(|s| op.rows.iter().any(|r| r.times.contains_key(s.key))).collect();
    let named = op.rows.iter().any(|r| r.best_name.is_some());
    let mut header = String::from(if named { "| size | fastest f32 kernel |" } else { "| size |" });
    let mut rule = String::from(if named { "|---:|:---|" } else { "|---:|" });
    for s in &present {
        let _ = write!(header, " {} |", s.header);
        rule.push_str("---:|");
    }
    header.push_str(" kernel speedup vs CPU loop | + copies vs CPU loop | kernel speedup vs best CPU | throughput (% of ceiling) | rel. error |");
    rule.push_str("---:|---:|---:|---:|---:|");
    let has_torch = op.rows.iter().any(|r| r.torch.is_some());
    if has_torch {
        header.push_str(" vs PyTorch (time ours ÷ theirs) |");
        rule.push_str("---:|");
    }
    let _ = writeln!(md, "{header}\n{rule}");
    for row in &op.rows {
        let mut line = format!("| {}{} |", row.label, if row.in_l2 { " †" } else { "" });
        if named {
            let _ = write!(line, " {} |", row.best_name.unwrap_or("—"));
        }
        for s in &present {
            match row.times.get(s.key) {
                Some(&t) if s.key == row.best_kernel => {
                    let _ = write!(line, " **{}** |", fmt_time(t));
                }
                Some(&t) => {
                    let _ = write!(line, " {} |", fmt_time(t));
                }
                None => line.push_str(" — |"),
            }
        }
        let kernel = row.times[row.best_kernel];
        let e2e = row.times.get("gpu_e2e").copied();
        match row.times.get("cpu_loop") {
            Some(&cl) => {
                let _ = write!(line, " {} | {} |", fmt_speedup(cl / kernel), e2e.map_or("—".into(), |e| fmt_speedup(cl / e)));
            }
            None => line.push_str(" — | — |"),
        }
        match best_cpu(op, row) {
            Some((_, t)) => {
                let _ = write!(line, " {} |", fmt_speedup(t / kernel));
            }
            None => line.push_str(" — |"),
        }
        let r = rate(row, kernel);
        let _ = match row.work {
            Work::Bytes(_) => write!(line, " {r:.0} GB/s ({:.0}%) |", 100.0 * r / ctx.copy_gbs),
            Work::Flops(_) => write!(line, " {r:.2} TFLOP/s ({:.0}%) |", 100.0 * r / flops_ceiling),
        };
        let _ = write!(line, " {:.0e} |", row.max_error);
        if has_torch {
            match &row.torch {
                Some(t) => {
                    let _ = write!(line, " {:.2} (PyTorch {}) |", kernel / t.median_ms, fmt_time(t.median_ms));
                }
                None => line.push_str(" — |"),
            }
        }
        let _ = writeln!(md, "{line}");
    }
    let _ = writeln!(md, "\nBold: the fastest GPU kernel at that size (used for the speedups, throughput and \"+ copies\").\n");
    if !op.ladder.is_empty() {
        let _ = writeln!(
            md,
            "Every GPU kernel at every size, TFLOP/s (kernel time by events; each checked against nalgebra first: f32 kernels to a relative error of 1e-5, reduced-precision ones to 5e-3):\n"
        );
        let mut header = String::from("| kernel |");
        let mut rule = String::from("|:---|");
        for row in &op.rows {
            let _ = write!(header, " {} |", row.label);
            rule.push_str("---:|");
        }
        let _ = writeln!(md, "{header}\n{rule}");
        for &(key, name) in &op.ladder {
            let mut line = format!("| {name} |");
            for row in &op.rows {
                match row.times.get(key) {
                    Some(&t) => {
                        let _ = write!(line, " {:.2} |", rate(row, t));
                    }
                    None => line.push_str(" — |"),
                }
            }
            let _ = writeln!(md, "{line}");
        }
        let _ = writeln!(md);
    }
}

/// The article's two findings, stated from this run's numbers.
pub(crate) fn findings(ops: &[OpReport]) -> String {
    let mut s = String::new();
    if let Some(op) = ops.iter().find(|o| o.key == "vec_add") {
        let beats = |key: &str| op.rows.iter().find(|r| r.times.get(key).is_some_and(|&g| g < r.times["cpu_loop"])).map(|r| r.x as usize);
        let last = op.rows.last().expect("vec_add has rows");
        let (cl, k, e) = (last.times["cpu_loop"], last.times[last.best_kernel], last.times["gpu_e2e"]);
        let cp = last.times["cpu_par"];
        let pinned = last.times.get("gpu_e2e_pinned").copied();
        let _ = writeln!(
            s,
            "1. **Vector add: the GPU wins only at large n, and the copies eat the gain.** The GPU kernel first beats the single-threaded CPU loop at n = {}; \
             at n = {} the kernel takes {} against the loop's {} ({}), but with the copies to and from the device it takes {} ({} the loop's speed{}). \
             The threaded CPU ({}) {}. Upload and download move the same 12 bytes per element as the kernel, over the host link instead of HBM{}.",
            beats(last.best_kernel).map_or("no size measured".into(), |n| n.to_string()),
            last.x as usize,
            fmt_time(k),
            fmt_time(cl),
            fmt_speedup(cl / k),
            fmt_time(e),
            fmt_speedup(cl / e),
            match beats("gpu_e2e") {
                Some(n) => format!("; with copies the GPU beats the loop from n = {n}"),
                None => "; with copies the GPU never beats the loop at any size measured".into(),
            },
            fmt_time(cp),
            if cp < e { "also beats the GPU with copies".to_string() } else { "is slower than the GPU with copies".to_string() },
            match pinned {
                Some(p) => format!(
                    "; from page-locked host memory the whole round trip takes {} ({} the loop, {} the threaded CPU): faster copies, still {:.0}× the kernel alone",
                    fmt_time(p),
                    fmt_speedup(cl / p),
                    fmt_speedup(cp / p),
                    p / k
                ),
                None => String::new(),
            },
        );
    }
    if let Some(op) = ops.iter().find(|o| o.key == "matmul") {
        let mut parts = Vec::new();
        for r in &op.rows {
            if let Some(&cl) = r.times.get("cpu_loop") {
                parts.push(format!("N = {}: {}", r.x as usize, fmt_speedup(cl / r.times[r.best_kernel])));
            }
        }
        let last = op.rows.last().expect("matmul has rows");
        let k = last.times[last.best_kernel];
        let _ = writeln!(
            s,
            "2. **Matmul: the gap widens with N.** Speedup of the fastest GPU kernel over the CPU loop: {}. At N = {} the GPU kernel takes {} \
             against {} for nalgebra on one core ({}) and {} for the threaded CPU ({}); the copies (3·N² floats for 2·N³ FLOP) cost {} in all ({}).",
            parts.join(", "),
            last.x as usize,
            fmt_time(k),
            fmt_time(last.times["cpu_nalgebra"]),
            fmt_speedup(last.times["cpu_nalgebra"] / k),
            fmt_time(last.times["cpu_par"]),
            fmt_speedup(last.times["cpu_par"] / k),
            fmt_time(last.times["gpu_e2e"]),
            fmt_speedup(last.times["cpu_nalgebra"] / last.times["gpu_e2e"]) + " vs nalgebra",
        );
    }
    s
}

pub(crate) fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| t.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split(':').nth(1)).map(|s| s.trim().to_string()))
        .unwrap_or_else(|| "unknown CPU".into())
}

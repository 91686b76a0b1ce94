//! Reading `benches/torch/gemm_sweep.py`'s output: PyTorch's time per product, and the seed and
//! comment lines it carried over from the case list (`gemm_sweep --torch`, `plan_replay --torch`).

use std::collections::HashMap;

use host::ops::matmul::Transpose;

/// A product: (precision, layout, m, n, k).
pub type ProductKey = (String, String, usize, usize, usize);

/// op(A) and op(B) of a layout (`nn`, `nt`, `tn`, `tt`): a `t` transposes.
pub fn layout_transposes(layout: &str) -> (Transpose, Transpose) {
    let t = |yes| if yes { Transpose::Yes } else { Transpose::No };
    (t(layout.starts_with('t')), t(layout.ends_with('t')))
}

/// The torch companion's output: times by key, and the seed it recorded from the case list.
pub struct TorchTimes {
    pub ms: HashMap<ProductKey, f64>,
    pub seed: Option<u64>,
    /// The case list's `gemm_sweep seed=… quick=… groups=… precisions=…` line.
    pub list_line: Option<String>,
    /// The other comment lines (GPU, torch version, bf16 output dtype).
    pub comments: Vec<String>,
}

/// Reads `path`; an error names the file and line that is not `precision,layout,m,n,k,torch_ms`.
pub fn read_torch(path: &str) -> Result<TorchTimes, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut t = TorchTimes { ms: HashMap::new(), seed: None, list_line: None, comments: Vec::new() };
    for (lineno, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(c) = line.strip_prefix('#') {
            if let Some(seed) = c.trim().strip_prefix("gemm_sweep seed=") {
                let seed = seed.split_whitespace().next().unwrap_or("");
                t.seed = Some(seed.parse().map_err(|_| format!("{path}:{}: bad seed {seed:?}", lineno + 1))?);
                t.list_line = Some(c.trim().to_string());
            } else {
                t.comments.push(c.trim().to_string());
            }
            continue;
        }
        if line.is_empty() || line.starts_with("precision,") {
            continue;
        }
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let bad = || format!("{path}:{}: expected precision,layout,m,n,k,torch_ms, got {line:?}", lineno + 1);
        if f.len() < 6 {
            return Err(bad());
        }
        let num = |s: &str| s.parse::<usize>().map_err(|_| bad());
        let ms: f64 = f[5].parse().map_err(|_| bad())?;
        if ms.is_finite() && ms > 0.0 {
            t.ms.insert((f[0].to_string(), f[1].to_string(), num(f[2])?, num(f[3])?, num(f[4])?), ms);
        }
    }
    Ok(t)
}

use host::ops::matmul::{GemmKernel, plan};
use kernels::matmul::GemmParams;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        if line.starts_with('#') || line.starts_with("precision") { continue; }
        let v: Vec<&str> = line.split(',').collect();
        let (l, m, n, k): (&str, u64, u64, u64) = (v[1], v[2].parse().unwrap(), v[3].parse().unwrap(), v[4].parse().unwrap());
        let ta = l.as_bytes()[0] == b't';
        let tb = l.as_bytes()[1] == b't';
        let a = if ta { (k, m) } else { (m, k) };
        let b = if tb { (n, k) } else { (k, n) };
        let st = |t: bool, cols: u64| if t { (1u64, cols) } else { (cols, 1u64) };
        let (ars, acs) = st(ta, a.1);
        let (brs, bcs) = st(tb, b.1);
        let p = GemmParams { m, n, k, a_row_stride: ars, a_col_stride: acs, b_row_stride: brs, b_col_stride: bcs, ldc: n, alpha: 1.0, beta: 0.0, act: 0, has_bias: 0, splits: 1, slices_per_split: 0, sem: 0, ws: 0, x3_slices: 0, reserved: 0, c_bf16: 0 };
        let f = GemmKernel::Auto.plan_for(&p, 132, true);
        let t = GemmKernel::Tf32Auto.plan_for(&p, 132, true);
        let bf = plan::choose_bf16(true, 0, m as usize, n as usize, k as usize, 132);
        println!("{l},{m},{n},{k},{:?}/{},{:?}/{},{:?}/{}", f.kernel, f.splits, t.kernel, t.splits, bf.0, bf.1);
    }
}

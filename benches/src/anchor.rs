//! The PyTorch anchor: a script run on the same GPU (`/work/shared/anchors/torch_anchor.py`)
//! prints one CSV line per op and size; the report puts our time beside it.

/// One line of the PyTorch anchor (`/work/shared/anchors/torch_anchor.py`):
/// `op,shape,dtype,median_ms,metric`, the metric GB/s, TFLOP/s or samples/s by op.
#[derive(Debug, Clone, PartialEq)]
pub struct AnchorRow {
    pub op: String,
    pub shape: String,
    pub dtype: String,
    pub median_ms: f64,
    pub metric: f64,
}

/// The anchor's measurement lines; other lines (its `gpu … torch …` header) are skipped.
pub fn parse_anchor_csv(text: &str) -> Vec<AnchorRow> {
    text.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.trim().split(',').collect();
            if f.len() != 5 {
                return None;
            }
            Some(AnchorRow {
                op: f[0].to_string(),
                shape: f[1].to_string(),
                dtype: f[2].to_string(),
                median_ms: f[3].parse().ok()?,
                metric: f[4].parse().ok()?,
            })
        })
        .collect()
}

/// The anchor row for `op` at `shape` in `dtype`, if the anchor measured it.
pub fn find_anchor<'a>(rows: &'a [AnchorRow], op: &str, shape: &str, dtype: &str) -> Option<&'a AnchorRow> {
    rows.iter().find(|r| r.op == op && r.shape == shape && r.dtype == dtype)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchor_csv_lines_parse_and_the_header_is_skipped() {
        let rows = parse_anchor_csv("gpu NVIDIA H100 torch 2.5\nvec_add,1024,f32,0.0061,2.01\nlinear_sigmoid,256x1024x1024,f32,0.05,10.7\n");
        assert_eq!(rows.len(), 2);
        assert_eq!(find_anchor(&rows, "vec_add", "1024", "f32").map(|r| r.metric), Some(2.01));
        assert_eq!(find_anchor(&rows, "linear_sigmoid", "256x1024x1024", "f32").map(|r| r.median_ms), Some(0.05));
        assert!(find_anchor(&rows, "vec_add", "1024", "bf16").is_none());
    }
}

//! The report's charts: time against size on log-log axes, one PNG per op.

use std::path::Path;

use crate::{OpReport, Res};

/// One line of a chart: legend, whether it is a GPU series, and its (size, ms) points.
type ChartLine = (String, bool, Vec<(f64, f64)>);

pub(crate) fn chart(path: &Path, op: &OpReport, gpu_name: &str, cpu_name: &str) -> Res<()> {
    use plotters::prelude::*;
    let e = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let (w, h) = (1200u32, 760u32);
    let mut buf = vec![255u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(|x| e(&x))?;
        let mut lines: Vec<ChartLine> = op
            .series
            .iter()
            .map(|s| (s.header.to_string(), s.gpu, op.rows.iter().filter_map(|r| r.times.get(s.key).map(|&t| (r.x, t))).collect::<Vec<_>>()))
            .filter(|l| !l.2.is_empty())
            .collect();
        let torch: Vec<(f64, f64)> = op.rows.iter().filter_map(|r| r.torch.as_ref().map(|t| (r.x, t.median_ms))).collect();
        if !torch.is_empty() {
            lines.push(("PyTorch (same GPU, anchor run)".into(), true, torch));
        }
        let all = lines.iter().flat_map(|l| l.2.iter());
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y) in all {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        let mut c = ChartBuilder::on(&root)
            .caption(format!("{} — {gpu_name} vs {cpu_name}", op.title), ("sans-serif", 22))
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(100)
            .build_cartesian_2d((x0 / 1.5..x1 * 1.5).log_scale().base(op.x_base), (y0 / 2.0..y1 * 3.0).log_scale())
            .map_err(|x| e(&x))?;
        c.configure_mesh()
            .x_desc(op.x_label)
            .y_desc("time per call (log scale)")
            .x_label_formatter(&|v| fmt_count(*v))
            .y_label_formatter(&|v| fmt_tick(*v))
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 18))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(|x| e(&x))?;
        let cpu_colors = [RGBColor(200, 40, 40), RGBColor(240, 140, 20), RGBColor(150, 90, 40)];
        let gpu_colors = [RGBColor(30, 90, 200), RGBColor(20, 160, 160), RGBColor(110, 60, 190), RGBColor(40, 150, 40), RGBColor(90, 90, 90)];
        let (mut ci, mut gi) = (0, 0);
        for (name, is_gpu, pts) in lines {
            let color = if is_gpu {
                gi += 1;
                gpu_colors[(gi - 1) % gpu_colors.len()]
            } else {
                ci += 1;
                cpu_colors[(ci - 1) % cpu_colors.len()]
            };
            let style = color.stroke_width(if name.contains("copies") || name.starts_with("PyTorch") { 2 } else { 3 });
            c.draw_series(LineSeries::new(pts.clone(), style))
                .map_err(|x| e(&x))?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3)));
            if is_gpu {
                c.draw_series(pts.iter().map(|&p| TriangleMarker::new(p, 6, color.filled()))).map_err(|x| e(&x))?;
            } else {
                c.draw_series(pts.iter().map(|&p| Circle::new(p, 5, color.filled()))).map_err(|x| e(&x))?;
            }
        }
        c.configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 16))
            .draw()
            .map_err(|x| e(&x))?;
        root.present().map_err(|x| e(&x))?;
    }
    benches::png_chart::write_rgb_png(path, (w, h), &buf)
}

/// Axis labels for counts: 1000, 10k, 1M, 2.5M, 1G.
pub(crate) fn fmt_count(v: f64) -> String {
    let short = |x: f64, unit: &str| {
        if (x - x.round()).abs() < 0.05 { format!("{x:.0}{unit}") } else { format!("{x:.1}{unit}") }
    };
    if v >= 1e9 {
        short(v / 1e9, "G")
    } else if v >= 1e6 {
        short(v / 1e6, "M")
    } else if v >= 1e4 {
        short(v / 1e3, "k")
    } else {
        format!("{v:.0}")
    }
}

/// Axis labels for times in ms: 1 µs, 10 µs, 1 ms, 1 s (no trailing digits on round ticks).
pub(crate) fn fmt_tick(ms: f64) -> String {
    let (x, unit) = if ms >= 1000.0 {
        (ms / 1e3, "s")
    } else if ms >= 1.0 {
        (ms, "ms")
    } else if ms >= 1e-3 {
        (ms * 1e3, "µs")
    } else {
        (ms * 1e6, "ns")
    };
    if (x - x.round()).abs() < 0.05 * x.max(1.0) { format!("{x:.0} {unit}") } else { format!("{x:.1} {unit}") }
}

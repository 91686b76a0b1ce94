//! Draws the loss curves of the mixed-precision runs (issue 12) side by side: reads the CSV that
//! `examples/mlp --loss-csv` appends to (`precision,seed,epoch,step,global_step,loss,test_accuracy`)
//! and writes a PNG with one line per precision (running loss against the global step), for
//! docs/mlp.md. Needs no GPU.
//!
//! ```text
//! loss_plot LOSS.csv OUT.png [TITLE]
//! ```

use std::collections::BTreeMap;
use std::path::Path;

type Res<T> = Result<T, String>;

/// (global step, running loss) per precision, in file order.
fn read(path: &Path) -> Res<BTreeMap<String, Vec<(f64, f64)>>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let mut out: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let bad = || format!("{}:{}: expected precision,seed,epoch,step,global_step,loss,test_accuracy", path.display(), i + 1);
        if f.len() != 7 {
            return Err(bad());
        }
        // Epoch-end lines (with a test accuracy) repeat the last running loss: skip them.
        if !f[6].is_empty() {
            continue;
        }
        let (x, y) = (f[4].parse::<f64>().map_err(|_| bad())?, f[5].parse::<f64>().map_err(|_| bad())?);
        out.entry(f[0].to_string()).or_default().push((x, y));
    }
    if out.is_empty() {
        return Err(format!("{}: no loss lines", path.display()));
    }
    Ok(out)
}

fn draw(out_path: &Path, title: &str, curves: &BTreeMap<String, Vec<(f64, f64)>>) -> Res<()> {
    use plotters::prelude::*;
    let e = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", out_path.display());
    let (w, h) = (1000u32, 620u32);
    let mut buf = vec![255u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(|x| e(&x))?;
        let pts = curves.values().flatten();
        let (mut x1, mut y0, mut y1) = (1.0f64, f64::MAX, f64::MIN);
        for &(x, y) in pts {
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        let mut c = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..x1, (y0 * 0.95)..(y1 * 1.05))
            .map_err(|x| e(&x))?;
        c.configure_mesh()
            .x_desc("training step")
            .y_desc("running mean loss of the epoch")
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 18))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(|x| e(&x))?;
        let colors = [RGBColor(30, 90, 200), RGBColor(240, 140, 20), RGBColor(40, 150, 40), RGBColor(200, 40, 40)];
        for (i, (name, line)) in curves.iter().enumerate() {
            let color = colors[i % colors.len()];
            c.draw_series(LineSeries::new(line.clone(), color.stroke_width(2)))
                .map_err(|x| e(&x))?
                .label(name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3)));
        }
        c.configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 16))
            .draw()
            .map_err(|x| e(&x))?;
        root.present().map_err(|x| e(&x))?;
    }
    benches::png_chart::write_rgb_png(out_path, (w, h), &buf)
}

fn run() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [csv, out, rest @ ..] = args.as_slice() else {
        return Err("usage: loss_plot LOSS.csv OUT.png [TITLE]".into());
    };
    let title = rest.first().map_or("Training loss by precision", String::as_str);
    benches::png_chart::register_font()?;
    let curves = read(Path::new(csv))?;
    draw(Path::new(out), title, &curves)?;
    for (name, line) in &curves {
        println!("{name}: {} points, last loss {:.4}", line.len(), line.last().map_or(f64::NAN, |p| p.1));
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

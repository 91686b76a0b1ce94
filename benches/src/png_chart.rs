//! What the benches' PNG charts share (`bench_report`'s per-op charts, `loss_plot`'s loss
//! curves): the embedded font, and plotters' RGB buffer written out as a PNG.

use std::path::Path;

/// DejaVu Sans (Bitstream Vera license, see benches/assets/DejaVuSans-LICENSE), embedded so the
/// charts need no system fonts.
static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// Registers the embedded font as plotters' "sans-serif"; call once before drawing.
pub fn register_font() -> Result<(), String> {
    plotters::style::register_font("sans-serif", plotters::style::FontStyle::Normal, FONT).map_err(|_| "embedded font is invalid".to_string())
}

/// Writes a `w × h` RGB buffer (what plotters' `BitMapBackend::with_buffer` drew into) to `path`
/// as an 8-bit PNG.
pub fn write_rgb_png(path: &Path, (w, h): (u32, u32), buf: &[u8]) -> Result<(), String> {
    let e = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let file = std::fs::File::create(path).map_err(|x| e(&x))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header().and_then(|mut wr| wr.write_image_data(buf)).map_err(|x| e(&x))
}

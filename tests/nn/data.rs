use std::io::Write;
use std::path::{Path, PathBuf};

use host::nn::data::{self, DataError, Dataset};
use integration_tests::Suite;

/// A fresh directory under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("nn-test-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("create temp dir");
        TempDir(p)
    }
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn gzip(path: &Path, out: &Path) {
    let raw = std::fs::read(path).expect("read");
    let mut enc = flate2::write::GzEncoder::new(std::fs::File::create(out).expect("create"), flate2::Compression::default());
    enc.write_all(&raw).expect("gzip");
    enc.finish().expect("gzip finish");
}

fn expect<T: std::fmt::Debug>(what: &str, r: Result<T, DataError>, pred: impl Fn(&DataError) -> bool) -> Result<(), String> {
    match r {
        Err(e) if pred(&e) => {
            if e.to_string().is_empty() {
                return Err(format!("{what}: empty message"));
            }
            Ok(())
        }
        Err(e) => Err(format!("{what}: unexpected error {e:?}")),
        Ok(v) => Err(format!("{what}: expected an error, got {v:?}")),
    }
}

/// n images of rows×cols with pixel (i, p) = (i·7 + p·3) mod 256, labels i mod 10.
fn write_set(dir: &TempDir, prefix: &str, n: usize, rows: usize, cols: usize) -> (PathBuf, PathBuf, Vec<u8>, Vec<u8>) {
    let px: Vec<u8> = (0..n * rows * cols).map(|k| ((k / (rows * cols)) * 7 + (k % (rows * cols)) * 3) as u8).collect();
    let labels: Vec<u8> = (0..n).map(|i| (i % 10) as u8).collect();
    let (ip, lp) = (dir.path(&format!("{prefix}-images-idx3-ubyte")), dir.path(&format!("{prefix}-labels-idx1-ubyte")));
    data::write_idx_images(&ip, n, rows, cols, &px).expect("write images");
    data::write_idx_labels(&lp, &labels).expect("write labels");
    (ip, lp, px, labels)
}

pub fn register(s: &mut Suite) {
    s.cpu("data::digits_embedded", |_| {
        let d = data::digits().map_err(|e| e.to_string())?;
        if (d.rows(), d.features, d.classes) != (1797, 64, 10) {
            return Err(format!("digits: {} rows × {} features, {} classes", d.rows(), d.features, d.classes));
        }
        if d.x.iter().any(|&v| !(0.0..=1.0).contains(&v)) || !d.x.contains(&1.0) {
            return Err("pixels must be scaled to [0, 1] (and the maximum 16 → 1)".into());
        }
        let mut counts = [0usize; 10];
        for &y in &d.y {
            counts[y as usize] += 1;
        }
        if counts.iter().any(|&c| !(170..=190).contains(&c)) {
            return Err(format!("class counts {counts:?}"));
        }
        Ok(())
    });
    s.cpu("data::stratified_split", |_| {
        let d = data::digits().map_err(|e| e.to_string())?;
        let (tr, te) = d.stratified_split(0.2, 7).map_err(|e| e.to_string())?;
        let (tr2, te2) = d.stratified_split(0.2, 7).map_err(|e| e.to_string())?;
        let (_, te3) = d.stratified_split(0.2, 8).map_err(|e| e.to_string())?;
        if tr != tr2 || te != te2 {
            return Err("the same seed must give the same split".into());
        }
        if te3 == te {
            return Err("another seed should give another split".into());
        }
        if tr.rows() + te.rows() != d.rows() {
            return Err(format!("{} + {} rows != {}", tr.rows(), te.rows(), d.rows()));
        }
        for c in 0..10u32 {
            let (a, b) = (d.y.iter().filter(|&&y| y == c).count(), te.y.iter().filter(|&&y| y == c).count());
            if (b as f64 - 0.2 * a as f64).abs() > 1.0 {
                return Err(format!("class {c}: {b} of {a} in the test set"));
            }
        }
        // Every original row lands in exactly one part: compare multisets of rows.
        let key = |ds: &Dataset| -> Vec<Vec<u32>> { (0..ds.rows()).map(|r| ds.row(r).iter().map(|v| v.to_bits()).chain([ds.y[r]]).collect()).collect() };
        let mut all = key(&tr);
        all.extend(key(&te));
        all.sort();
        let mut want = key(&d);
        want.sort();
        if all != want {
            return Err("train ∪ test is not the original set".into());
        }
        expect("fraction 0", d.stratified_split(0.0, 1).map(|_| ()), |e| matches!(e, DataError::BadSplit { .. }))?;
        expect("fraction 1", d.stratified_split(1.0, 1).map(|_| ()), |e| matches!(e, DataError::BadSplit { .. }))
    });
    s.cpu("data::idx_raw_and_gzip", |_| {
        let dir = TempDir::new("idx");
        for (prefix, n) in [("train", 23usize), ("t10k", 11)] {
            write_set(&dir, prefix, n, 3, 4);
        }
        let (tr, te) = data::load_mnist(&dir.0).map_err(|e| e.to_string())?;
        if (tr.rows(), tr.features, te.rows()) != (23, 12, 11) {
            return Err(format!("loaded {}×{} and {}", tr.rows(), tr.features, te.rows()));
        }
        let want: Vec<f32> = (0..23 * 12).map(|k| ((k / 12) * 7 + (k % 12) * 3) as u8 as f32 / 255.0).collect();
        if tr.x != want || tr.y != (0..23).map(|i| i % 10).collect::<Vec<u32>>() {
            return Err("raw IDX contents differ".into());
        }
        // Gzip variants (and nothing else) in a second directory.
        let gz = TempDir::new("idxgz");
        for f in ["train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"] {
            gzip(&dir.path(f), &gz.path(&format!("{f}.gz")));
        }
        let (tr2, te2) = data::load_mnist(&gz.0).map_err(|e| e.to_string())?;
        if tr2 != tr || te2 != te {
            return Err("gzip IDX differs from raw".into());
        }
        Ok(())
    });
    s.cpu("data::idx_malformed_files", |_| {
        let dir = TempDir::new("bad");
        let (ip, lp, px, labels) = write_set(&dir, "train", 9, 2, 2);
        // Swapped files: bad magic.
        expect("labels read as images", data::read_idx_images(&lp), |e| matches!(e, DataError::BadMagic { expected: 0x803, found: 0x801, .. }))?;
        expect("images read as labels", data::read_idx_labels(&ip), |e| matches!(e, DataError::BadMagic { expected: 0x801, .. }))?;
        // Truncated payload and truncated header.
        let full = std::fs::read(&ip).map_err(|e| e.to_string())?;
        let cut = dir.path("cut");
        std::fs::write(&cut, &full[..full.len() - 3]).map_err(|e| e.to_string())?;
        expect("truncated images", data::read_idx_images(&cut), |e| matches!(e, DataError::Truncated { expected: 52, got: 49, .. }))?;
        std::fs::write(&cut, &full[..10]).map_err(|e| e.to_string())?;
        expect("truncated header", data::read_idx_images(&cut), |e| matches!(e, DataError::Truncated { expected: 16, got: 10, .. }))?;
        std::fs::write(&cut, &full[..2]).map_err(|e| e.to_string())?;
        expect("two bytes", data::read_idx_images(&cut), |e| matches!(e, DataError::Truncated { .. }))?;
        let mut long = full.clone();
        long.push(0);
        std::fs::write(&cut, &long).map_err(|e| e.to_string())?;
        expect("trailing byte", data::read_idx_images(&cut), |e| matches!(e, DataError::TrailingBytes { extra: 1, .. }))?;
        // A header that promises more images than there are.
        let mut lie = full.clone();
        lie[4..8].copy_from_slice(&1000u32.to_be_bytes());
        std::fs::write(&cut, &lie).map_err(|e| e.to_string())?;
        expect("wrong count in header", data::read_idx_images(&cut), |e| matches!(e, DataError::Truncated { .. }))?;
        // Zero-sized images.
        data::write_idx_images(&cut, 0, 0, 5, &[]).map_err(|e| e.to_string())?;
        expect("0×5 images", data::read_idx_images(&cut), |e| matches!(e, DataError::BadHeader { .. }))?;
        // Counts that disagree between the two files.
        let short_labels = dir.path("short-labels");
        data::write_idx_labels(&short_labels, &labels[..8]).map_err(|e| e.to_string())?;
        expect("9 images, 8 labels", data::read_idx_pair(&ip, &short_labels, 10), |e| matches!(e, DataError::CountMismatch { images: 9, labels: 8 }))?;
        // A label that is no class.
        let mut bad = labels.clone();
        bad[4] = 12;
        data::write_idx_labels(&short_labels, &bad).map_err(|e| e.to_string())?;
        expect("label 12", data::read_idx_pair(&ip, &short_labels, 10), |e| matches!(e, DataError::LabelOutOfRange { index: 4, label: 12, classes: 10 }))?;
        // Empty set.
        let empty_i = dir.path("empty-i");
        let empty_l = dir.path("empty-l");
        data::write_idx_images(&empty_i, 0, 2, 2, &[]).map_err(|e| e.to_string())?;
        data::write_idx_labels(&empty_l, &[]).map_err(|e| e.to_string())?;
        expect("empty", data::read_idx_pair(&empty_i, &empty_l, 10), |e| matches!(e, DataError::Empty { .. }))?;
        // Corrupt gzip, missing file, missing directory entries.
        let badgz = dir.path("bad.gz");
        std::fs::write(&badgz, [0x1f, 0x8b, 8, 0, 1, 2, 3]).map_err(|e| e.to_string())?;
        expect("corrupt gzip", data::read_idx_images(&badgz), |e| matches!(e, DataError::Gzip { .. }))?;
        expect("missing file", data::read_idx_images(&dir.path("nope")), |e| matches!(e, DataError::Io { .. }))?;
        expect("no test files", data::load_mnist(&dir.0).map(|_| ()), |e| matches!(e, DataError::MissingFile { .. }))?;
        let _ = px;
        Ok(())
    });
    s.cpu("data::digits_csv_errors", |_| {
        let row = |label: &str| format!("{}{label}", "1,".repeat(64));
        if data::parse_digits_csv(&format!("{}\n\n{}\n", row("3"), row("9")), "t").map_err(|e| e.to_string())?.rows() != 2 {
            return Err("two good rows".into());
        }
        expect("10 fields", data::parse_digits_csv("1,2,3,4,5,6,7,8,9,0", "t"), |e| matches!(e, DataError::Csv { line: 1, .. }))?;
        expect("label 10", data::parse_digits_csv(&format!("{}\n{}", row("1"), row("10")), "t"), |e| matches!(e, DataError::Csv { line: 2, .. }))?;
        expect("pixel 17", data::parse_digits_csv(&format!("17,{}", &row("1")[2..]), "t"), |e| matches!(e, DataError::Csv { .. }))?;
        expect("not a number", data::parse_digits_csv(&format!("x,{}", &row("1")[2..]), "t"), |e| matches!(e, DataError::Csv { .. }))?;
        expect("empty", data::parse_digits_csv("\n\n", "t"), |e| matches!(e, DataError::Empty { .. }))?;
        expect("inconsistent dataset", Dataset::new(vec![0.0; 5], vec![0, 1], 2, 10), |e| matches!(e, DataError::CountMismatch { .. }))
    });
}

//! Datasets: the embedded digits set (8×8 images, CC BY 4.0, see `host/data/README.md`), MNIST
//! in its IDX files (raw or gzip), and a seeded stratified train/test split. Pixels are scaled to
//! [0, 1]. Every malformed input is a typed [`DataError`], never a panic.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::rng::Rng;

/// The digits CSV, embedded at build time.
pub const DIGITS_CSV_GZ: &[u8] = include_bytes!("../../data/digits.csv.gz");

/// What can be wrong with a data file.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DataError {
    #[error("{}: cannot read: {reason}", path.display())]
    Io { path: PathBuf, reason: String },
    #[error("{}: not a valid gzip stream: {reason}", path.display())]
    Gzip { path: PathBuf, reason: String },
    #[error("{}: bad magic number 0x{found:08x}, expected 0x{expected:08x} ({what})", path.display())]
    BadMagic { path: PathBuf, found: u32, expected: u32, what: &'static str },
    #[error("{}: truncated: the header promises {expected} bytes, the file has {got}", path.display())]
    Truncated { path: PathBuf, expected: u64, got: u64 },
    #[error("{}: {extra} bytes after the last item the header describes", path.display())]
    TrailingBytes { path: PathBuf, extra: u64 },
    #[error("{}: {reason}", path.display())]
    BadHeader { path: PathBuf, reason: String },
    #[error("{images} images but {labels} labels")]
    CountMismatch { images: usize, labels: usize },
    #[error("item {index}: label {label} is not below the {classes} classes")]
    LabelOutOfRange { index: usize, label: u32, classes: usize },
    #[error("{what}: line {line}: {reason}")]
    Csv { what: String, line: usize, reason: String },
    #[error("{what} is empty")]
    Empty { what: String },
    #[error("no {what} in {}: looked for {tried}", dir.display())]
    MissingFile { dir: PathBuf, what: &'static str, tried: String },
    #[error("cannot split {rows} rows with test fraction {fraction}: {reason}")]
    BadSplit { rows: usize, fraction: f64, reason: String },
}

/// Samples in rows: `x` is rows×features (row-major, in [0, 1]), `y` the class of each row.
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    pub x: Vec<f32>,
    pub y: Vec<u32>,
    pub features: usize,
    pub classes: usize,
}

impl Dataset {
    /// Checks that the parts fit together and every label is a class.
    pub fn new(x: Vec<f32>, y: Vec<u32>, features: usize, classes: usize) -> Result<Dataset, DataError> {
        let images = x.len().checked_div(features).unwrap_or(0);
        if features == 0 || !x.len().is_multiple_of(features) || images != y.len() {
            return Err(DataError::CountMismatch { images, labels: y.len() });
        }
        if let Some((index, &label)) = y.iter().enumerate().find(|&(_, &l)| l as usize >= classes) {
            return Err(DataError::LabelOutOfRange { index, label, classes });
        }
        Ok(Dataset { x, y, features, classes })
    }

    pub fn rows(&self) -> usize {
        self.y.len()
    }

    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    /// Row `r`'s features.
    pub fn row(&self, r: usize) -> &[f32] {
        &self.x[r * self.features..(r + 1) * self.features]
    }

    /// The rows `idx`, in that order.
    pub fn select(&self, idx: &[usize]) -> Dataset {
        let mut x = Vec::with_capacity(idx.len() * self.features);
        for &i in idx {
            x.extend_from_slice(self.row(i));
        }
        Dataset { x, y: idx.iter().map(|&i| self.y[i]).collect(), features: self.features, classes: self.classes }
    }

    /// A seeded stratified split: in each class, a shuffled `test_fraction` of its rows (rounded,
    /// at least one when the class has two or more) goes to the test set. Rows keep their
    /// original order within each part.
    pub fn stratified_split(&self, test_fraction: f64, seed: u64) -> Result<(Dataset, Dataset), DataError> {
        let bad = |reason: &str| DataError::BadSplit { rows: self.rows(), fraction: test_fraction, reason: reason.into() };
        if !(test_fraction > 0.0 && test_fraction < 1.0) {
            return Err(bad("the fraction must be strictly between 0 and 1"));
        }
        let mut rng = Rng::new(seed);
        let mut test = vec![false; self.rows()];
        for class in 0..self.classes as u32 {
            let mut members: Vec<usize> = (0..self.rows()).filter(|&i| self.y[i] == class).collect();
            rng.shuffle(&mut members);
            let mut k = (members.len() as f64 * test_fraction).round() as usize;
            if members.len() >= 2 {
                k = k.clamp(1, members.len() - 1);
            } else {
                k = 0;
            }
            for &i in &members[..k] {
                test[i] = true;
            }
        }
        let (te, tr): (Vec<usize>, Vec<usize>) = (0..self.rows()).partition(|&i| test[i]);
        if te.is_empty() || tr.is_empty() {
            return Err(bad("one side would be empty"));
        }
        Ok((self.select(&tr), self.select(&te)))
    }
}

/// Inflates `bytes` if they start with the gzip magic, else returns them as they are.
fn maybe_gunzip(bytes: Vec<u8>, path: &Path) -> Result<Vec<u8>, DataError> {
    if bytes.len() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_end(&mut out).map_err(|e| DataError::Gzip { path: path.to_path_buf(), reason: e.to_string() })?;
        Ok(out)
    } else {
        Ok(bytes)
    }
}

fn read_file(path: &Path) -> Result<Vec<u8>, DataError> {
    let bytes = std::fs::read(path).map_err(|e| DataError::Io { path: path.to_path_buf(), reason: e.to_string() })?;
    maybe_gunzip(bytes, path)
}

/// Parses the digits CSV (64 pixel counts 0..16, then the label 0..9 per line).
pub fn parse_digits_csv(text: &str, what: &str) -> Result<Dataset, DataError> {
    const FEATURES: usize = 64;
    let mut x = Vec::new();
    let mut y = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let err = |reason: String| DataError::Csv { what: what.to_string(), line: n + 1, reason };
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != FEATURES + 1 {
            return Err(err(format!("{} fields, expected {}", fields.len(), FEATURES + 1)));
        }
        for f in &fields[..FEATURES] {
            let v: u32 = f.trim().parse().map_err(|_| err(format!("pixel `{f}` is not an integer")))?;
            if v > 16 {
                return Err(err(format!("pixel {v} is above 16")));
            }
            x.push(v as f32 / 16.0);
        }
        let label: u32 = fields[FEATURES].trim().parse().map_err(|_| err(format!("label `{}` is not an integer", fields[FEATURES])))?;
        if label > 9 {
            return Err(err(format!("label {label} is not a digit")));
        }
        y.push(label);
    }
    if y.is_empty() {
        return Err(DataError::Empty { what: what.to_string() });
    }
    Dataset::new(x, y, FEATURES, 10)
}

/// The embedded digits set: 1,797 8×8 images in 10 classes.
pub fn digits() -> Result<Dataset, DataError> {
    let path = Path::new("<embedded digits.csv.gz>");
    let bytes = maybe_gunzip(DIGITS_CSV_GZ.to_vec(), path)?;
    let text = String::from_utf8(bytes).map_err(|e| DataError::Csv { what: path.display().to_string(), line: 0, reason: e.to_string() })?;
    parse_digits_csv(&text, "embedded digits.csv.gz")
}

const IDX_IMAGES_MAGIC: u32 = 0x0000_0803;
const IDX_LABELS_MAGIC: u32 = 0x0000_0801;

fn be_u32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Checks an IDX header (magic, dimension count) and the payload size; returns the dimensions.
fn idx_header(bytes: &[u8], path: &Path, magic: u32, dims: usize, what: &'static str) -> Result<Vec<usize>, DataError> {
    let header = 4 + 4 * dims;
    if bytes.len() < 4 {
        return Err(DataError::Truncated { path: path.to_path_buf(), expected: header as u64, got: bytes.len() as u64 });
    }
    let found = be_u32(bytes, 0);
    if found != magic {
        return Err(DataError::BadMagic { path: path.to_path_buf(), found, expected: magic, what });
    }
    if bytes.len() < header {
        return Err(DataError::Truncated { path: path.to_path_buf(), expected: header as u64, got: bytes.len() as u64 });
    }
    let d: Vec<usize> = (0..dims).map(|i| be_u32(bytes, 4 + 4 * i) as usize).collect();
    let payload = d.iter().try_fold(1u64, |acc, &x| acc.checked_mul(x as u64));
    let expected = payload.and_then(|p| p.checked_add(header as u64)).unwrap_or(u64::MAX);
    let got = bytes.len() as u64;
    if got < expected {
        return Err(DataError::Truncated { path: path.to_path_buf(), expected, got });
    }
    if got > expected {
        return Err(DataError::TrailingBytes { path: path.to_path_buf(), extra: got - expected });
    }
    Ok(d)
}

/// Reads an IDX image file (`idx3-ubyte`, raw or gzip): (count, rows·cols, pixels in [0, 1]).
pub fn read_idx_images(path: &Path) -> Result<(usize, usize, Vec<f32>), DataError> {
    let bytes = read_file(path)?;
    let d = idx_header(&bytes, path, IDX_IMAGES_MAGIC, 3, "IDX unsigned-byte images, 3 dimensions")?;
    let (n, features) = (d[0], d[1] * d[2]);
    if features == 0 {
        return Err(DataError::BadHeader { path: path.to_path_buf(), reason: format!("images of {}×{} pixels", d[1], d[2]) });
    }
    let pixels = bytes[16..].iter().map(|&p| f32::from(p) / 255.0).collect();
    Ok((n, features, pixels))
}

/// Reads an IDX label file (`idx1-ubyte`, raw or gzip).
pub fn read_idx_labels(path: &Path) -> Result<Vec<u32>, DataError> {
    let bytes = read_file(path)?;
    idx_header(&bytes, path, IDX_LABELS_MAGIC, 1, "IDX unsigned-byte labels, 1 dimension")?;
    Ok(bytes[8..].iter().map(|&l| u32::from(l)).collect())
}

/// An image file and a label file as one dataset of `classes` classes.
pub fn read_idx_pair(images: &Path, labels: &Path, classes: usize) -> Result<Dataset, DataError> {
    let (n, features, x) = read_idx_images(images)?;
    let y = read_idx_labels(labels)?;
    if n != y.len() {
        return Err(DataError::CountMismatch { images: n, labels: y.len() });
    }
    if n == 0 {
        return Err(DataError::Empty { what: images.display().to_string() });
    }
    Dataset::new(x, y, features, classes)
}

/// The file for `stem` in `dir`: `stem`, `stem.gz`, or the same with the last `-` as `.`
/// (`train-images.idx3-ubyte`, a common spelling).
fn find_idx(dir: &Path, stem: &str, what: &'static str) -> Result<PathBuf, DataError> {
    let dotted = match stem.rfind('-') {
        Some(i) => format!("{}.{}", &stem[..i], &stem[i + 1..]),
        None => stem.to_string(),
    };
    let names = [stem.to_string(), format!("{stem}.gz"), dotted.clone(), format!("{dotted}.gz")];
    names.iter().map(|n| dir.join(n)).find(|p| p.is_file()).ok_or_else(|| DataError::MissingFile { dir: dir.to_path_buf(), what, tried: names.join(", ") })
}

/// MNIST (or any dataset in its layout) from a directory: (train, test), 10 classes.
pub fn load_mnist(dir: &Path) -> Result<(Dataset, Dataset), DataError> {
    let train =
        read_idx_pair(&find_idx(dir, "train-images-idx3-ubyte", "training images")?, &find_idx(dir, "train-labels-idx1-ubyte", "training labels")?, 10)?;
    let test = read_idx_pair(&find_idx(dir, "t10k-images-idx3-ubyte", "test images")?, &find_idx(dir, "t10k-labels-idx1-ubyte", "test labels")?, 10)?;
    if train.features != test.features {
        return Err(DataError::BadHeader {
            path: dir.to_path_buf(),
            reason: format!("training images have {} pixels, test images {}", train.features, test.features),
        });
    }
    Ok((train, test))
}

/// Writes an IDX image file (for tests and tools): `images` is n×rows×cols bytes.
pub fn write_idx_images(path: &Path, n: usize, rows: usize, cols: usize, images: &[u8]) -> std::io::Result<()> {
    let mut b = Vec::with_capacity(16 + images.len());
    for v in [IDX_IMAGES_MAGIC, n as u32, rows as u32, cols as u32] {
        b.extend_from_slice(&v.to_be_bytes());
    }
    b.extend_from_slice(images);
    std::fs::write(path, b)
}

/// Writes an IDX label file (for tests and tools).
pub fn write_idx_labels(path: &Path, labels: &[u8]) -> std::io::Result<()> {
    let mut b = Vec::with_capacity(8 + labels.len());
    b.extend_from_slice(&IDX_LABELS_MAGIC.to_be_bytes());
    b.extend_from_slice(&(labels.len() as u32).to_be_bytes());
    b.extend_from_slice(labels);
    std::fs::write(path, b)
}

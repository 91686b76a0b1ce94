//! Saving and loading a network's parameters in the safetensors format: tensors
//! `layers.{l}.weight` (out×in, f32) and `layers.{l}.bias` (out), and metadata giving the
//! activation and layer sizes. A file that does not describe a consistent network is an error.

use std::collections::HashMap;
use std::path::Path;

use safetensors::tensor::{Dtype, SafeTensors, TensorView};

use super::{Activation, Architecture, LayerParams, Params};
use crate::error::{Error, Result};

const FORMAT: &str = "host-mlp-v1";

fn act_name(a: Activation) -> &'static str {
    match a {
        Activation::Identity => "identity",
        Activation::Sigmoid => "sigmoid",
        Activation::Relu => "relu",
        Activation::Tanh => "tanh",
    }
}

/// The activation called `name` (`relu`, `sigmoid`, `tanh`, `identity`).
pub fn parse_activation(name: &str) -> Option<Activation> {
    Activation::ALL.into_iter().find(|&a| act_name(a) == name)
}

fn to_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The parameters as safetensors bytes.
pub fn to_safetensors(params: &Params) -> Result<Vec<u8>> {
    params.validate()?;
    let bytes: Vec<(String, Vec<usize>, Vec<u8>)> = params
        .layers
        .iter()
        .enumerate()
        .flat_map(|(l, p)| {
            [(format!("layers.{l}.weight"), vec![p.outputs, p.inputs], to_bytes(&p.w)), (format!("layers.{l}.bias"), vec![p.outputs], to_bytes(&p.b))]
        })
        .collect();
    let views = bytes
        .iter()
        .map(|(name, shape, data)| TensorView::new(Dtype::F32, shape.clone(), data).map(|v| (name.clone(), v)))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| Error::InvalidArgument { op: "to_safetensors", reason: e.to_string() })?;
    let sizes = params.arch.sizes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",");
    let meta = HashMap::from([
        ("format".to_string(), FORMAT.to_string()),
        ("activation".to_string(), act_name(params.arch.act).to_string()),
        ("sizes".to_string(), sizes),
    ]);
    safetensors::serialize(views, &Some(meta)).map_err(|e| Error::InvalidArgument { op: "to_safetensors", reason: e.to_string() })
}

/// Parameters from safetensors bytes; `path` names the source in errors.
pub fn from_safetensors(bytes: &[u8], path: &Path) -> Result<Params> {
    let bad = |reason: String| Error::ModelFile { path: path.to_path_buf(), reason };
    let (_, meta) = SafeTensors::read_metadata(bytes).map_err(|e| bad(format!("not a safetensors file: {e}")))?;
    let info = meta.metadata().clone().unwrap_or_default();
    if info.get("format").map(String::as_str) != Some(FORMAT) {
        return Err(bad(format!("metadata `format` is {:?}, expected {FORMAT:?}", info.get("format"))));
    }
    let act = info.get("activation").and_then(|a| parse_activation(a)).ok_or_else(|| bad(format!("unknown activation {:?}", info.get("activation"))))?;
    let sizes: Vec<usize> = info
        .get("sizes")
        .ok_or_else(|| bad("metadata has no `sizes`".into()))?
        .split(',')
        .map(|s| s.trim().parse::<usize>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| bad(format!("bad `sizes`: {e}")))?;
    let arch = Architecture { sizes, act };
    arch.validate().map_err(|e| bad(e.to_string()))?;
    let st = SafeTensors::deserialize(bytes).map_err(|e| bad(e.to_string()))?;
    let expected = 2 * arch.layers();
    if st.len() != expected {
        return Err(bad(format!("{} tensors, expected {expected} for sizes {:?}", st.len(), arch.sizes)));
    }
    let read = |name: String, shape: &[usize]| -> Result<Vec<f32>> {
        let t = st.tensor(&name).map_err(|e| bad(format!("{name}: {e}")))?;
        if t.dtype() != Dtype::F32 || t.shape() != shape {
            return Err(bad(format!("{name}: {:?} {:?}, expected F32 {shape:?}", t.dtype(), t.shape())));
        }
        Ok(t.data().chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    };
    let layers = (0..arch.layers())
        .map(|l| {
            let (i, o) = (arch.sizes[l], arch.sizes[l + 1]);
            Ok(LayerParams { w: read(format!("layers.{l}.weight"), &[o, i])?, b: read(format!("layers.{l}.bias"), &[o])?, inputs: i, outputs: o })
        })
        .collect::<Result<_>>()?;
    let params = Params { arch, layers };
    params.validate().map_err(|e| bad(e.to_string()))?;
    Ok(params)
}

/// Writes the parameters to `path` through [`write_atomically`]: a save that fails part way
/// (disk full, killed, power lost) leaves the previous model file as it was.
pub fn save(params: &Params, path: &Path) -> Result<()> {
    let bytes = to_safetensors(params)?;
    write_atomically(path, |w| w.write_all(&bytes))
}

/// Replaces `path` with what `write` writes, or leaves it untouched: the bytes go to a temporary
/// file in the same folder (a rename is atomic only within one file system), which is synced to
/// disk, given the old file's permissions and renamed over `path`; then the folder is synced, so
/// the rename itself survives a crash. On any error the temporary file is removed.
pub fn write_atomically(path: &Path, write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let fail = |what: &str, e: std::io::Error| Error::ModelFile { path: path.to_path_buf(), reason: format!("{what}: {e}") };
    let name = path.file_name().ok_or_else(|| fail("saving", std::io::Error::other("the path names no file")))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = dir.join(format!(".{}.{}-{}.tmp", name.to_string_lossy(), std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed)));
    let result = (|| {
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp).map_err(|e| fail("creating a temporary file", e))?;
        write(&mut file).map_err(|e| fail("writing", e))?;
        file.sync_all().map_err(|e| fail("syncing", e))?;
        if let Ok(old) = std::fs::metadata(path) {
            file.set_permissions(old.permissions()).map_err(|e| fail("copying permissions", e))?;
        }
        drop(file);
        std::fs::rename(&tmp, path).map_err(|e| fail("renaming the temporary file over it", e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
        return result;
    }
    // Syncing the folder makes the rename durable; some file systems cannot sync a folder.
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Reads parameters from `path`.
pub fn load(path: &Path) -> Result<Params> {
    let bytes = std::fs::read(path).map_err(|e| Error::ModelFile { path: path.to_path_buf(), reason: e.to_string() })?;
    from_safetensors(&bytes, path)
}

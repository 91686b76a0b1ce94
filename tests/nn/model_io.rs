use host::Error;
use host::nn::{Activation, io};
use integration_tests::Suite;

use crate::data::TempDir;
use crate::grad::random_params;

pub fn register(s: &mut Suite) {
    s.cpu("io::safetensors_round_trip", |rng| {
        let dir = TempDir::new("st");
        for act in [Activation::Relu, Activation::Sigmoid, Activation::Tanh] {
            let p = random_params(rng, &[13, 11, 7, 3], act);
            let path = dir.path(&format!("{act:?}.safetensors"));
            io::save(&p, &path).map_err(|e| e.to_string())?;
            let q = io::load(&path).map_err(|e| e.to_string())?;
            if q != p {
                return Err(format!("{act:?}: loaded parameters differ from the saved ones"));
            }
            let bits = |p: &host::nn::Params| p.layers.iter().flat_map(|l| l.w.iter().chain(&l.b)).map(|v| v.to_bits()).collect::<Vec<_>>();
            if bits(&q) != bits(&p) {
                return Err("not bit-exact".into());
            }
        }
        Ok(())
    });
    s.cpu("io::failed_save_keeps_the_previous_file", |rng| {
        let dir = TempDir::new("stfail");
        let path = dir.path("model.safetensors");
        let old = random_params(rng, &[6, 5, 3], Activation::Relu);
        io::save(&old, &path).map_err(|e| e.to_string())?;
        let before = std::fs::read(&path).map_err(|e| e.to_string())?;
        let new_bytes = io::to_safetensors(&random_params(rng, &[9, 8, 4], Activation::Tanh)).map_err(|e| e.to_string())?;
        let intact = |what: &str| -> Result<(), String> {
            if std::fs::read(&path).map_err(|e| e.to_string())? != before {
                return Err(format!("{what}: the previous model file changed"));
            }
            if io::load(&path).map_err(|e| format!("{what}: {e}"))? != old {
                return Err(format!("{what}: the previous model no longer loads as itself"));
            }
            let left: Vec<_> = std::fs::read_dir(&dir.0).map_err(|e| e.to_string())?.flatten().map(|e| e.file_name()).collect();
            if left.len() != 1 {
                return Err(format!("{what}: files left behind: {left:?}"));
            }
            Ok(())
        };
        // A write error half way through the new model (as a full disk gives).
        let r = io::write_atomically(&path, |w| {
            w.write_all(&new_bytes[..new_bytes.len() / 2])?;
            Err(std::io::Error::other("injected write error"))
        });
        match r {
            Err(Error::ModelFile { reason, .. }) if reason.contains("injected write error") => {}
            other => return Err(format!("injected error: expected a ModelFile error, got {other:?}")),
        }
        intact("after an injected write error")?;
        // A read-only folder (only where permissions apply: root writes anyway).
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o555)).map_err(|e| e.to_string())?;
            let probe = dir.path("probe");
            let enforced = std::fs::File::create(&probe).is_err();
            let _ = std::fs::remove_file(&probe);
            if enforced {
                let r = io::save(&random_params(rng, &[9, 8, 4], Activation::Tanh), &path);
                std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())?;
                if !matches!(r, Err(Error::ModelFile { .. })) {
                    return Err(format!("save into a read-only folder: expected a ModelFile error, got {r:?}"));
                }
                intact("after a save into a read-only folder")?;
            } else {
                std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())?;
            }
        }
        // And a save that succeeds replaces the file whole, keeping its permissions.
        #[cfg(unix)]
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o600)).map_err(|e| e.to_string())?;
        io::write_atomically(&path, |w| w.write_all(&new_bytes)).map_err(|e| e.to_string())?;
        if std::fs::read(&path).map_err(|e| e.to_string())? != new_bytes {
            return Err("a successful save did not write the new model".into());
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).map_err(|e| e.to_string())?.permissions().mode() & 0o777;
            if mode != 0o600 {
                return Err(format!("the saved file's mode is {mode:o}, the previous file's was 600"));
            }
        }
        Ok(())
    });
    s.cpu("io::malformed_model_files", |rng| {
        let dir = TempDir::new("stbad");
        let p = random_params(rng, &[4, 5, 3], Activation::Relu);
        let good = io::to_safetensors(&p).map_err(|e| e.to_string())?;
        let is_model_err = |r: host::Result<host::nn::Params>, what: &str| match r {
            Err(Error::ModelFile { reason, .. }) if !reason.is_empty() => Ok(()),
            Err(e) => Err(format!("{what}: unexpected error {e}")),
            Ok(_) => Err(format!("{what}: loaded")),
        };
        let path = std::path::Path::new("test.safetensors");
        is_model_err(io::from_safetensors(b"not a model", path), "garbage")?;
        is_model_err(io::from_safetensors(&good[..good.len() - 5], path), "truncated")?;
        is_model_err(io::from_safetensors(&[], path), "empty")?;
        let swap = |from: &str, to: &str| -> Vec<u8> {
            let s = String::from_utf8_lossy(&good).into_owned();
            assert_eq!(from.len(), to.len());
            let i = s.find(from).expect("metadata text present");
            let mut b = good.clone();
            b[i..i + from.len()].copy_from_slice(to.as_bytes());
            b
        };
        is_model_err(io::from_safetensors(&swap("4,5,3", "4,6,3"), path), "sizes that disagree with the tensors")?;
        is_model_err(io::from_safetensors(&swap("4,5,3", "4,5,x"), path), "unparsable sizes")?;
        is_model_err(io::from_safetensors(&swap("relu", "relx"), path), "unknown activation")?;
        is_model_err(io::from_safetensors(&swap("host-mlp-v1", "host-mlp-v9"), path), "another format")?;
        is_model_err(io::from_safetensors(&swap("layers.1.bias", "layers.7.bias"), path), "a missing tensor")?;
        // Same byte size, other dtype: rejected by the dtype check, not by a length mismatch.
        is_model_err(io::from_safetensors(&swap("\"F32\"", "\"I32\""), path), "wrong dtype (I32)")?;
        is_model_err(io::load(&dir.path("missing.safetensors")), "missing file")?;
        if io::parse_activation("tanh") != Some(Activation::Tanh) || io::parse_activation("gelu").is_some() {
            return Err("parse_activation".into());
        }
        Ok(())
    });
}

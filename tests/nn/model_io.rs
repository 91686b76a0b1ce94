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

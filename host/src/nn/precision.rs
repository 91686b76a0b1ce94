//! The arithmetic of the training step's GEMMs: FP32 on the CUDA cores (the default), TF32 tensor
//! cores, or BF16 mixed precision (bf16 copies of the weights and activations into the GEMMs,
//! f32 accumulation, f32 master weights). Softmax, loss, bias gradients and optimizer state stay
//! f32 in every mode.
//!
//! [`Precision::check_device`] is the decision, kept free of the GPU so it is unit-tested on any
//! machine: tensor cores need compute capability 8.0; where the PTX lacks the Hopper `wgmma`
//! kernels, the GEMMs fall back to `mma.sync` and a one-line notice says so.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

/// The arithmetic of every GEMM of a training step or forward pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Precision {
    /// FP32 on the CUDA cores (`GemmKernel::Auto`): the reference numerics.
    #[default]
    F32,
    /// Every GEMM (forward x·Wᵀ, input gradient dY·W, weight gradient dYᵀ·x) on TF32 tensor cores
    /// (`GemmKernel::Tf32Auto`): inputs rounded to 10 mantissa bits, f32 accumulation.
    Tf32,
    /// The GEMMs read bf16 copies of the weights, activations and output gradients (8 mantissa
    /// bits), accumulate in f32 and write f32; the optimizer updates f32 master weights and
    /// rewrites their bf16 copies in the same kernel.
    Bf16,
}

impl Precision {
    pub const ALL: [Precision; 3] = [Precision::F32, Precision::Tf32, Precision::Bf16];

    /// The name `--precision` takes.
    pub fn name(self) -> &'static str {
        match self {
            Precision::F32 => "f32",
            Precision::Tf32 => "tf32",
            Precision::Bf16 => "bf16",
        }
    }

    /// Whether this precision runs on tensor cores.
    pub fn uses_tensor_cores(self) -> bool {
        self != Precision::F32
    }

    /// Whether a GPU of compute capability `(major, minor)` named `device`, whose loaded PTX has
    /// the Hopper `wgmma` kernels or not (`wgmma`), can run this precision: `Err` with
    /// [`Error::UnsupportedPrecision`] naming the architecture needed (sm_80) below 8.0; `Ok`
    /// with a one-line notice when the tensor-core GEMMs fall back from `wgmma` (sm_90a only) to
    /// `mma.sync`; `Ok(None)` otherwise.
    pub fn check_device(self, device: &str, (major, minor): (i32, i32), wgmma: bool) -> Result<Option<String>> {
        if !self.uses_tensor_cores() {
            return Ok(None);
        }
        if major < 8 {
            return Err(Error::UnsupportedPrecision {
                precision: self.name(),
                device: device.to_string(),
                major,
                minor,
                needs: "sm_80 (compute capability 8.0, Ampere) or newer",
            });
        }
        if wgmma {
            return Ok(None);
        }
        Ok(Some(format!(
            "note: {} GEMMs run on mma.sync: the wgmma kernels need an sm_90a (Hopper) GPU and PTX, and {device} is compute capability {major}.{minor}",
            self.name()
        )))
    }
}

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Precision {
    type Err = Error;

    fn from_str(s: &str) -> Result<Precision> {
        Precision::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| Error::InvalidArgument { op: "Precision", reason: format!("unknown precision `{s}`: expected f32, tf32 or bf16") })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Precision::ALL {
            assert_eq!(p.name().parse::<Precision>().unwrap(), p);
        }
        assert_eq!("BF16".parse::<Precision>().unwrap(), Precision::Bf16);
        assert!(matches!("fp8".parse::<Precision>(), Err(Error::InvalidArgument { .. })));
        assert_eq!(Precision::default(), Precision::F32);
    }

    #[test]
    fn tensor_cores_need_sm80() {
        for p in [Precision::Tf32, Precision::Bf16] {
            let e = p.check_device("Tesla V100", (7, 0), false).unwrap_err();
            assert!(matches!(e, Error::UnsupportedPrecision { major: 7, minor: 0, .. }), "{e:?}");
            let msg = e.to_string();
            assert!(msg.contains("sm_80") && msg.contains(p.name()) && msg.contains("V100"), "{msg}");
            assert!(p.check_device("T4", (7, 5), false).is_err());
            assert_eq!(p.check_device("H100", (9, 0), true).unwrap(), None);
        }
        // F32 runs anywhere the kernels load.
        assert_eq!(Precision::F32.check_device("Tesla V100", (7, 0), false).unwrap(), None);
        assert_eq!(Precision::F32.check_device("A100", (8, 0), false).unwrap(), None);
    }

    #[test]
    fn mma_sync_fallback_is_noted() {
        for (p, cc) in [(Precision::Tf32, (8, 0)), (Precision::Bf16, (8, 6)), (Precision::Bf16, (9, 0))] {
            let note = p.check_device("GPU", cc, false).unwrap().expect("a notice without wgmma");
            assert!(note.contains("mma.sync") && note.contains("sm_90a") && !note.contains('\n'), "{note}");
        }
    }
}

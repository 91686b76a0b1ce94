//! Build tooling shared by `cargo xtask` and the host crate's build script.
//!
//! * [`ptx`] compiles `kernels/` with rustc's own `nvptx64-nvidia-cuda` backend and, because the
//!   `llvm-bitcode-linker` component is not installable here, acts itself as the NVPTX linker
//!   ([`linker`]): `llvm-link` → `opt` (internalize + O3) → `llc`, all from rustup's `llvm-tools`.
//! * [`ptxinfo`] reads PTX text: the `.entry` signatures and the source hash stamped into it.
//! * [`ptxas`] finds and runs NVIDIA's `ptxas` to validate PTX and report registers and spills.
//! * [`cubin`] assembles each PTX ahead of time, cached, for the host to embed beside the PTX.

pub mod cubin;
pub mod linker;
pub mod ptx;
pub mod ptxas;
pub mod ptxinfo;

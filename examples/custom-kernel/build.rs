//! Builds the kernels of `kernels/` to PTX (sm_80 and sm_90a) and, where ptxas is found, to
//! cubins, into OUT_DIR, whenever their sources change.

fn main() {
    // The builder links the PTX with this very executable: first thing in main.
    kernel_builder::linker::run_if_requested();
    kernel_builder::Builder::new("kernels").kernels(custom_kernels::KERNELS).build_for_cargo();
}

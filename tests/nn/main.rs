//! The MLP: data loaders (digits, IDX with malformed files), gradient checks of the CPU
//! reference against finite differences, CPU training, safetensors round trips; on the GPU, the
//! new kernels against the CPU reference, GPU vs CPU training from the same initial weights and
//! batches, the default run's accuracy, and save → load → evaluate.

mod data;
mod gpu;
mod grad;
mod kernels;
mod model_io;

fn main() {
    let mut suite = integration_tests::Suite::default();
    data::register(&mut suite);
    grad::register(&mut suite);
    model_io::register(&mut suite);
    kernels::register(&mut suite);
    gpu::register(&mut suite);
    suite.run()
}

//! Every op against its CPU reference on the GPU (fresh random inputs, outputs poisoned with NaN
//! first, odd sizes, empty inputs), bad-input errors, and the PTX contents.
//!
//! Without a CUDA device the GPU tests are listed as ignored, and the CPU ones still run.

mod activation;
mod dense;
mod elementwise;
mod matmul;
mod ptx;

fn main() {
    let mut suite = integration_tests::Suite::default();
    elementwise::register(&mut suite);
    activation::register(&mut suite);
    matmul::register(&mut suite);
    dense::register(&mut suite);
    ptx::register(&mut suite);
    suite.run()
}

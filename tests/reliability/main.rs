//! Reliability: bad input gives typed errors (never a panic or a wrong answer), property tests
//! of every op against its CPU reference over random shapes and special values, and several
//! threads with their own streams giving the same results as one.

mod bad_input;
mod concurrency;
mod properties;

fn main() {
    // The no-device check runs in a child process with the GPUs hidden.
    if bad_input::run_child_check_if_requested() {
        return;
    }
    let mut suite = integration_tests::Suite::default();
    bad_input::register(&mut suite);
    properties::register(&mut suite);
    concurrency::register(&mut suite);
    suite.run()
}

//! How large the long tests run: small by default, so that the README's
//! `cargo test --workspace` is quick on a fresh clone of a two-core
//! machine, and at full size where `WISER_TEST_FULL=1` (as `.ci/run`
//! runs the same command). A small run checks the same assertions on
//! fewer programs, shorter limits or fewer repetitions.

/// Are the long tests asked to run at full size (`WISER_TEST_FULL=1`)?
pub fn full_size() -> bool {
    std::env::var_os("WISER_TEST_FULL").is_some_and(|v| v != "0" && !v.is_empty())
}

/// `full` where the long tests run at full size, else `small`.
pub fn sized<T>(small: T, full: T) -> T {
    if full_size() {
        full
    } else {
        small
    }
}

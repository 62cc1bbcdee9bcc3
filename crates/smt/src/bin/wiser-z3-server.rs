//! Serves the solver protocol on standard input and output: the child
//! process of a `ProcessSolver` in this crate's tests (`wiser` itself
//! re-executes itself as `wiser __solver-server` instead).

fn main() -> std::process::ExitCode {
    match wiser_smt::serve_stdio() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(_) => std::process::ExitCode::FAILURE,
    }
}

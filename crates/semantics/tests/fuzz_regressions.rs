//! Regression tests for problems found while fuzzing the front end
//! (`fuzz/`, target `parse`, which parses, checks and lowers any input).

use wiser_imp::compile;
use wiser_imp::MAX_NESTING;
use wiser_semantics::{concrete, Input};

/// Runs `f` on a thread with a 2 MiB stack, the size of test threads and
/// a common default for spawned threads.
fn on_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// Statements nested just under `MAX_NESTING` are accepted by the parser
/// and `check` (which run on a deep stack), but `lower` recursed over them
/// on the caller's stack and overflowed it in unoptimised builds: `compile`
/// aborted the process with a stack overflow.
#[test]
fn compiling_deeply_nested_statements_does_not_overflow_the_stack() {
    let n = MAX_NESTING - 10;
    let ifs = format!(
        "{}x = x + 1{}",
        "if x < 1 then ".repeat(n),
        " else skip fi".repeat(n)
    );
    let whiles = format!(
        "{}x = x + 1{}",
        "while x < 1 do ".repeat(n),
        " od".repeat(n)
    );
    for src in [ifs, whiles] {
        let steps = on_small_stack(move || {
            let ir = compile(&src).expect("nesting below the limit compiles");
            assert!(ir.code.len() > n);
            concrete::run(&ir, &Input::default(), 100_000).steps
        });
        assert!(steps > 0);
    }
}

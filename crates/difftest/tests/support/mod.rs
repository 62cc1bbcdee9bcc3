//! What the differential tester's tests share (each has `mod support;`):
//! limits for a debug build and the loop over generated programs.

use std::time::Duration;
use wiser_difftest::{run_program, Limits, Options, Summary};

/// Limits for a search in a debug build: 10 s per program, 2 s per
/// solver query.
pub fn limits() -> Limits {
    Limits {
        timeout: Duration::from_secs(10),
        solver_timeout: Duration::from_secs(2),
        ..Limits::default()
    }
}

/// Runs programs `0..count` of `seed` under `opts` and asserts that none
/// is invalid and none disagrees; a disagreement's message ends with
/// `detail(i)` (the program in another language, say). Returns the
/// summary.
pub fn run_all(seed: u64, count: u64, opts: &Options, detail: impl Fn(u64) -> String) -> Summary {
    let mut summary = Summary::default();
    let mut problems = Vec::new();
    for i in 0..count {
        let r = run_program(seed, i, opts);
        match &r.result {
            Err(e) => problems.push(format!("program {i} is invalid ({e}):\n{}", r.source)),
            Ok(c) => {
                for d in &c.disagreements {
                    problems.push(format!("program {i}: {d}\n{}{}", r.source, detail(i)));
                }
            }
        }
        summary.add(&r);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    summary
}

//! A quick differential run: 50 small generated programs, no disagreement
//! and no invalid program. A search the solver cannot finish (`unknown`,
//! on hard nonlinear constraints) is tolerated here but counted by the
//! binary's summary.

use std::time::Duration;
use wiser_difftest::{run_program, GenConfig, Limits, Options, Summary};

#[test]
fn fifty_generated_programs_agree() {
    let opts = Options {
        gen: GenConfig::small(),
        limits: Limits {
            timeout: Duration::from_secs(10),
            solver_timeout: Duration::from_secs(2),
            ..Limits::default()
        },
        shrink: None,
        out_dir: None,
        lang: wiser_difftest::Lang::Imp,
    };
    let mut summary = Summary::default();
    let mut problems = Vec::new();
    for i in 0..50 {
        let r = run_program(2024, i, &opts);
        match &r.result {
            Err(e) => problems.push(format!("program {i} is invalid ({e}):\n{}", r.source)),
            Ok(c) => {
                for d in &c.disagreements {
                    problems.push(format!("program {i}: {d}\n{}", r.source));
                }
            }
        }
        summary.add(&r);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    if summary.unknowns > 0 {
        eprintln!("{} of 50 searches were not exhaustive", summary.unknowns);
    }
    // The generator makes all three kinds of program.
    assert!(summary.safe > 0 && summary.common > 0, "{summary:?}");
}

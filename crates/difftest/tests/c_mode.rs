//! The C mode of the differential tester: 30 small generated programs
//! with fixed-width types, each rendered as IMP and as C with the same
//! meaning; the C front end's programs must agree with the enumeration of
//! the IMP programs on every run, and its searches with the enumeration
//! and with the IMP searches. No program may lack a C rendering.

use std::time::Duration;
use wiser_difftest::{run_program, GenConfig, Lang, Limits, Options, Summary};

#[test]
fn thirty_programs_mean_the_same_in_c() {
    let opts = Options {
        gen: GenConfig::small(),
        limits: Limits {
            timeout: Duration::from_secs(10),
            solver_timeout: Duration::from_secs(2),
            ..Limits::default()
        },
        shrink: None,
        out_dir: None,
        lang: Lang::C,
    };
    let mut summary = Summary::default();
    let mut problems = Vec::new();
    for i in 0..30 {
        let r = run_program(2025, i, &opts);
        match &r.result {
            Err(e) => problems.push(format!("program {i} is invalid ({e}):\n{}", r.source)),
            Ok(c) => {
                for d in &c.disagreements {
                    let text = wiser_testkit::render_c(&wiser_difftest::generate(
                        2025,
                        i,
                        &GenConfig::small().for_c(),
                    ))
                    .map(|c| c.text)
                    .unwrap_or_default();
                    problems.push(format!("program {i}: {d}\n{}\n{text}", r.source));
                }
            }
        }
        summary.add(&r);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    if summary.unknowns > 0 {
        eprintln!("{} of 30 C searches were not exhaustive", summary.unknowns);
    }
    assert!(
        summary.safe > 0 && summary.common + summary.rare > 0,
        "{summary:?}"
    );
}

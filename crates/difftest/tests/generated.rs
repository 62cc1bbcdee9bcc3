//! A quick differential run: 50 small generated programs, no disagreement
//! and no invalid program. A search the solver cannot finish (`unknown`,
//! on hard nonlinear constraints) is tolerated here but counted by the
//! binary's summary.

mod support;

use wiser_difftest::{GenConfig, Options};

#[test]
fn fifty_generated_programs_agree() {
    let opts = Options {
        gen: GenConfig::small(),
        limits: support::limits(),
        shrink: None,
        out_dir: None,
        lang: wiser_difftest::Lang::Imp,
    };
    let summary = support::run_all(2024, 50, &opts, |_| String::new());
    if summary.unknowns > 0 {
        eprintln!("{} of 50 searches were not exhaustive", summary.unknowns);
    }
    // The generator makes all three kinds of program.
    assert!(summary.safe > 0 && summary.common > 0, "{summary:?}");
}

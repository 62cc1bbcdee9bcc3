//! The C mode of the differential tester: 30 small generated programs
//! with fixed-width types, each rendered as IMP and as C with the same
//! meaning; the C front end's programs must agree with the enumeration of
//! the IMP programs on every run, and its searches with the enumeration
//! and with the IMP searches. No program may lack a C rendering.

mod support;

use wiser_difftest::{GenConfig, Lang, Options};

#[test]
fn thirty_programs_mean_the_same_in_c() {
    let opts = Options {
        gen: GenConfig::small(),
        limits: support::limits(),
        shrink: None,
        out_dir: None,
        lang: Lang::C,
    };
    let c_text = |i| {
        let text = wiser_testkit::render_c(&wiser_difftest::generate(
            2025,
            i,
            &GenConfig::small().for_c(),
        ))
        .map(|c| c.text)
        .unwrap_or_default();
        format!("\n{text}")
    };
    let summary = support::run_all(2025, 30, &opts, c_text);
    if summary.unknowns > 0 {
        eprintln!("{} of 30 C searches were not exhaustive", summary.unknowns);
    }
    assert!(
        summary.safe > 0 && summary.common + summary.rare > 0,
        "{summary:?}"
    );
}

//! The heap and thread modes of the differential tester: a few generated
//! programs of each, compared with enumeration over every input heap up
//! to the bound, or over every schedule (the engine with and without
//! partial-order reduction). No disagreement, no invalid program, and the
//! programs are not vacuous (both verdicts occur).

mod support;

use wiser_difftest::{Features, GenConfig, Lang, Limits, Options, Summary};

fn run(features: Features, count: u64) -> Summary {
    let opts = Options {
        gen: GenConfig::small(),
        limits: Limits {
            // Debug builds: programs with more schedules are skipped.
            max_schedule_states: 300_000,
            ..support::limits()
        },
        shrink: None,
        out_dir: None,
        lang: Lang::Objects(features),
    };
    support::run_all(2026, count, &opts, |_| String::new())
}

#[test]
fn heap_programs_agree_with_every_input_heap() {
    let s = run(Features::Heap, 12);
    assert!(s.safe + s.common + s.rare > s.unknowns, "{s:?}");
    assert!(s.common + s.rare > 0, "{s:?}");
}

#[test]
fn thread_programs_agree_with_every_schedule_with_and_without_por() {
    let s = run(Features::Threads, 12);
    assert!(s.safe > 0 && s.common + s.rare > 0, "{s:?}");
}

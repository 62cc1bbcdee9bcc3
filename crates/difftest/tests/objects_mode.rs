//! The heap and thread modes of the differential tester: a few generated
//! programs of each, compared with enumeration over every input heap up
//! to the bound, or over every schedule (the engine with and without
//! partial-order reduction). No disagreement, no invalid program, and the
//! programs are not vacuous (both verdicts occur).

use std::time::Duration;
use wiser_difftest::{run_program, Features, GenConfig, Lang, Limits, Options, Summary};

fn run(features: Features, count: u64) -> Summary {
    let opts = Options {
        gen: GenConfig::small(),
        limits: Limits {
            timeout: Duration::from_secs(10),
            solver_timeout: Duration::from_secs(2),
            // Debug builds: programs with more schedules are skipped.
            max_schedule_states: 300_000,
            ..Limits::default()
        },
        shrink: None,
        out_dir: None,
        lang: Lang::Objects(features),
    };
    let mut summary = Summary::default();
    let mut problems = Vec::new();
    for i in 0..count {
        let r = run_program(2026, i, &opts);
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
    summary
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

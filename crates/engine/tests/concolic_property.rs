//! Fuzzing agrees with `check` on small random programs of the testkit:
//! every bug `fuzz` reports is one `check --all` reports (both replay
//! their witnesses, so a fuzz bug outside check's list would be a miss of
//! check's or a false bug of fuzz's), and when `check` says `safe`, fuzz
//! finds nothing. Fuzzing starts from the all-zero input and is cut by a
//! run limit; it is not complete, so no inclusion the other way.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;
use wiser_engine::concolic::{fuzz, FuzzLimits};
use wiser_engine::{symex, Config, Monitor, Verdict};
use wiser_semantics::{Input, Options};
use wiser_testkit::{compile, generate, loc, GenConfig, Loc};

#[test]
fn fuzz_bugs_are_check_bugs_and_safe_means_no_fuzz_bug() {
    let gen = GenConfig::small();
    let (mut compared, mut safe, mut fuzz_bugs) = (0, 0, 0);
    for i in 0..40 {
        let p = generate(0x5a6e, i, &gen);
        let Ok(ir) = compile(&p.source(), &p.spec) else {
            continue;
        };
        let options = Options {
            wrap_signed: p.spec.wrap_signed,
            ..Options::default()
        };
        let config = Config::default()
            .with_all_bugs(true)
            .with_options(options)
            .with_max_states(200_000)
            .with_timeout(Some(Duration::from_secs(20)));
        let report = symex(&ir, &config);
        if !report.incomplete.is_empty() && report.verdict != Verdict::Bug {
            continue;
        }
        let exhaustive = report.incomplete.is_empty();
        let checked: BTreeSet<Loc> = report
            .bugs
            .iter()
            .map(|b| loc(b.kind, b.span, &b.stack))
            .collect();
        let limits = FuzzLimits {
            max_runs: 200,
            max_steps: 100_000,
        };
        let fuzzed = fuzz(
            Arc::new(ir),
            Input::default(),
            &config.clone().with_timeout(Some(Duration::from_secs(10))),
            limits,
            Arc::new(Monitor::new()),
        );
        assert!(
            fuzzed.internal_errors.is_empty(),
            "program {i}: {:?}",
            fuzzed.internal_errors
        );
        compared += 1;
        fuzz_bugs += fuzzed.bugs.len();
        if report.verdict == Verdict::Safe {
            safe += 1;
            assert!(
                fuzzed.bugs.is_empty(),
                "program {i}: check says safe, fuzz found {:?}\n{}",
                fuzzed.bugs,
                p.source()
            );
        }
        if exhaustive {
            for b in &fuzzed.bugs {
                let at = loc(b.kind, b.span, &b.stack);
                assert!(
                    checked.contains(&at),
                    "program {i}: fuzz found {at:?}, check --all did not\n{}",
                    p.source()
                );
            }
        }
    }
    // The comparison must have compared something of each kind.
    assert!(compared >= 20, "only {compared} programs compared");
    assert!(
        safe >= 1 && fuzz_bugs >= 1,
        "safe {safe}, fuzz bugs {fuzz_bugs}"
    );
}

//! Every program in `regressions/` (reproducers written by
//! `wiser-difftest`, and hand-written ones) goes through the same
//! comparison, with both search strategies and with each kind of state
//! merging: the engine must agree with enumeration and decide (no
//! `unknown`).

use wiser_difftest::{compare_text, regressions_dir, strategy_name, Class, Limits};
use wiser_engine::{MergeMode, Strategy};

#[test]
fn every_regression_agrees_with_enumeration() {
    let dir = regressions_dir();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "imp"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let limits = Limits::default();
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let searches = [
            (Strategy::Bfs, MergeMode::None),
            (Strategy::Dfs, MergeMode::None),
            (Strategy::Bfs, MergeMode::Joins),
            (Strategy::Bfs, MergeMode::Auto),
        ];
        for (strategy, merge) in searches {
            let what = format!(
                "{} [{}, merge {}]",
                path.display(),
                strategy_name(strategy),
                merge.name()
            );
            match compare_text(&text, strategy, merge, &limits) {
                Err(e) => failures.push(format!("{what}: cannot compare: {e}")),
                Ok(c) => {
                    for d in &c.disagreements {
                        failures.push(format!("{what}: {d}"));
                    }
                    if c.unknown() {
                        failures.push(format!(
                            "{what}: not decided: {:?} {:?}",
                            c.verdict, c.incomplete
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The hand-written program is not vacuous: it has a rare bug and a
/// common one, and the engine finds both.
#[test]
fn hand_written_negative_division_has_bugs() {
    let text = std::fs::read_to_string(regressions_dir().join("hand_negative_division.imp"))
        .expect("the hand-written regression exists");
    let c = compare_text(&text, Strategy::Bfs, MergeMode::None, &Limits::default())
        .expect("comparable");
    assert!(c.disagreements.is_empty(), "{:?}", c.disagreements);
    assert_eq!(c.class, Class::Common);
    assert_eq!(c.verdict, wiser_engine::Verdict::Bug);
    // The `fail` (x == -7, y in {-4, -3}) and the division by zero.
    assert!(c.failing > 0 && c.failing < c.runs);
}

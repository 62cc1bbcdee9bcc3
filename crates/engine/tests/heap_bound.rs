//! The input heap's bound (`--max-objects N`) is a bound: input
//! references range over `null` and the objects `1..=N`, which loses no
//! input only for a path that reads at most `N` references from the input
//! heap (input reference variables count from the start). A run that
//! excluded inputs that way never says `safe`: not with `N = 0` (every
//! input reference `null`), not with fewer objects than input references,
//! in every engine; with a bound large enough the bug is found.

use std::path::Path;
use std::sync::Arc;
use wiser_engine::concolic::{fuzz, run, FuzzLimits, RunOutcome};
use wiser_engine::{bmc, symex, Bmc, Config, Incomplete, Monitor, Report, Verdict};
use wiser_ir::{ErrorKind, Ir};
use wiser_semantics::{Bound, Input, Options};

/// The example `name` of `examples/`, compiled.
fn example(name: &str) -> Arc<Ir> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    let src = std::fs::read_to_string(&path).expect("the example exists");
    Arc::new(wiser_imp::compile(&src).expect("the example compiles"))
}

/// Two input references that the assertion says are the same object:
/// the bug needs two objects.
const TWO_OBJECTS: &str = "class C begin f: int end
var x: C;
var y: C;
assume x != null and y != null;
assert x == y";

fn config(max_objects: u32) -> Config {
    Config::default().with_jobs(1).with_options(Options {
        max_objects: Some(max_objects),
        ..Options::default()
    })
}

fn checked(ir: &Ir, max_objects: u32) -> Report {
    symex(ir, &config(max_objects))
}

fn model_checked(ir: &Arc<Ir>, max_objects: u32) -> Report {
    let bounds = Bmc {
        unwind: 8,
        ..Bmc::default()
    };
    let monitor = Arc::new(Monitor::new());
    bmc(ir.clone(), &config(max_objects), &bounds, monitor)
}

/// Not `safe`, and `heap_bound` is among the reasons.
fn assert_cut(report: &Report, what: &str) {
    assert_eq!(report.verdict, Verdict::Unknown, "{what}: {report:?}");
    assert!(
        report.incomplete.contains(&Incomplete::HeapBound),
        "{what}: {:?}",
        report.incomplete
    );
}

fn assert_bug(report: &Report, what: &str) {
    assert_eq!(report.verdict, Verdict::Bug, "{what}: {report:?}");
    assert_eq!(report.bugs[0].kind, ErrorKind::Assertion, "{what}");
}

/// The examples with a bug, and a bound under which it is found.
const BUGGY: [(&str, u32); 3] = [
    ("alias.imp", 2),
    ("list_insert_bug.imp", 9),
    ("list_reverse_bug.imp", 6),
];

#[test]
fn no_objects_is_a_bound_for_check_and_bmc() {
    for (name, _) in BUGGY {
        let ir = example(name);
        assert_cut(&checked(&ir, 0), &format!("check {name} --max-objects 0"));
        assert_cut(
            &model_checked(&ir, 0),
            &format!("bmc {name} --max-objects 0"),
        );
    }
}

#[test]
fn fewer_objects_than_input_references_is_a_bound() {
    let ir = Arc::new(wiser_imp::compile(TWO_OBJECTS).unwrap());
    assert_cut(&checked(&ir, 1), "check, 1 object");
    assert_cut(&model_checked(&ir, 1), "bmc, 1 object");
    assert_bug(&checked(&ir, 2), "check, 2 objects");
    assert_bug(&model_checked(&ir, 2), "bmc, 2 objects");
}

#[test]
fn bmc_reports_paths_cut_by_a_field_read() {
    // One object is enough for the input reference, not for the walk.
    let ir = example("list_reverse_bug.imp");
    assert_cut(&checked(&ir, 1), "check list_reverse_bug --max-objects 1");
    assert_cut(
        &model_checked(&ir, 1),
        "bmc list_reverse_bug --max-objects 1",
    );
}

#[test]
fn with_enough_objects_the_bug_is_found() {
    for (name, n) in BUGGY {
        let ir = example(name);
        assert_bug(&checked(&ir, n), &format!("check {name} --max-objects {n}"));
        assert_bug(
            &model_checked(&ir, n),
            &format!("bmc {name} --max-objects {n}"),
        );
    }
}

#[test]
fn concolic_runs_and_fuzzing_say_the_input_was_cut() {
    let ir = example("alias.imp");
    let options = config(0).options;
    let ran = run(&ir, &Input::default(), options, 1000, None);
    assert!(
        matches!(ran.outcome, RunOutcome::Cut(Bound::Heap)),
        "{:?}",
        ran.outcome
    );
    let limits = FuzzLimits {
        max_runs: 20,
        max_steps: 1000,
    };
    let monitor = Arc::new(Monitor::new());
    let fuzzed = fuzz(ir, Input::default(), &config(0), limits, monitor);
    assert!(fuzzed.bugs.is_empty());
    let stats = fuzzed.fuzz().expect("a fuzzing report");
    assert!(stats.cut > 0, "{fuzzed:?}");
    assert_eq!(stats.assume_failed, 0, "a cut is not a failed assume");
}

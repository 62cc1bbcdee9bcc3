//! Unit tests of concolic execution and fuzzing.

use super::*;
use crate::witness::input_from_model;
use crate::Incomplete;
use std::path::PathBuf;
use std::sync::Arc;
use wiser_ir::ErrorKind;
use wiser_num::Int;
use wiser_semantics::{ArrayInput, Options};
use wiser_smt::{Answer, Model, Solver, SolverStats, Term, Z3Solver};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
}

fn imp(name: &str) -> wiser_ir::Ir {
    let text = std::fs::read_to_string(example(name)).unwrap();
    wiser_imp::compile(&text).unwrap()
}

fn c(name: &str) -> wiser_ir::Ir {
    let mut sources = wiser_ir::Sources::new();
    wiser_c::compile_file(&mut sources, &example(name), &wiser_c::Options::default())
        .unwrap()
        .ir
}

fn vars(pairs: &[(&str, i64)]) -> Input {
    Input {
        vars: pairs
            .iter()
            .map(|(n, v)| (Arc::from(*n), Int::from(*v)))
            .collect(),
        ..Input::default()
    }
}

fn var(input: &Input, name: &str) -> Int {
    input
        .vars
        .iter()
        .find(|(n, _)| &**n == name)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

fn good_array() -> Input {
    Input {
        arrays: vec![(
            Arc::from("input"),
            ArrayInput {
                default: Int::ZERO,
                entries: [103, 111, 111, 100]
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (Int::from(i as i64), Int::from(v)))
                    .collect(),
            },
        )],
        ..Input::default()
    }
}

fn good_reads() -> Input {
    Input {
        reads: [103, 111, 111, 100].iter().map(|&v| Int::from(v)).collect(),
        ..Input::default()
    }
}

#[test]
fn the_policy_follows_the_input() {
    let ir = wiser_imp::compile("if x > 10 then y = 1 else y = 2 fi; assert y != 1").unwrap();
    let low = run(&ir, &vars(&[("x", 3)]), Options::default(), 1000, None);
    assert!(matches!(low.outcome, RunOutcome::Halted));
    // `x > 10` is symbolic; `y != 1` is a constant on each path.
    assert_eq!(low.decisions.len(), 1);
    assert!(!low.decisions[0].taken);
    assert_eq!(low.decisions[0].kind, DecisionKind::Branch);
    assert_eq!(low.covered.len(), 1);
    let high = run(&ir, &vars(&[("x", 11)]), Options::default(), 1000, None);
    assert!(high.decisions[0].taken);
    let RunOutcome::Bug(bug) = high.outcome else {
        panic!("x = 11 fails the assertion: {:?}", high.outcome);
    };
    assert_eq!(bug.kind, ErrorKind::Assertion);
    assert_eq!(var(&bug.input, "x"), Int::from(11));
}

#[test]
fn the_trail_of_foo_and_its_flips() {
    let ir = imp("foo.imp");
    let full = concolic(
        Arc::new(ir.clone()),
        &vars(&[("x", 1), ("y", 2)]),
        &Config::default(),
        10_000,
        Arc::new(crate::Monitor::new()),
    );
    let report = full.concolic().expect("a concolic report");
    let d = &report.run.decisions;
    assert_eq!(d.len(), 2, "{d:?}");
    assert_eq!(
        d[0].cond.to_string(),
        Term::gt(&Term::int_var("x"), &Term::int_var("y")).to_string()
    );
    assert!(!d[0].taken && !d[1].taken);
    for (j, flip) in report.flips.iter().enumerate() {
        let Flip::Input { input, concretised } = flip else {
            panic!("decision {j} can be flipped: {flip:?}");
        };
        assert!(!concretised);
        // The child follows the prefix and takes the other side at j.
        let child = run(&ir, input, Options::default(), 10_000, None);
        for (c, p) in child.decisions.iter().zip(d).take(j) {
            assert_eq!(c.taken, p.taken);
        }
        assert_ne!(child.decisions[j].taken, d[j].taken, "flip {j}: {input:?}");
    }
    // Flipping the second keeps the path through the first: x <= y.
    let Flip::Input { input, .. } = &report.flips[1] else {
        unreachable!()
    };
    let gap = var(input, "y").to_i64().unwrap() - var(input, "x").to_i64().unwrap();
    assert!(gap > 7, "{input:?}");
}

#[test]
fn the_c_foo_prints_both_branches_and_its_checks() {
    let ir = c("c/foo.c");
    let input = Input {
        reads: vec![Int::from(1), Int::from(2)],
        ..Input::default()
    };
    let full = concolic(
        Arc::new(ir.clone()),
        &input,
        &Config::default(),
        10_000,
        Arc::new(crate::Monitor::new()),
    );
    let report = full.concolic().expect("a concolic report");
    let branches: Vec<&RunDecision> = report
        .run
        .decisions
        .iter()
        .filter(|d| d.kind == DecisionKind::Branch)
        .collect();
    assert_eq!(branches.len(), 2, "{:?}", report.run.decisions);
    // The overflow check of `y - x` is flipped into a bug.
    let check = report
        .run
        .decisions
        .iter()
        .position(|d| d.kind == DecisionKind::Check(ErrorKind::SignedOverflow))
        .expect("y - x is checked");
    let Flip::Input { input, .. } = &report.flips[check] else {
        panic!("the overflow is reachable");
    };
    let child = run(&ir, input, Options::default(), 10_000, None);
    assert!(matches!(child.outcome, RunOutcome::Bug(ref b) if b.kind == ErrorKind::SignedOverflow));
}

#[test]
fn an_infeasible_side_is_said_so() {
    let ir =
        wiser_imp::compile("if x > 10 then if x < 5 then y = 1 else skip fi else skip fi").unwrap();
    let full = concolic(
        Arc::new(ir.clone()),
        &vars(&[("x", 20)]),
        &Config::default(),
        1000,
        Arc::new(crate::Monitor::new()),
    );
    let report = full.concolic().expect("a concolic report");
    assert_eq!(report.run.decisions.len(), 2);
    assert!(matches!(report.flips[0], Flip::Input { .. }));
    assert!(matches!(report.flips[1], Flip::Infeasible));
}

#[test]
fn a_failed_assume_is_the_last_decision_and_can_be_flipped() {
    let ir = wiser_imp::compile("assume x > 5; if x == 9 then fail else skip fi").unwrap();
    let full = concolic(
        Arc::new(ir.clone()),
        &vars(&[("x", 0)]),
        &Config::default(),
        1000,
        Arc::new(crate::Monitor::new()),
    );
    let report = full.concolic().expect("a concolic report");
    assert!(matches!(
        report.run.outcome,
        RunOutcome::AssumeFailed { .. }
    ));
    assert_eq!(report.run.decisions.len(), 1);
    assert_eq!(report.run.decisions[0].kind, DecisionKind::Assume);
    let Flip::Input { input, .. } = &report.flips[0] else {
        panic!("x > 5 is satisfiable");
    };
    assert!(var(input, "x") > Int::from(5));
}

/// Answers `unknown` to queries without pins (the first ask of a flip),
/// Z3's answer to the rest.
struct UnknownFirst(Z3Solver, u32);

impl Solver for UnknownFirst {
    fn solve(&mut self, constraints: &[Term]) -> Answer {
        self.1 += 1;
        if self.1 % 2 == 1 {
            return Answer::Unknown("test".into());
        }
        self.0.solve(constraints)
    }
    fn stats(&self, out: &mut SolverStats) {
        self.0.stats(out)
    }
}

#[test]
fn concretisation_pins_the_other_variables() {
    // The second branch's condition mentions y only; the prefix links x
    // and y, so the query mentions both.
    let ir = wiser_imp::compile("if x + y > 10 then if y == 7 then fail else skip fi else skip fi")
        .unwrap();
    let ran = run(
        &ir,
        &vars(&[("x", 20), ("y", 0)]),
        Options::default(),
        1000,
        None,
    );
    let mut solver = UnknownFirst(Z3Solver::new(None), 0);
    let Flip::Input { input, concretised } = flip(&ir, &ran, 1, &mut solver) else {
        panic!("pinning x = 20 leaves y = 7");
    };
    assert!(concretised);
    assert_eq!(var(&input, "x"), Int::from(20));
    assert_eq!(var(&input, "y"), Int::from(7));
}

#[test]
fn input_to_model_is_the_inverse_of_input_from_model() {
    let ir = imp("sage_top.imp");
    let mut input = good_array();
    input.reads = vec![Int::from(-1)];
    let model: Model = crate::witness::input_to_model(&ir, &input);
    let back = input_from_model(&ir, &model, 0);
    assert_eq!(back.arrays, input.arrays);
}

fn sage(ir: wiser_ir::Ir, seed: Input, jobs: usize) -> Report {
    let config = Config::default().with_jobs(jobs);
    fuzz(
        Arc::new(ir),
        seed,
        &config,
        FuzzLimits::default(),
        Arc::new(crate::Monitor::new()),
    )
}

fn top_covered(report: &Report, routine: &str) {
    let per = report
        .fuzz()
        .expect("a fuzzing report")
        .coverage
        .per_routine();
    let top = per
        .iter()
        .find(|r| &*r.routine == routine)
        .expect("top has branches");
    assert_eq!((top.covered, top.total), (10, 10), "{per:?}");
}

#[test]
fn sage_top_imp_finds_the_bug_within_ten_runs() {
    for jobs in [1, 2] {
        let report = sage(imp("sage_top.imp"), good_array(), jobs);
        assert_eq!(
            report.incomplete,
            [Incomplete::StoppedAtFirstBug],
            "jobs {jobs}"
        );
        let stats = report.fuzz().expect("a fuzzing report");
        assert_eq!(report.bugs.len(), 1);
        assert_eq!(report.bugs[0].kind, ErrorKind::Fail);
        assert!(
            stats.found_by[0] <= 10,
            "found at run {}",
            stats.found_by[0]
        );
        // The rest of the bug's generation was run with it.
        assert!(stats.runs <= 10, "{} runs", stats.runs);
        top_covered(&report, "main");
        assert!(stats.coverage.uncovered().is_empty());
    }
}

#[test]
fn sage_top_c_finds_the_bug_within_ten_runs() {
    let report = sage(c("c/sage_top.c"), good_reads(), 1);
    assert_eq!(report.incomplete, [Incomplete::StoppedAtFirstBug]);
    let stats = report.fuzz().expect("a fuzzing report");
    assert_eq!(report.bugs[0].kind, ErrorKind::Fail);
    assert_eq!(stats.found_by[0], 9);
    top_covered(&report, "top");
    // The witness is 4 reads with at least 3 of "bad!".
    let reads: Vec<i64> = report.bugs[0]
        .input
        .reads
        .iter()
        .map(|v| v.to_i64().unwrap())
        .collect();
    let hits = reads
        .iter()
        .zip([98, 97, 100, 33])
        .filter(|(a, b)| **a == *b)
        .count();
    assert!(hits >= 3, "{reads:?}");
}

#[test]
fn fuzzing_to_the_end_runs_every_path_of_top() {
    let config = Config::default().with_all_bugs(true);
    let report = fuzz(
        Arc::new(imp("sage_top.imp")),
        good_array(),
        &config,
        FuzzLimits::default(),
        Arc::new(crate::Monitor::new()),
    );
    // 16 paths, each generated once thanks to the bound.
    assert_eq!(report.incomplete, [Incomplete::WorkListEmpty]);
    let stats = report.fuzz().expect("a fuzzing report");
    assert_eq!(stats.runs, 16);
    assert_eq!(report.bugs.len(), 1);
    assert_eq!(stats.coverage.totals(), (10, 10));
}

#[test]
fn the_run_limit_is_kept() {
    let report = fuzz(
        Arc::new(imp("sage_top.imp")),
        good_array(),
        &Config::default(),
        FuzzLimits {
            max_runs: 3,
            max_steps: 1000,
        },
        Arc::new(crate::Monitor::new()),
    );
    assert_eq!(report.incomplete, [Incomplete::MaxRuns]);
    let stats = report.fuzz().expect("a fuzzing report");
    assert_eq!(stats.runs, 3);
    assert!(report.bugs.is_empty());
    let (covered, total) = stats.coverage.totals();
    assert_eq!((covered, total), (7, 10));
}

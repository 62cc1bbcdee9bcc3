//! Recorded paths are exactly the feasible paths, each with an input that
//! replays along it to its end; coverage counts folded decisions too.

use super::*;
use crate::{symex, Config, MergeMode};
use wiser_ir::{Pc, Site};
use wiser_semantics::concrete::Concrete;
use wiser_semantics::{Fork, Machine, Policy, State};

/// The concrete policy, remembering every decision (all are constants in
/// the concrete algebra, so they arrive as folded).
#[derive(Default)]
struct Decisions(Vec<(Site, bool)>);

impl Policy<Concrete<'_>> for Decisions {
    type Path = ();
    fn branch(&mut self, _: &(), site: Site, cond: &wiser_num::Int) -> Fork<()> {
        let holds = !cond.is_zero();
        self.0.push((site, holds));
        Fork::one(holds, ())
    }
    fn folded(&mut self, site: Site, holds: bool) {
        self.0.push((site, holds));
    }
}

/// How a concrete run ended, and its decisions.
fn run(ir: &Ir, input: &Input) -> (PathEndKind, Vec<(Site, bool)>) {
    let mut alg = Concrete::new(input);
    let mut pol = Decisions::default();
    let mut machine = Machine::with_options(ir, Options::default());
    let mut state = State::initial(ir, &mut alg, ());
    let mut out = Vec::new();
    for _ in 0..100_000 {
        if let Some((kind, span)) = state.error() {
            return (PathEndKind::Error { kind, span }, pol.0);
        }
        if state.is_final(ir) {
            return (PathEndKind::Halted, pol.0);
        }
        machine.step(&mut alg, &mut pol, state, &mut out);
        state = out.pop().expect("no assume in these programs");
    }
    panic!("the program does not end on {input:?}");
}

/// Is `trail` a subsequence of `decisions`?
fn follows(trail: &[Decision<Term>], decisions: &[(Site, bool)]) -> bool {
    let mut rest = decisions.iter();
    trail
        .iter()
        .all(|d| rest.any(|&(s, t)| s == d.site && t == d.taken))
}

fn input(x: i64) -> Input {
    Input {
        vars: vec![("x".into(), x.into())],
        reads: vec![],
        arrays: vec![],
        schedule: vec![],
    }
}

fn paths(ir: &Ir, config: Config) -> crate::Report {
    let record = Record {
        paths: true,
        ..Record::default()
    };
    symex(ir, &config.with_record(record))
}

/// Checks that the recorded paths of `src` (one input `x`) are exactly
/// its feasible paths: each input replays along its path to its end, and
/// every input of -40..=40 follows exactly one recorded path (all paths
/// of these programs are taken by some input in that range).
fn exact(src: &str, all_bugs: bool) -> Vec<PathEnd> {
    let ir = wiser_imp::compile(src).unwrap();
    let mut first: Option<Vec<String>> = None;
    for jobs in [1, 2] {
        let report = paths(
            &ir,
            Config::default().with_all_bugs(all_bugs).with_jobs(jobs),
        );
        assert!(report.incomplete.is_empty(), "{:?}", report.incomplete);
        assert_eq!(report.paths_dropped, 0);
        for p in &report.paths {
            let input = p.input.as_ref().expect("an input");
            let (end, decisions) = run(&ir, input);
            assert_eq!(end, p.end, "{input:?}");
            assert!(follows(&p.trail, &decisions), "{input:?} leaves {p:?}");
        }
        for x in -40..=40 {
            let (end, decisions) = run(&ir, &input(x));
            let on: Vec<&PathEnd> = report
                .paths
                .iter()
                .filter(|p| p.end == end && follows(&p.trail, &decisions))
                .collect();
            assert_eq!(on.len(), 1, "x = {x} follows {on:?}");
        }
        // The same paths in the same order, whatever the workers.
        let shown: Vec<String> = report
            .paths
            .iter()
            .map(|p| format!("{:?} {:?}", p.end, p.path_condition))
            .collect();
        if let Some(f) = &first {
            assert_eq!(f, &shown);
        }
        first = Some(shown);
        if jobs == 2 {
            return report.paths;
        }
    }
    unreachable!()
}

#[test]
fn two_branches_have_three_feasible_paths() {
    let paths = exact(
        "if x > 10 then y = 1 else y = 2 fi; if x > 20 then y = 3 else skip fi",
        false,
    );
    assert_eq!(paths.len(), 3);
    assert!(paths.iter().all(|p| p.end == PathEndKind::Halted));
    // x <= 10 and x > 20 is the pruned side: no path has it.
    let sides: Vec<Vec<bool>> = paths
        .iter()
        .map(|p| p.trail.iter().map(|d| d.taken).collect())
        .collect();
    assert_eq!(
        sides,
        [vec![false, false], vec![true, false], vec![true, true]]
    );
}

#[test]
fn error_paths_are_recorded_with_their_witness() {
    let paths = exact(
        "if x > 0 then assert x != 5; y = 10 / (x - 7) else skip fi",
        true,
    );
    let ends: Vec<&str> = paths.iter().map(|p| p.end.name()).collect();
    // x <= 0; x > 0 and x == 5; x > 0, x != 5, x == 7; x > 0, x != 5, x != 7.
    assert_eq!(ends.iter().filter(|e| **e == "halted").count(), 2);
    assert_eq!(ends.iter().filter(|e| **e == "error").count(), 2);
    assert_eq!(paths.len(), 4);
}

#[test]
fn recording_nothing_keeps_nothing() {
    let ir = wiser_imp::compile("if x > 0 then y = 1 else y = 2 fi").unwrap();
    let report = symex(&ir, &Config::default());
    assert!(report.paths.is_empty());
    assert!(report.coverage.is_none());
}

#[test]
fn a_cut_run_records_the_waiting_states_as_cut() {
    let ir = wiser_imp::compile("while x > 0 do x = x - 1 od").unwrap();
    let report = paths(&ir, Config::default().with_max_states(40));
    assert!(report.incomplete.contains(&Incomplete::MaxStates));
    let halted = report
        .paths
        .iter()
        .filter(|p| p.end == PathEndKind::Halted)
        .count();
    let cut = report
        .paths
        .iter()
        .filter(|p| p.end == PathEndKind::Cut(Incomplete::MaxStates))
        .count();
    assert!(halted >= 2, "{:?}", report.paths);
    // The path still in the loop, and the one about to leave it.
    assert_eq!(cut, 2, "{:?}", report.paths);
    assert_eq!(report.paths.len(), halted + cut);
    // Every path leaves the loop after one more iteration than the last;
    // the last two paths are both one test further.
    let lens: Vec<usize> = report.paths.iter().map(|p| p.trail.len()).collect();
    let mut expected: Vec<usize> = (1..=halted + 1).collect();
    expected.push(halted + 1);
    assert_eq!(lens, expected);
}

#[test]
fn the_cap_counts_the_paths_it_drops() {
    let ir = wiser_imp::compile(
        "if x > 0 then skip else skip fi; if x > 1 then skip else skip fi; \
         if x > 2 then skip else skip fi",
    )
    .unwrap();
    let record = Record {
        paths: true,
        max_paths: 2,
        ..Record::default()
    };
    let report = symex(&ir, &Config::default().with_record(record));
    assert_eq!(report.paths.len(), 2);
    assert_eq!(report.paths_dropped, 2);
}

#[test]
fn merged_states_end_as_merged() {
    let ir = wiser_imp::compile("if x > 0 then y = 1 else y = 2 fi; assert y > 0").unwrap();
    let report = paths(&ir, Config::default().with_merge(MergeMode::Joins));
    assert_eq!(report.verdict, crate::Verdict::Safe);
    let ends: Vec<&str> = report.paths.iter().map(|p| p.end.name()).collect();
    assert_eq!(ends, ["merged", "merged", "halted"], "{:?}", report.paths);
    // The merged path goes on with the decisions both share (none), then
    // its assertion (the `ite` of the merge is no constant).
    assert_eq!(report.paths[2].trail.len(), 1);
    let input = report.paths[2].input.as_ref().expect("an input");
    assert_eq!(run(&ir, input).0, PathEndKind::Halted);
}

#[test]
fn coverage_counts_reached_instructions_and_folded_sides() {
    let ir =
        wiser_imp::compile("if x > 0 then y = 1 else y = 2 fi; if y > 5 then y = 3 else skip fi")
            .unwrap();
    let record = Record {
        coverage: true,
        ..Record::default()
    };
    for jobs in [1, 2] {
        let report = symex(&ir, &Config::default().with_jobs(jobs).with_record(record));
        let cov = report.coverage.expect("coverage");
        let branches: Vec<Pc> = (0..ir.code.len() as Pc)
            .filter(|&pc| matches!(ir.at(pc).instr, wiser_ir::Instr::Branch { .. }))
            .collect();
        assert_eq!(branches.len(), 2);
        let site = |pc| Site { pc, check: None };
        let (first, second) = (site(branches[0]), site(branches[1]));
        assert!(cov.taken(first, true) && cov.taken(first, false));
        // `y > 5` folds to false on both paths.
        assert!(!cov.taken(second, true) && cov.taken(second, false));
        let then_to = match ir.at(second.pc).instr {
            wiser_ir::Instr::Branch { then_to, .. } => then_to,
            _ => unreachable!(),
        };
        assert!(!cov.reached[then_to as usize]);
        assert!(cov.reached[second.pc as usize]);
        assert!(report.paths.is_empty());
    }
}

#[test]
fn under_any_cap_every_path_is_kept_or_counted() {
    let ir = wiser_imp::compile("if x > 0 then y = 1 else y = 2 fi; assert y > 0").unwrap();
    for max_paths in 1..=4 {
        let record = Record {
            paths: true,
            max_paths,
            ..Record::default()
        };
        let config = Config::default()
            .with_merge(MergeMode::Joins)
            .with_record(record);
        let report = symex(&ir, &config);
        assert_eq!(report.paths.len(), max_paths.min(3), "cap {max_paths}");
        // Two merged halves and the merged path's normal end.
        assert_eq!(
            report.paths.len() as u64 + report.paths_dropped,
            3,
            "cap {max_paths}"
        );
    }
}

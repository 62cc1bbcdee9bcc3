//! Properties: only the error kinds in `Config::property` are bugs; an
//! error of another kind ends its path, is listed in the report, and makes
//! the verdict `unknown` unless a bug is found.

use wiser_engine::{symex, Config, Event, Explorer, Incomplete, Property, Strategy, Verdict};
use wiser_ir::ErrorKind;
use wiser_smt::Z3Solver;

fn fail_only() -> Config {
    Config::default().with_property(Property::unreach_call())
}

#[test]
fn the_default_property_is_every_kind_a_run_commits() {
    let p = Config::default().property;
    assert!(p.is_all());
    for k in ErrorKind::ALL {
        // A memory leak, found after the program ended, is asked for by
        // name (SV-COMP's valid-memsafety), never by default.
        assert_eq!(p.contains(k), k != ErrorKind::MemoryLeak, "{k}");
    }
    let only = Property::only(&[ErrorKind::Fail, ErrorKind::OutOfBounds]);
    assert_eq!(only.kinds(), vec![ErrorKind::Fail, ErrorKind::OutOfBounds]);
    assert!(!only.contains(ErrorKind::SignedOverflow));
    assert_eq!(Property::unreach_call().kinds(), vec![ErrorKind::Fail]);
}

#[test]
fn an_error_outside_the_property_does_not_hide_a_bug() {
    let ir = wiser_imp::compile("x = *; y = 10 / x; fail").unwrap();
    for jobs in [1, 2] {
        let report = symex(&ir, &fail_only().with_jobs(jobs));
        assert_eq!(report.verdict, Verdict::Bug, "jobs {jobs}");
        assert_eq!(report.bugs.len(), 1);
        assert_eq!(report.bugs[0].kind, ErrorKind::Fail);
        // Reaching `fail` needs a non-zero divisor.
        assert_ne!(report.bugs[0].input.reads[0], 0.into());
        // The replay says where the read was made.
        let pcs = &report.bugs[0].read_pcs;
        assert_eq!(pcs.len(), 1);
        assert!(matches!(ir.at(pcs[0]).instr, wiser_ir::Instr::Havoc { .. }));
    }
    // With --all the division is listed too, and the verdict stays `bug`.
    let report = symex(&ir, &fail_only().with_all_bugs(true));
    assert_eq!(report.verdict, Verdict::Bug);
    assert_eq!(report.outside_property.len(), 1);
    assert_eq!(report.outside_property[0].0, ErrorKind::DivisionByZero);
    assert!(report.incomplete.contains(&Incomplete::OutsideProperty));
}

#[test]
fn an_error_outside_the_property_makes_the_verdict_unknown() {
    let ir = wiser_imp::compile("x = *; if x == 3 then y = 1 / 0 else skip fi").unwrap();
    for jobs in [1, 2] {
        let report = symex(&ir, &fail_only().with_jobs(jobs));
        assert_eq!(report.verdict, Verdict::Unknown, "jobs {jobs}");
        assert!(report.bugs.is_empty());
        assert_eq!(report.incomplete, vec![Incomplete::OutsideProperty]);
        assert_eq!(report.outside_property.len(), 1);
        let (kind, span) = report.outside_property[0];
        assert_eq!(kind, ErrorKind::DivisionByZero);
        assert!(span.lo > 0);
    }
    // Under the default property the same error is a bug.
    let report = symex(&ir, &Config::default());
    assert_eq!(report.verdict, Verdict::Bug);
    assert!(report.outside_property.is_empty());
}

#[test]
fn outside_errors_are_listed_once_per_location() {
    // The overflow is reachable on many paths (every iteration), from one place.
    let src = "n: u8 = *; i: u8 = 0; s: i8 = 0;
               while i < n do s = s + 100; i = i + 1 od";
    let ir = wiser_imp::compile(src).unwrap();
    let report = symex(&ir, &fail_only().with_max_states(100_000));
    assert_eq!(report.verdict, Verdict::Unknown);
    assert_eq!(report.outside_property.len(), 1);
    assert_eq!(report.outside_property[0].0, ErrorKind::SignedOverflow);
}

#[test]
fn an_unreachable_outside_error_leaves_the_program_safe() {
    let ir = wiser_imp::compile("x = *; if x > 3 and x < 2 then y = 1 / 0 else skip fi").unwrap();
    let report = symex(&ir, &fail_only());
    assert_eq!(report.verdict, Verdict::Safe);
    assert!(report.outside_property.is_empty());
    assert!(report.incomplete.is_empty());
}

#[test]
fn the_explorer_reports_outside_errors_as_events() {
    let ir = wiser_imp::compile("x = *; if x == 3 then y = 1 / 0 else skip fi; fail").unwrap();
    let explorer = Explorer::new(&ir, Z3Solver::new(None), Strategy::Bfs)
        .with_property(Property::unreach_call());
    let mut outside = Vec::new();
    let mut bugs = Vec::new();
    for ev in explorer {
        match ev {
            Event::OutsideProperty(kind, _) => outside.push(kind),
            Event::BugFound(b) => bugs.push(b.kind),
            _ => {}
        }
    }
    assert_eq!(outside, vec![ErrorKind::DivisionByZero]);
    assert_eq!(bugs, vec![ErrorKind::Fail]);
}

//! The portfolio agrees with each engine alone wherever both finish, on
//! random programs of the testkit; it stops the other engines at the
//! first answer, and its interrupt switch stops them all.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wiser_engine::{portfolio, prove, symex, Config, Incomplete, Member, Monitor, Report, Verdict};
use wiser_semantics::Options;
use wiser_testkit::{compile, generate, sized, GenConfig};

fn definitive(r: &Report) -> Option<Verdict> {
    (r.verdict != Verdict::Unknown).then_some(r.verdict)
}

#[test]
fn the_portfolio_agrees_with_each_engine_on_random_programs() {
    let gen = GenConfig::small();
    let seconds = Duration::from_secs(sized(4, 15));
    let (mut answered, mut compared) = (0, 0);
    for i in 0..sized(16, 40) {
        let p = generate(0x9f0, i, &gen);
        let Ok(ir) = compile(&p.source(), &p.spec) else {
            continue;
        };
        let options = Options {
            wrap_signed: p.spec.wrap_signed,
            ..Options::default()
        };
        let config = Config::default()
            .with_options(options)
            .with_jobs(2)
            .with_timeout(Some(seconds));
        let ir = Arc::new(ir);
        let run = portfolio(
            ir.clone(),
            &config,
            &Member::defaults(4),
            Arc::new(Monitor::new()),
        );
        assert!(
            run.report.internal_errors.is_empty(),
            "program {i}: {:?}\n{}",
            run.report.internal_errors,
            p.source()
        );
        let Some(verdict) = definitive(&run.report) else {
            continue;
        };
        answered += 1;
        let engine = run.answered_by.expect("an answer names its engine");
        let member = run.members.iter().find(|m| m.engine == engine).unwrap();
        assert_eq!(member.verdict, verdict);
        if verdict == Verdict::Bug {
            // Every bug is replayed: its input ends at the error.
            assert!(!run.report.bugs.is_empty());
        }
        let alone = [
            symex(&ir, &config),
            prove(ir.clone(), &config, Arc::new(Monitor::new())),
        ];
        for r in &alone {
            if let Some(v) = definitive(r) {
                compared += 1;
                assert_eq!(
                    v,
                    verdict,
                    "program {i}: the portfolio ({engine}) says {}, `{}` alone says {}\n{}",
                    verdict.name(),
                    r.extra.engine(),
                    v.name(),
                    p.source()
                );
            }
        }
    }
    assert!(
        answered >= 8,
        "the portfolio answered only {answered} programs"
    );
    assert!(
        compared >= 8,
        "only {compared} comparisons with an engine alone"
    );
}

/// `i` from 0 to an input, one state per iteration: symbolic execution
/// finds the bug at 1,000 at once; the search never ends without it.
const DEEP: &str = "i = 0; while i < n do i = i + 1 od; assert i != 1000";

#[test]
fn the_first_answer_stops_the_others() {
    let ir = Arc::new(wiser_imp::compile(DEEP).unwrap());
    let config = Config::default()
        .with_jobs(2)
        .with_timeout(Some(Duration::from_secs(60)));
    let start = Instant::now();
    let run = portfolio(ir, &config, &Member::defaults(4), Arc::new(Monitor::new()));
    assert_eq!(run.report.verdict, Verdict::Bug);
    assert!(run.answered_by.is_some());
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
    for m in &run.members {
        if Some(m.engine) != run.answered_by {
            assert!(
                m.stopped || m.verdict == Verdict::Bug,
                "{} was neither stopped nor an answer: {m:?}",
                m.engine
            );
        }
    }
}

#[test]
fn the_interrupt_stops_every_engine_and_keeps_the_reasons() {
    // A bug 100,000,000 iterations deep: no invariant proves the
    // program, no bound or search reaches the bug before the interrupt.
    let source = "i = 0; while i < n do i = i + 1 od; assert i != 100000000";
    let ir = Arc::new(wiser_imp::compile(source).unwrap());
    let config = Config::default()
        .with_jobs(2)
        .with_timeout(Some(Duration::from_secs(60)));
    let monitor = Arc::new(Monitor::new());
    let stopper = {
        let monitor = monitor.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(500));
            monitor.interrupt.store(true, Ordering::SeqCst);
        })
    };
    let start = Instant::now();
    let run = portfolio(ir, &config, &Member::defaults(4), monitor);
    stopper.join().unwrap();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert_eq!(run.report.verdict, Verdict::Unknown);
    assert!(run.report.incomplete.contains(&Incomplete::Interrupted));
    assert_eq!(run.answered_by, None);
    assert!(run.members.iter().all(|m| m.verdict == Verdict::Unknown));
}

#[test]
fn a_memory_bound_already_crossed_starts_no_member() {
    // A bound below the process's own memory: the relay, which counts the
    // process and every member's solvers, stops the run before any
    // member starts its solver processes.
    let source = "i = 0; while i < n do i = i + 1 od; assert i != 100000000";
    let ir = Arc::new(wiser_imp::compile(source).unwrap());
    let config = Config::default()
        .with_jobs(2)
        .with_max_memory(Some(1 << 20))
        .with_timeout(Some(Duration::from_secs(60)));
    let start = Instant::now();
    let run = portfolio(ir, &config, &Member::defaults(4), Arc::new(Monitor::new()));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
    assert_eq!(run.report.verdict, Verdict::Unknown);
    assert!(
        run.report.incomplete.contains(&Incomplete::MaxMemory),
        "{:?}",
        run.report.incomplete
    );
    assert!(
        run.members.iter().all(|m| m.not_started),
        "{:?}",
        run.members
    );
}

#[test]
fn a_member_that_ends_at_once_does_not_keep_the_others_from_starting() {
    // `check` stops at its bound of 5 states within milliseconds. Under a
    // memory bound members start one at a time; with none running, the
    // next must start then (it once waited for a member to be running,
    // and reported the rest as never started for lack of memory).
    let source = "i = 0; while i < n do i = i + 1 od; assert i >= 0";
    let ir = Arc::new(wiser_imp::compile(source).unwrap());
    let config = Config::default()
        .with_jobs(2)
        .with_max_states(5)
        .with_max_memory(Some(8 << 30))
        .with_timeout(Some(Duration::from_secs(60)));
    let members = [Member::Symex, Member::Prove];
    let run = portfolio(ir, &config, &members, Arc::new(Monitor::new()));
    assert_eq!(run.report.verdict, Verdict::Safe, "{:?}", run.members);
    assert_eq!(run.answered_by, Some("prove"), "{:?}", run.members);
    assert!(
        run.members.iter().all(|m| !m.not_started),
        "{:?}",
        run.members
    );
}

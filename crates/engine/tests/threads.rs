//! Threads and objects through the engine, on programs built with the IR
//! builder (the front ends have their own tests): races, locks, deadlocks,
//! aliasing of input references, the bounds, and partial-order reduction
//! against every interleaving.

use wiser_engine::{symex, Config, Incomplete, Verdict};
use wiser_ir::{Builder, ClassId, Expr, Ir, ScalarTy, Span};
use wiser_num::{BinOp, CmpOp, IntTy};
use wiser_semantics::{concrete, ErrorKind, Options};

fn sp() -> Span {
    Span::default()
}

/// `proc inc(): g = g + 1` (a read step, then a write step) `times`
/// times; main spawns `threads` of them, joins them, asserts `g == total`.
/// With `lock`, each increment holds the lock of object `m`.
fn counter(threads: u32, times: u32, lock: bool) -> Ir {
    let mut b = Builder::new();
    let g = b.global("g", ScalarTy::INT, Some(0.into()));
    let class = b.class("Mutex");
    let m = b.global("m", ScalarTy::INT, Some(0.into()));
    b.global_refers(m, class);
    let inc = b.declare_proc("inc", vec![], None, sp());
    {
        let mut r = b.begin_proc(inc);
        for _ in 0..times {
            if lock {
                let mref = r.load(m);
                r.lock(class, mref, true, sp());
            }
            let t = r.temp(ScalarTy::INT);
            let gv = r.load(g);
            r.assign(t, gv, sp());
            let one = Expr::int(IntTy::INT, 1);
            let sum = Expr::binary(BinOp::Add, r.load(t), one, sp());
            r.assign(g, sum, sp());
            if lock {
                let mref = r.load(m);
                r.lock(class, mref, false, sp());
            }
        }
        r.finish();
    }
    let mut r = b.begin_main(sp());
    let obj = r.local("obj", ScalarTy::INT);
    r.new_object(obj, class, sp());
    let o = r.load(obj);
    r.assign(m, o, sp());
    let mut ids = Vec::new();
    for k in 0..threads {
        let t = r.local(format!("t{k}"), ScalarTy::INT);
        r.spawn(inc, vec![], Some(t), sp());
        ids.push(t);
    }
    for t in ids {
        let tv = r.load(t);
        r.join(tv, sp());
    }
    let gv = r.load(g);
    let want = Expr::int(IntTy::INT, i64::from(threads * times));
    r.assert(Expr::cmp(CmpOp::Eq, gv, want), sp());
    r.finish();
    b.finish().expect("a well-formed program")
}

fn config(por_off: bool) -> Config {
    Config::default().with_jobs(1).with_options(Options {
        max_objects: Some(4),
        max_threads: Some(16),
        por_off,
        ..Options::default()
    })
}

#[test]
fn a_lost_update_is_found_with_a_schedule_that_replays() {
    let ir = counter(2, 1, false);
    for por_off in [false, true] {
        let report = symex(&ir, &config(por_off));
        assert_eq!(
            report.verdict,
            Verdict::Bug,
            "por_off {por_off}: {report:?}"
        );
        let bug = &report.bugs[0];
        assert_eq!(bug.kind, ErrorKind::Assertion);
        assert!(!bug.input.schedule.is_empty(), "a race needs a switch");
        let run = concrete::run(&ir, &bug.input, 10_000);
        assert!(
            matches!(
                run.outcome,
                concrete::Outcome::Error {
                    kind: ErrorKind::Assertion,
                    ..
                }
            ),
            "{:?}",
            run.outcome
        );
        // Without the schedule the default one runs each thread to its end.
        let mut plain = bug.input.clone();
        plain.schedule.clear();
        let run = concrete::run(&ir, &plain, 10_000);
        assert_eq!(run.outcome, concrete::Outcome::Halted);
    }
}

#[test]
fn a_lock_makes_the_counter_safe_in_both_modes() {
    let ir = counter(2, 2, true);
    let on = symex(&ir, &config(false));
    let off = symex(&ir, &config(true));
    assert_eq!(on.verdict, Verdict::Safe, "{on:?}");
    assert_eq!(off.verdict, Verdict::Safe, "{off:?}");
    // Every step touches the one lock or the one counter: nothing to reduce.
    assert!(
        on.stats.states <= off.stats.states,
        "{} vs {}",
        on.stats.states,
        off.stats.states
    );
}

/// `threads` threads that each write a field of their own object `steps`
/// times (the POR benchmark of the issue, built by hand). `made_by_main`:
/// main makes the objects and passes them (so it can still reach them);
/// else each thread makes its own.
fn own_objects(threads: u32, steps: u32, made_by_main: bool) -> Ir {
    let mut b = Builder::new();
    let class = b.class("Cell");
    let f = b.field(class, "v", ScalarTy::INT, None);
    let work = b.declare_proc("work", vec![("o".into(), ScalarTy::INT)], None, sp());
    b.param_refers(work, 0, class);
    {
        let mut r = b.begin_proc(work);
        if !made_by_main {
            r.new_object(r.param(0), class, sp());
        }
        for k in 0..steps {
            let o = Expr::deref(r.load(r.param(0)), sp());
            r.store(f, o, Expr::int(IntTy::INT, i64::from(k)), sp());
        }
        r.finish();
    }
    let mut r = b.begin_main(sp());
    let mut ids = Vec::new();
    for k in 0..threads {
        let o = r.local(format!("o{k}"), ScalarTy::INT);
        if made_by_main {
            r.new_object(o, class, sp());
        }
        let t = r.local(format!("t{k}"), ScalarTy::INT);
        let arg = r.load(o);
        r.spawn(work, vec![arg], Some(t), sp());
        ids.push(t);
    }
    for t in ids {
        let v = r.load(t);
        r.join(v, sp());
    }
    r.finish();
    b.finish().expect("a well-formed program")
}

#[test]
fn sleep_sets_explore_fewer_states_on_independent_threads() {
    let ir = own_objects(3, 2, true);
    let on = symex(&ir, &config(false));
    let off = symex(&ir, &config(true));
    assert_eq!(on.verdict, Verdict::Safe, "{on:?}");
    assert_eq!(off.verdict, Verdict::Safe, "{off:?}");
    eprintln!(
        "states: por on {}, off {}",
        on.stats.states, off.stats.states
    );
    assert!(
        on.stats.states * 2 < off.stats.states,
        "{} vs {}",
        on.stats.states,
        off.stats.states
    );
}

/// Two threads take the locks of `a` and `b` in opposite orders.
fn deadlock() -> Ir {
    let mut b = Builder::new();
    let class = b.class("L");
    let a = b.global("a", ScalarTy::INT, Some(0.into()));
    let c = b.global("b", ScalarTy::INT, Some(0.into()));
    let procs: Vec<_> = [(a, c), (c, a)]
        .into_iter()
        .enumerate()
        .map(|(k, (first, second))| {
            let p = b.declare_proc(format!("p{k}"), vec![], None, sp());
            let mut r = b.begin_proc(p);
            let f = r.load(first);
            r.lock(class, f, true, sp());
            let s = r.load(second);
            r.lock(class, s, true, sp());
            let s = r.load(second);
            r.lock(class, s, false, sp());
            let f = r.load(first);
            r.lock(class, f, false, sp());
            r.finish();
            p
        })
        .collect();
    let mut r = b.begin_main(sp());
    for g in [a, c] {
        let t = r.temp(ScalarTy::INT);
        r.new_object(t, class, sp());
        let v = r.load(t);
        r.assign(g, v, sp());
    }
    let mut ids = Vec::new();
    for p in procs {
        let t = r.temp(ScalarTy::INT);
        r.spawn(p, vec![], Some(t), sp());
        ids.push(t);
    }
    for t in ids {
        let v = r.load(t);
        r.join(v, sp());
    }
    r.finish();
    b.finish().expect("a well-formed program")
}

#[test]
fn opposite_lock_orders_deadlock_in_both_modes() {
    let ir = deadlock();
    for por_off in [false, true] {
        let report = symex(&ir, &config(por_off));
        assert_eq!(report.verdict, Verdict::Bug, "{report:?}");
        assert_eq!(report.bugs[0].kind, ErrorKind::Deadlock);
        let run = concrete::run(&ir, &report.bugs[0].input, 10_000);
        assert!(matches!(
            run.outcome,
            concrete::Outcome::Error {
                kind: ErrorKind::Deadlock,
                ..
            }
        ));
    }
}

/// Seed 001 §4: `x.f = 1; y.f = 2; assert x.f == 1` with input
/// references `x` and `y`: fails exactly when they alias.
fn aliasing() -> (Ir, ClassId) {
    let mut b = Builder::new();
    let class = b.class("C");
    let f = b.field(class, "f", ScalarTy::INT, None);
    let mut r = b.begin_main(sp());
    let x = r.local("x", ScalarTy::INT);
    r.refers(x, class);
    r.input(x);
    let y = r.local("y", ScalarTy::INT);
    r.refers(y, class);
    r.input(y);
    for (p, v) in [(x, 1), (y, 2)] {
        let obj = Expr::deref(r.load(p), sp());
        r.store(f, obj, Expr::int(IntTy::INT, v), sp());
    }
    let read = Expr::select(f, wiser_ir::ArrayTy::INT, Expr::deref(r.load(x), sp()));
    r.assert(Expr::cmp(CmpOp::Eq, read, Expr::int(IntTy::INT, 1)), sp());
    r.finish();
    (b.finish().expect("a well-formed program"), class)
}

#[test]
fn seed_001_aliasing_fails_exactly_when_the_references_alias() {
    let (ir, _) = aliasing();
    let report = symex(&ir, &config(false).with_all_bugs(true));
    assert_eq!(report.verdict, Verdict::Bug, "{report:?}");
    let kinds: Vec<_> = report.bugs.iter().map(|b| b.kind).collect();
    assert!(kinds.contains(&ErrorKind::NullDereference), "{kinds:?}");
    let alias = report
        .bugs
        .iter()
        .find(|b| b.kind == ErrorKind::Assertion)
        .expect("the aliasing bug");
    let value = |n: &str| {
        alias
            .input
            .vars
            .iter()
            .find(|(v, _)| &**v == n)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(value("x"), value("y"), "{:?}", alias.input);
    assert_ne!(value("x"), Some(0.into()));
}

/// `while x != null do x = x.next od` over an input list: every input
/// heap up to the bound is explored, and longer lists are cut.
#[test]
fn walking_an_input_list_hits_the_heap_bound_and_is_never_safe() {
    let mut b = Builder::new();
    let class = b.class("Node");
    let next = b.field(class, "next", ScalarTy::INT, Some(class));
    let mut r = b.begin_main(sp());
    let x = r.local("x", ScalarTy::INT);
    r.refers(x, class);
    r.input(x);
    let head = r.label();
    let body = r.label();
    let done = r.label();
    r.bind(head);
    let nonnull = Expr::cmp(CmpOp::Ne, r.load(x), Expr::int(IntTy::INT, 0));
    r.branch(nonnull, body, done, sp());
    r.bind(body);
    let step = Expr::select(next, wiser_ir::ArrayTy::INT, Expr::deref(r.load(x), sp()));
    r.assign(x, step, sp());
    r.jump(head);
    r.bind(done);
    r.finish();
    let ir = b.finish().expect("a well-formed program");
    let report = symex(&ir, &config(false));
    assert_eq!(report.verdict, Verdict::Unknown, "{report:?}");
    assert!(
        report.incomplete.contains(&Incomplete::HeapBound),
        "{report:?}"
    );
}

#[test]
fn threads_beyond_the_bound_make_the_verdict_unknown() {
    let ir = counter(3, 1, true);
    let config = Config::default().with_jobs(1).with_options(Options {
        max_threads: Some(3),
        ..Options::default()
    });
    let report = symex(&ir, &config);
    assert_eq!(report.verdict, Verdict::Unknown, "{report:?}");
    assert!(report.incomplete.contains(&Incomplete::ThreadBound));
}

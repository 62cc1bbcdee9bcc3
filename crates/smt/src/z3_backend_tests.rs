//! Tests of the Z3 backend: translation, C division, models, the
//! incremental scheme's counts, and time limits.

use super::*;

fn int(n: i64) -> Term {
    Term::int(n)
}

/// x³ + y³ = z³ over integers above 1 (Fermat: no solution, which Z3
/// cannot prove): Z3 works on it until it is stopped. (The process
/// tests have their own, in `tests/support`.)
fn hard_query() -> [Term; 4] {
    let (x, y, z) = (Term::int_var("x"), Term::int_var("y"), Term::int_var("z"));
    let cube = |v: &Term| Term::mul(&Term::mul(v, v), v);
    [
        Term::eq(&Term::add(&cube(&x), &cube(&y)), &cube(&z)),
        Term::lt(&int(1), &x),
        Term::lt(&int(1), &y),
        Term::lt(&int(1), &z),
    ]
}

#[test]
fn sat_unsat_and_models() {
    let mut s = Z3Solver::new(None);
    let x = Term::int_var("x");
    let y = Term::int_var("y");
    let c = [
        Term::eq(&Term::mul(&x, &y), &int(91)),
        Term::lt(&int(1), &x),
        Term::lt(&int(1), &y),
    ];
    match s.solve(&c) {
        Answer::Sat(m) => {
            let p = m.int("x").mul(&m.int("y"));
            assert_eq!(p, Int::from(91));
        }
        other => panic!("expected sat, got {other:?}"),
    }
    assert_eq!(
        s.solve(&[Term::lt(&x, &int(0)), Term::lt(&int(0), &x)]),
        Answer::Unsat
    );
}

#[test]
fn division_is_c_division() {
    // For every a, b in a small box, x = a / b and r = a % b must have
    // exactly the value the concrete semantics gives.
    let mut s = Z3Solver::new(None);
    let (x, y) = (Term::int_var("x"), Term::int_var("y"));
    for a in -7..=7i64 {
        for b in -3..=3i64 {
            let q = Int::from(a).div_trunc(&Int::from(b));
            let r = Int::from(a).rem_trunc(&Int::from(b));
            let fix = [Term::eq(&x, &int(a)), Term::eq(&y, &int(b))];
            let wrong_q = Term::ne(&Term::div(&x, &y), &Term::int(q));
            let wrong_r = Term::ne(&Term::rem(&x, &y), &Term::int(r));
            let mut c = fix.to_vec();
            c.push(Term::or(&wrong_q, &wrong_r));
            assert_eq!(s.solve(&c), Answer::Unsat, "{a} / {b}");
        }
    }
}

#[test]
fn big_numbers_round_trip() {
    let mut s = Z3Solver::new(None);
    let x = Term::int_var("x");
    let big: Int = "-123456789012345678901234567890".parse().unwrap();
    match s.solve(&[Term::eq(&x, &Term::int(big.clone()))]) {
        Answer::Sat(m) => assert_eq!(m.int("x"), big),
        other => panic!("{other:?}"),
    }
}

#[test]
fn array_models_cover_read_indices() {
    let mut s = Z3Solver::new(None);
    let a = Term::array_var("a");
    let i = Term::int_var("i");
    let c = [
        Term::lt(&Term::int(10), &Term::select(&a, &i)),
        Term::eq(&Term::select(&a, &Term::add(&i, &int(1))), &int(-4)),
    ];
    match s.solve(&c) {
        Answer::Sat(m) => assert!(c.iter().all(|t| m.holds(t))),
        other => panic!("{other:?}"),
    }
}

#[test]
fn counts_the_calls_that_rebuild_the_stack() {
    let mut s = Z3Solver::new(None);
    let (x, y) = (Term::int_var("x"), Term::int_var("y"));
    let (a, b, c) = (
        Term::lt(&x, &y),
        Term::lt(&y, &int(5)),
        Term::lt(&int(1), &x),
    );
    s.solve(&[a.clone(), b.clone()]);
    s.solve(&[a.clone(), c.clone()]);
    s.solve(&[a.clone(), b.clone(), c.clone()]);
    let mut st = SolverStats::default();
    s.stats(&mut st);
    // Query 1: the first, one-shot (a and b asserted). Query 2: a
    // behind a literal, c in a scope. Query 3: a reused, b behind a
    // literal, c in a scope.
    assert_eq!(
        (st.z3_pushes, st.z3_pops, st.z3_asserts, st.z3_checks),
        (2, 2, 6, 3)
    );
}

/// An interrupted check must not spoil the next ones: Z3's incremental
/// solver, once interrupted, answered "canceled" and then "incomplete
/// (theory arithmetic)" to every later query, however easy.
#[test]
fn easy_queries_after_a_timeout_are_decided() {
    let (x, y) = (Term::int_var("x"), Term::int_var("y"));
    let hard = hard_query();
    let easy = [Term::eq(&x, &int(5)), Term::lt(&x, &y)];
    // The hard query alone gets a limit (a deadline): with one limit
    // for both, a loaded machine could stop the easy query too.
    let mut s = Z3Solver::new(None);
    for round in 0..5 {
        s.set_deadline(Some(Instant::now() + Duration::from_millis(5)));
        assert!(
            matches!(s.solve(&hard), Answer::Unknown(_)),
            "round {round}"
        );
        s.set_deadline(None);
        match s.solve(&easy) {
            Answer::Sat(m) => assert_eq!(m.int("x"), Int::from(5)),
            other => panic!("round {round}: {other:?}"),
        }
    }
}

/// The watchdog must win against a check that ignores interrupts:
/// x³ + y³ = z³ over integers above 1 (no solution, and nothing Z3 can
/// prove) with a 1 ms limit answers unknown promptly, every time.
#[test]
fn hard_queries_give_up_promptly() {
    let c = hard_query();
    let limit = Some(Duration::from_millis(1));
    let mut s = Z3Solver::new(limit);
    for i in 0..50 {
        if i % 5 == 0 {
            s = Z3Solver::new(limit);
        }
        let start = Instant::now();
        let answer = s.solve(&c);
        let took = start.elapsed();
        assert!(
            matches!(answer, Answer::Unknown(_)),
            "round {i}: {answer:?}"
        );
        assert!(took < Duration::from_secs(1), "round {i} took {took:?}");
    }
}

/// An interrupt that comes before the check has begun listening for it
/// is lost; the watchdog must interrupt again. The check here starts
/// 20 ms after its deadline, so the first interrupt always falls in
/// that gap.
#[test]
fn the_watchdog_repeats_lost_interrupts() {
    let (done, finished) = std::sync::mpsc::channel();
    // On its own thread (and so its own Z3 context), so that a hang
    // fails the test instead of stalling it.
    std::thread::spawn(move || {
        let hard = Term::and_all(hard_query());
        let mut translator = Z3Solver::new(None);
        let solver = new_z3_solver();
        solver.assert(translator.translate(&hard).as_bool().expect("boolean"));
        let watchdog = Watchdog::new(z3::Context::thread_local().get_z3_context());
        let r = watchdog.guard(Some(Instant::now()), || {
            std::thread::sleep(Duration::from_millis(20));
            solver.check()
        });
        let _ = done.send(r == z3::SatResult::Unknown);
    });
    let answer = finished.recv_timeout(Duration::from_secs(5));
    assert_eq!(answer, Ok(true), "the check was not stopped");
}

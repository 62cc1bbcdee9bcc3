//! Bitwuzla and cvc5 in front of Z3 for float queries: which queries go
//! to them, what happens when they fail (every failure goes on to the
//! next solver, and a model is believed only when our evaluator agrees),
//! and their deadline. Fake `cvc5` scripts and fake Pythons stand for the
//! ways the real ones can fail; the tests with the real ones need them
//! installed (`crates/testkit`'s `external_tool` and
//! `external_python_module`). That their answers equal `FloatOp::apply`
//! on every operation is checked in `float.rs`.

use std::path::PathBuf;
use std::time::{Duration, Instant};
use wiser_num::{CmpOp, FBinOp, FloatOp, FloatTy, Int};
use wiser_smt::{
    Answer, Bitwuzla, Cvc5, Model, Scalar, Solver, SolverStats, Sort, Term, Value, Z3Solver,
};
use wiser_testkit::{external_python_module, external_tool};

/// A 32-bit float variable (its pattern).
fn f32_var(name: &str) -> Term {
    Term::var(name, Sort::Bv(32))
}

/// The float constant `x`.
fn f32c(x: f32) -> Term {
    Term::bv(32, u64::from(x.to_bits()))
}

/// `x + 1.0 == 3.0` over a float `x`: sat (with 2.0, and its neighbour
/// below, which rounds up), but not with 0.0.
fn easy_query() -> (Vec<Term>, Term) {
    let x = f32_var("x");
    let sum = Term::fp(
        FloatOp::Binary(FBinOp::Add, FloatTy::F32),
        &[x.clone(), f32c(1.0)],
    );
    let eq = Term::fp(FloatOp::Cmp(CmpOp::Eq, FloatTy::F32), &[sum, f32c(3.0)]);
    (vec![eq], x)
}

/// Does `m` satisfy `query`, with `x` one of its two solutions?
fn holds(m: &Model, query: &[Term], x: &Term) -> bool {
    let two = 2.0f32.to_bits();
    let solutions = [two, two - 1].map(|b| Value::Int(Int::from_u64(u64::from(b))));
    query.iter().all(|c| m.holds(c)) && solutions.contains(&m.eval(x))
}

/// A solver asking the cvc5 at `path` first (no Bitwuzla before it),
/// with a per-query `limit`.
fn solver(path: impl Into<PathBuf>, limit: Option<Duration>) -> Z3Solver {
    let mut s = Z3Solver::new(limit);
    s.set_bitwuzla(None);
    s.set_cvc5(Some(Cvc5::at(path)));
    s
}

fn stats(s: &Z3Solver) -> SolverStats {
    let mut st = SolverStats::default();
    s.stats(&mut st);
    st
}

/// A fake `cvc5`: a shell script with `body`, in a fresh directory.
fn fake(name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("wiser-fake-cvc5-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cvc5");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Z3's answer to the easy query, after cvc5 at `path` failed on it.
fn falls_back(path: PathBuf) {
    let (query, x) = easy_query();
    let mut s = solver(&path, Some(Duration::from_secs(20)));
    match s.solve(&query) {
        Answer::Sat(m) => assert!(holds(&m, &query, &x), "{path:?}"),
        other => panic!("{path:?}: {other:?}"),
    }
    let st = stats(&s);
    assert_eq!(
        (st.cvc5_queries, st.cvc5_fallbacks, st.z3_queries, st.z3_sat),
        (1, 1, 1, 1),
        "{path:?}: {st:?}"
    );
}

#[test]
fn a_missing_cvc5_falls_back_to_z3() {
    falls_back(PathBuf::from("/nonexistent/cvc5"));
}

#[test]
fn cvc5_errors_and_unknowns_fall_back_to_z3() {
    // Reads its input first, as cvc5 does, then answers.
    let error = "cat >/dev/null; echo '(error \"Parse Error: Unknown indexed function\")'; exit 1";
    falls_back(fake("error", error));
    falls_back(fake("unknown", "cat >/dev/null; echo unknown"));
    falls_back(fake("garbage", "cat >/dev/null; echo 'sat ((x'"));
    falls_back(fake("silent", "cat >/dev/null"));
    falls_back(fake("crash", "cat >/dev/null; kill -SEGV $$"));
    // Ends without reading its input.
    falls_back(fake("early", "exit 3"));
}

#[test]
fn a_cvc5_model_that_fails_the_check_falls_back_to_z3() {
    // x = 0.0 does not satisfy x + 1 == 3.
    let wrong = "cat >/dev/null; echo sat; echo '((x #b00000000000000000000000000000000))'";
    falls_back(fake("wrong", wrong));
}

#[test]
fn queries_without_floats_or_with_arrays_do_not_go_to_cvc5() {
    // A cvc5 that answers everything wrongly: it must not be asked.
    let liar = fake("liar", "cat >/dev/null; echo unsat");
    let mut s = solver(&liar, None);
    let b = Term::var("b", Sort::Bv(8));
    let q = Term::bv_eq(&b, &Term::bv(8, 7));
    // Z3 decides it (n = 3) or gives up; never the liar's unsat.
    let answer = s.solve(&[q]);
    assert_ne!(answer, Answer::Unsat, "{:?}", stats(&s));
    let a = Term::var("a", Sort::Array(Scalar::Bv(32), Scalar::Bv(32)));
    let (mut query, _) = easy_query();
    let elem = Term::select(&a, &Term::bv(32, 0));
    query.push(Term::bv_eq(&elem, &f32_var("x")));
    assert!(matches!(s.solve(&query), Answer::Sat(_)));
    assert_eq!(stats(&s).cvc5_queries, 0);
    // A float query does go to it (and its unsat is believed).
    assert_eq!(s.solve(&easy_query().0), Answer::Unsat);
    assert_eq!(stats(&s).cvc5_unsat, 1);
}

/// The easy query on `s`, whose solver in front of Z3 never answers and
/// whose limit is 1 s: `unknown` within 2 s. Returns the stats.
fn unknown_at_the_deadline(s: &mut Z3Solver) -> SolverStats {
    let start = Instant::now();
    let answer = s.solve(&easy_query().0);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert!(matches!(answer, Answer::Unknown(_)), "{answer:?}");
    stats(s)
}

#[test]
fn a_cvc5_that_does_not_answer_is_stopped_at_the_deadline() {
    let mut s = solver(
        fake("sleeper", "exec sleep 100"),
        Some(Duration::from_secs(1)),
    );
    let st = unknown_at_the_deadline(&mut s);
    assert_eq!(
        (st.cvc5_queries, st.cvc5_fallbacks, st.z3_queries),
        (1, 0, 0)
    );
}

#[test]
fn the_real_cvc5_decides_and_its_models_hold() {
    if !external_tool("cvc5") {
        return;
    }
    let (query, x) = easy_query();
    let mut s = solver("cvc5", Some(Duration::from_secs(20)));
    match s.solve(&query) {
        Answer::Sat(m) => assert!(holds(&m, &query, &x)),
        other => panic!("{other:?}"),
    }
    let st = stats(&s);
    assert_eq!((st.cvc5_sat, st.cvc5_fallbacks, st.z3_queries), (1, 0, 0));
}

/// A query neither solver decides in a second: doubles `x`, `y`, `z`
/// whose products in the two orders differ by a given amount.
fn hard_query() -> Vec<Term> {
    let t = FloatTy::F64;
    let v = |n: &str| Term::var(n, Sort::Bv(64));
    let c = |x: f64| Term::bv(64, x.to_bits());
    let mul =
        |a: &Term, b: &Term| Term::fp(FloatOp::Binary(FBinOp::Mul, t), &[a.clone(), b.clone()]);
    let (x, y, z) = (v("x"), v("y"), v("z"));
    let left = mul(&mul(&x, &y), &z);
    let right = mul(&x, &mul(&y, &z));
    let diff = Term::fp(FloatOp::Binary(FBinOp::Sub, t), &[left, right]);
    let cmp = |o, a: &Term, b: &Term| Term::fp(FloatOp::Cmp(o, t), &[a.clone(), b.clone()]);
    vec![
        cmp(CmpOp::Gt, &x, &c(1.0)),
        cmp(CmpOp::Gt, &y, &c(1.0)),
        cmp(CmpOp::Gt, &z, &c(1.0)),
        cmp(CmpOp::Lt, &x, &c(1e6)),
        cmp(CmpOp::Lt, &y, &c(1e6)),
        cmp(CmpOp::Lt, &z, &c(1e6)),
        cmp(CmpOp::Eq, &diff, &c(3.0e-7)),
    ]
}

#[test]
fn the_real_cvc5_is_stopped_at_the_deadline() {
    if !external_tool("cvc5") {
        return;
    }
    let mut s = solver("cvc5", Some(Duration::from_secs(1)));
    let start = Instant::now();
    let answer = s.solve(&hard_query());
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "{took:?}: {answer:?}");
    // Decided within the second or not, never wrong: a model is checked.
    if let Answer::Sat(_) = answer {
        assert_eq!(stats(&s).cvc5_sat + stats(&s).z3_sat, 1);
    }
}

/// A fake Python with the `bitwuzla` module: it answers the probe for the
/// module with its own path, and runs `body` for a query.
fn fake_python(name: &str, body: &str) -> PathBuf {
    let probe = "import sys, bitwuzla; print(sys.executable)";
    fake(
        &format!("python-{name}"),
        &format!("if [ \"$2\" = \"{probe}\" ]; then echo \"$0\"; exit 0; fi\n{body}"),
    )
}

/// A solver asking Bitwuzla through the Python at `python` first, then
/// the cvc5 at `cvc5` if any, then Z3.
fn via_bitwuzla(python: &PathBuf, cvc5: Option<PathBuf>, limit: Option<Duration>) -> Z3Solver {
    let mut s = Z3Solver::new(limit);
    s.set_bitwuzla(Some(Bitwuzla::with_python(python)));
    s.set_cvc5(cvc5.map(Cvc5::at));
    s
}

#[test]
fn a_python_without_bitwuzla_is_not_asked() {
    for python in [
        fake("no-module", "exit 1"),
        PathBuf::from("/nonexistent/python3"),
    ] {
        let (query, x) = easy_query();
        let mut s = via_bitwuzla(&python, None, Some(Duration::from_secs(20)));
        match s.solve(&query) {
            Answer::Sat(m) => assert!(holds(&m, &query, &x), "{python:?}"),
            other => panic!("{python:?}: {other:?}"),
        }
        let st = stats(&s);
        assert_eq!(
            (st.bitwuzla_queries, st.z3_sat),
            (0, 1),
            "{python:?}: {st:?}"
        );
    }
}

#[test]
fn bitwuzla_failures_leave_the_query_to_cvc5_or_z3() {
    let error = "cat >/dev/null; echo '(error \"unsupported\")'; exit 1";
    let wrong = "cat >/dev/null; echo sat; echo '((x #b00000000000000000000000000000000))'";
    for (name, body) in [
        ("error", error),
        ("unknown", "cat >/dev/null; echo unknown"),
        ("garbage", "cat >/dev/null; echo 'sat ((x'"),
        ("crash", "cat >/dev/null; kill -SEGV $$"),
        ("wrong", wrong),
    ] {
        let python = fake_python(name, body);
        // Then Z3.
        let (query, x) = easy_query();
        let mut s = via_bitwuzla(&python, None, Some(Duration::from_secs(20)));
        match s.solve(&query) {
            Answer::Sat(m) => assert!(holds(&m, &query, &x), "{name}"),
            other => panic!("{name}: {other:?}"),
        }
        let st = stats(&s);
        assert_eq!(
            (
                st.bitwuzla_queries,
                st.bitwuzla_fallbacks,
                st.z3_queries,
                st.z3_sat
            ),
            (1, 1, 1, 1),
            "{name}: {st:?}"
        );
        // With a cvc5 beside it (this one says unsat to all, after a
        // moment, so that Bitwuzla's failure comes first), cvc5's answer.
        let liar = fake(
            "liar-after-bitwuzla",
            "cat >/dev/null; sleep 0.3; echo unsat",
        );
        let mut s = via_bitwuzla(&python, Some(liar), None);
        assert_eq!(s.solve(&query), Answer::Unsat, "{name}");
        let st = stats(&s);
        assert_eq!(
            (st.bitwuzla_fallbacks, st.cvc5_unsat, st.z3_queries),
            (1, 1, 0),
            "{name}: {st:?}"
        );
    }
}

#[test]
fn a_bitwuzla_that_does_not_answer_is_stopped_at_the_deadline() {
    let python = fake_python("sleeper", "exec sleep 100");
    let mut s = via_bitwuzla(&python, None, Some(Duration::from_secs(1)));
    let st = unknown_at_the_deadline(&mut s);
    assert_eq!(
        (st.bitwuzla_queries, st.bitwuzla_fallbacks, st.z3_queries),
        (1, 0, 0)
    );
}

#[test]
fn the_real_bitwuzla_decides_and_its_models_hold() {
    if !external_python_module("bitwuzla") {
        return;
    }
    let (query, x) = easy_query();
    let mut s = via_bitwuzla(
        &PathBuf::from("python3"),
        None,
        Some(Duration::from_secs(20)),
    );
    match s.solve(&query) {
        Answer::Sat(m) => assert!(holds(&m, &query, &x)),
        other => panic!("{other:?}"),
    }
    let st = stats(&s);
    assert_eq!(
        (st.bitwuzla_sat, st.bitwuzla_fallbacks, st.z3_queries),
        (1, 0, 0)
    );
    // And its unsat: x + 1 == 3 with x == 0.
    let (mut query, x) = easy_query();
    query.push(Term::fp(
        FloatOp::Cmp(CmpOp::Eq, FloatTy::F32),
        &[x, f32c(0.0)],
    ));
    assert_eq!(s.solve(&query), Answer::Unsat);
    assert_eq!(stats(&s).bitwuzla_unsat, 1);
}

#[test]
fn the_real_bitwuzla_is_stopped_at_the_deadline() {
    if !external_python_module("bitwuzla") {
        return;
    }
    let mut s = via_bitwuzla(
        &PathBuf::from("python3"),
        None,
        Some(Duration::from_secs(1)),
    );
    let start = Instant::now();
    let answer = s.solve(&hard_query());
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "{took:?}: {answer:?}");
    if let Answer::Sat(_) = answer {
        assert_eq!(stats(&s).bitwuzla_sat + stats(&s).z3_sat, 1);
    }
}

#[test]
fn queries_with_unbounded_integers_do_not_go_to_bitwuzla() {
    // A Bitwuzla that answers everything wrongly: it must not be asked a
    // conversion between a float and a mathematical integer (reals,
    // which it lacks), and is asked the float query.
    let liar = fake_python("liar", "cat >/dev/null; echo unsat");
    let mut s = via_bitwuzla(&liar, None, None);
    let n = Term::var("n", Sort::Int);
    let as_float = Term::fp(FloatOp::FromInt(wiser_num::IntTy::INT, FloatTy::F32), &[n]);
    let q = Term::fp(
        FloatOp::Cmp(CmpOp::Eq, FloatTy::F32),
        &[as_float, f32c(3.0)],
    );
    // Z3 decides it (n = 3) or gives up; never the liar's unsat.
    let answer = s.solve(&[q]);
    assert_ne!(answer, Answer::Unsat, "{:?}", stats(&s));
    assert_eq!(stats(&s).bitwuzla_queries, 0);
    assert_eq!(s.solve(&easy_query().0), Answer::Unsat);
    assert_eq!(stats(&s).bitwuzla_unsat, 1);
}

/// The easy query through the Bitwuzla at `python` racing the cvc5 at
/// `cvc5`, one of which answers unsat at once and the other never:
/// the quick one's answer is taken within 5 s. Returns the stats.
fn race(python: PathBuf, cvc5: PathBuf) -> SolverStats {
    let mut s = via_bitwuzla(&python, Some(cvc5), Some(Duration::from_secs(20)));
    let start = Instant::now();
    assert_eq!(s.solve(&easy_query().0), Answer::Unsat);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    stats(&s)
}

#[test]
fn bitwuzla_and_cvc5_race_and_the_first_answer_is_taken() {
    // A slow Bitwuzla and a quick cvc5, then the other way round: the
    // quick one's answer is taken and the slow one stopped at once.
    let st = race(
        fake_python("slow", "exec sleep 100"),
        fake("quick-liar", "cat >/dev/null; echo unsat"),
    );
    assert_eq!(
        (
            st.cvc5_unsat,
            st.bitwuzla_queries,
            st.bitwuzla_fallbacks,
            st.external_settled,
            st.z3_queries
        ),
        (1, 1, 0, 1, 0),
        "{st:?}"
    );
    let st = race(
        fake_python("quick-liar", "cat >/dev/null; echo unsat"),
        fake("slow", "exec sleep 100"),
    );
    assert_eq!(
        (st.bitwuzla_unsat, st.cvc5_queries, st.cvc5_fallbacks),
        (1, 1, 0),
        "{st:?}"
    );
}

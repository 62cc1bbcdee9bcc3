//! Horn problems solved by Spacer and checked independently.

use wiser_smt::{
    Application, BvOp, BvPred, Clause, HornAnswer, HornProblem, Refusal, Relation, Sort, Term,
    Z3Solver,
};

/// `i = 0; while (i < n) i++; assert(i == n)` for `n >= 0`, over the
/// variables `i`, `n` (and `i2` for the next `i`), with `num`, `add`,
/// `lt` and `eq` building the sort's terms.
fn counter(
    i: &Term,
    n: &Term,
    i2: &Term,
    num: &dyn Fn(i64) -> Term,
    add: &dyn Fn(&Term, &Term) -> Term,
    le: &dyn Fn(&Term, &Term) -> Term,
    eq: &dyn Fn(&Term, &Term) -> Term,
) -> HornProblem {
    let app = |args: Vec<Term>| Some(Application { relation: 0, args });
    let lt = |a: &Term, b: &Term| Term::not(&le(b, a));
    HornProblem {
        relations: vec![Relation {
            name: "loop".into(),
            params: vec![i.clone(), n.clone()],
        }],
        clauses: vec![
            Clause {
                body: None,
                constraint: Term::and(&eq(i, &num(0)), &le(&num(0), n)),
                head: app(vec![i.clone(), n.clone()]),
            },
            Clause {
                body: app(vec![i.clone(), n.clone()]),
                constraint: Term::and(&lt(i, n), &eq(i2, &add(i, &num(1)))),
                head: app(vec![i2.clone(), n.clone()]),
            },
            Clause {
                body: app(vec![i.clone(), n.clone()]),
                constraint: Term::and(&le(n, i), &Term::not(&eq(i, n))),
                head: None,
            },
        ],
    }
}

fn int_counter() -> HornProblem {
    let (i, n, i2) = (Term::int_var("i"), Term::int_var("n"), Term::int_var("i2"));
    counter(
        &i,
        &n,
        &i2,
        &|k| Term::int(k),
        &Term::add,
        &Term::le,
        &Term::eq,
    )
}

fn bv_counter() -> HornProblem {
    let v = |s: &str| Term::var(s, Sort::Bv(32));
    counter(
        &v("i"),
        &v("n"),
        &v("i2"),
        &|k| Term::bv(32, k as u64),
        &|a, b| Term::bv_bin(BvOp::Add, a, b),
        &|a, b| Term::bv_cmp(BvPred::Sle, a, b),
        &Term::bv_eq,
    )
}

fn solved(p: &HornProblem) -> Vec<Term> {
    match Z3Solver::new(None).solve_horn(p, None) {
        HornAnswer::Solved(s) => s,
        other => panic!("expected a solution, got {other:?}"),
    }
}

/// Spacer solves `p`, and a fresh solver accepts the solution.
fn proved_and_checked(p: &HornProblem) {
    let s = solved(p);
    assert_eq!(
        p.check(&s, &mut Z3Solver::new(None)),
        Ok(()),
        "invariant {}",
        s[0]
    );
}

#[test]
fn a_counter_over_integers_is_proved_and_the_proof_checks() {
    proved_and_checked(&int_counter());
}

#[test]
fn a_counter_over_bit_vectors_is_proved_and_the_proof_checks() {
    proved_and_checked(&bv_counter());
}

#[test]
fn a_corrupted_invariant_is_refused() {
    let p = int_counter();
    // `true` is not inductive enough to exclude the error.
    let weak = vec![Term::bool(true)];
    assert_eq!(
        p.check(&weak, &mut Z3Solver::new(None)),
        Err(Refusal::Violated { clause: 2 })
    );
    // `i == 0` holds initially but is not preserved by the loop.
    let (i, n) = (Term::int_var("i"), Term::int_var("n"));
    let wrong = vec![Term::and(
        &Term::eq(&i, &Term::int(0)),
        &Term::le(&Term::int(0), &n),
    )];
    assert_eq!(
        p.check(&wrong, &mut Z3Solver::new(None)),
        Err(Refusal::Violated { clause: 1 })
    );
    // A formula over a variable that is no parameter is malformed.
    let stray = vec![Term::le(&Term::int_var("k"), &i)];
    assert!(matches!(
        p.check(&stray, &mut Z3Solver::new(None)),
        Err(Refusal::Malformed(_))
    ));
}

#[test]
fn an_unsafe_system_is_refuted() {
    let mut p = int_counter();
    // Assert i < n after the loop instead: it fails whenever the loop ran.
    let (i, n) = (Term::int_var("i"), Term::int_var("n"));
    p.clauses[2].constraint = Term::and(&Term::le(&n, &i), &Term::not(&Term::lt(&i, &n)));
    assert!(matches!(
        Z3Solver::new(None).solve_horn(&p, None),
        HornAnswer::Refuted
    ));
}

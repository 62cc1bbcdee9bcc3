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
    let app = |args: Vec<Term>| Application { relation: 0, args };
    let lt = |a: &Term, b: &Term| Term::not(&le(b, a));
    HornProblem {
        relations: vec![Relation {
            name: "loop".into(),
            params: vec![i.clone(), n.clone()],
        }],
        clauses: vec![
            Clause {
                body: Vec::new(),
                constraint: Term::and(&eq(i, &num(0)), &le(&num(0), n)),
                head: Some(app(vec![i.clone(), n.clone()])),
            },
            Clause {
                body: vec![app(vec![i.clone(), n.clone()])],
                constraint: Term::and(&lt(i, n), &eq(i2, &add(i, &num(1)))),
                head: Some(app(vec![i2.clone(), n.clone()])),
            },
            Clause {
                body: vec![app(vec![i.clone(), n.clone()])],
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

/// The summary of `int sum(int n) { if (n <= 0) return 0; return n +
/// sum(n - 1); }`, called once as `sum(k)` for any `k`, with the query
/// `sum(k) < 0`: relation 0 holds the calls (`n`), relation 1 the
/// summary (`n`, `r`); the recursive call's clause is non-linear (the
/// call's own relation and the callee's summary).
fn summed() -> HornProblem {
    let v = Term::int_var;
    let (n, r, r1, k) = (v("n"), v("r"), v("r1"), v("k"));
    let call = |a: &Term| Application {
        relation: 0,
        args: vec![a.clone()],
    };
    let sum = |a: &Term, b: &Term| Application {
        relation: 1,
        args: vec![a.clone(), b.clone()],
    };
    let minus1 = Term::sub(&n, &Term::int(1));
    HornProblem {
        relations: vec![
            Relation {
                name: "call sum".into(),
                params: vec![n.clone()],
            },
            Relation {
                name: "sum".into(),
                params: vec![n.clone(), r.clone()],
            },
        ],
        clauses: vec![
            // main calls sum(k).
            Clause {
                body: Vec::new(),
                constraint: Term::bool(true),
                head: Some(call(&k)),
            },
            // The base case.
            Clause {
                body: vec![call(&n)],
                constraint: Term::and(&Term::le(&n, &Term::int(0)), &Term::eq(&r, &Term::int(0))),
                head: Some(sum(&n, &r)),
            },
            // The recursive call is a call.
            Clause {
                body: vec![call(&n)],
                constraint: Term::lt(&Term::int(0), &n),
                head: Some(call(&minus1)),
            },
            // ... whose summary gives the result.
            Clause {
                body: vec![call(&n), sum(&minus1, &r1)],
                constraint: Term::and(
                    &Term::lt(&Term::int(0), &n),
                    &Term::eq(&r, &Term::add(&n, &r1)),
                ),
                head: Some(sum(&n, &r)),
            },
            // main's assertion.
            Clause {
                body: vec![sum(&k, &r)],
                constraint: Term::lt(&r, &Term::int(0)),
                head: None,
            },
        ],
    }
}

#[test]
fn a_recursive_summary_is_proved_and_the_proof_checks() {
    proved_and_checked(&summed());
}

#[test]
fn a_corrupted_summary_is_refused() {
    let p = summed();
    let (n, r) = (Term::int_var("n"), Term::int_var("r"));
    let right = vec![Term::bool(true), Term::le(&Term::int(0), &r)];
    assert_eq!(p.check(&right, &mut Z3Solver::new(None)), Ok(()));
    // `r == 0` holds in the base case only: the non-linear clause, whose
    // premise assumes it of the callee, refuses it for the caller.
    let base_only = vec![Term::bool(true), Term::eq(&r, &Term::int(0))];
    assert_eq!(
        p.check(&base_only, &mut Z3Solver::new(None)),
        Err(Refusal::Violated { clause: 3 })
    );
    // A relational summary holds too: the callee's `r1 >= n - 1` and
    // `r1 >= 0`, assumed from the second body, give `n + r1 >= n`.
    let bigger = vec![
        Term::bool(true),
        Term::and(&Term::le(&n, &r), &Term::le(&Term::int(0), &r)),
    ];
    assert_eq!(p.check(&bigger, &mut Z3Solver::new(None)), Ok(()));
}

#[test]
fn a_recursive_bug_is_refuted() {
    let mut p = summed();
    // sum(k) > 0 fails for k <= 0.
    p.clauses[4].constraint = Term::le(&Term::int_var("r"), &Term::int(0));
    assert!(matches!(
        Z3Solver::new(None).solve_horn(&p, None),
        HornAnswer::Refuted
    ));
}

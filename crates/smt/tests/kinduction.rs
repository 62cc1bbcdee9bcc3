//! k-induction's certificate, checked independently: accepted when it
//! holds, refused when corrupted.

use wiser_smt::{
    Answer, Application, Clause, HornProblem, Refusal, Relation, Scalar, Solver, Sort, Term,
    Unrolling, Z3Solver,
};

/// `x = 0; while (*) x = x == 0 ? 1 : x == 1 ? 0 : x + 1;` with the error
/// `x == bad`. For `bad == 3` the property is 2-inductive (only `x == 2`
/// steps to 3, and no state steps to 2) but not 1-inductive.
fn toggle(bad: i64) -> HornProblem {
    let (x, x2) = (Term::int_var("x"), Term::int_var("x2"));
    let app = |v: &Term| Application {
        relation: 0,
        args: vec![v.clone()],
    };
    let is = |k: i64| Term::eq(&x, &Term::int(k));
    let next = Term::ite(
        &is(0),
        &Term::int(1),
        &Term::ite(&is(1), &Term::int(0), &Term::add(&x, &Term::int(1))),
    );
    HornProblem {
        relations: vec![Relation {
            name: "loop".into(),
            params: vec![x.clone()],
        }],
        clauses: vec![
            Clause {
                body: Vec::new(),
                constraint: is(0),
                head: Some(app(&x)),
            },
            Clause {
                body: vec![app(&x)],
                constraint: Term::eq(&x2, &next),
                head: Some(app(&x2)),
            },
            Clause {
                body: vec![app(&x)],
                constraint: is(bad),
                head: None,
            },
        ],
    }
}

fn check(p: &HornProblem, k: usize, facts: &[Term]) -> Result<(), Refusal> {
    p.check_k_inductive(k, facts, &mut Z3Solver::new(None))
}

#[test]
fn non_linear_clauses_are_refused() {
    let mut p = toggle(3);
    let again = p.clauses[1].body[0].clone();
    p.clauses[1].body.push(again);
    assert!(!p.is_linear());
    assert!(matches!(
        check(&p, 2, &[Term::bool(true)]),
        Err(Refusal::Malformed(_))
    ));
}

#[test]
fn a_two_inductive_property_is_proved_at_two_not_at_one() {
    let p = toggle(3);
    let none = [Term::bool(true)];
    assert_eq!(check(&p, 1, &none), Err(Refusal::NotKInductive { k: 1 }));
    assert_eq!(check(&p, 2, &none), Ok(()));
    // A k that works keeps working deeper.
    assert_eq!(check(&p, 3, &none), Ok(()));
}

#[test]
fn an_inductive_fact_makes_one_step_enough() {
    let p = toggle(3);
    let x = Term::int_var("x");
    let fact = Term::and(&Term::le(&Term::int(0), &x), &Term::le(&x, &Term::int(1)));
    assert_eq!(check(&p, 1, &[fact]), Ok(()));
}

#[test]
fn a_fact_false_at_the_entry_is_refused() {
    let p = toggle(3);
    let x = Term::int_var("x");
    // `x >= 5` would make the step case trivial, but the entry breaks it.
    let wrong = Term::le(&Term::int(5), &x);
    assert_eq!(check(&p, 1, &[wrong]), Err(Refusal::Violated { clause: 0 }));
    assert_eq!(
        check(&p, 1, &[Term::bool(false)]),
        Err(Refusal::Violated { clause: 0 })
    );
    // A fact over a variable that is no parameter is malformed, and so
    // is a missing one.
    let stray = Term::le(&Term::int_var("y"), &x);
    assert!(matches!(check(&p, 2, &[stray]), Err(Refusal::Malformed(_))));
    assert!(matches!(check(&p, 2, &[]), Err(Refusal::Malformed(_))));
    assert!(matches!(
        check(&p, 0, &[Term::bool(true)]),
        Err(Refusal::Malformed(_))
    ));
}

#[test]
fn a_reachable_error_is_refused_by_the_base_case() {
    // x == 1 after one step: the step case at 1 fails, the base case at
    // depth 1 finds the path.
    let p = toggle(1);
    let none = [Term::bool(true)];
    assert_eq!(check(&p, 1, &none), Err(Refusal::NotKInductive { k: 1 }));
    assert_eq!(check(&p, 3, &none), Err(Refusal::Reachable { depth: 1 }));
    // x == 0 at the entry: depth 0.
    assert_eq!(
        check(&toggle(0), 2, &none),
        Err(Refusal::Reachable { depth: 0 })
    );
}

#[test]
fn an_unreachable_error_past_a_negative_value_is_proved() {
    // -1 is never reached (x only grows from 2 on), but no state steps
    // to -1 except -2, and so on: not k-inductive for any k.
    let p = toggle(-1);
    let none = [Term::bool(true)];
    assert_eq!(check(&p, 4, &none), Err(Refusal::NotKInductive { k: 4 }));
    let x = Term::int_var("x");
    assert_eq!(check(&p, 1, &[Term::le(&Term::int(0), &x)]), Ok(()));
}

#[test]
fn array_parameters_are_refused() {
    // A relation over an array: a step would equate arrays, which the
    // terms cannot say.
    let sort = Sort::Array(Scalar::Int, Scalar::Int);
    let a = Term::var("a", sort);
    let p = HornProblem {
        relations: vec![Relation {
            name: "loop".into(),
            params: vec![a.clone()],
        }],
        clauses: vec![Clause {
            body: Vec::new(),
            constraint: Term::bool(true),
            head: Some(Application {
                relation: 0,
                args: vec![a],
            }),
        }],
    };
    assert!(p.is_linear() && !p.is_unrollable());
    assert!(matches!(
        check(&p, 1, &[Term::bool(true)]),
        Err(Refusal::Malformed(_))
    ));
}

#[test]
fn a_loop_that_may_stay_put_is_proved_over_simple_paths() {
    // `toggle(3)` with a step that changes nothing: without the
    // simple-path constraints, `x == 2` staying put for k steps and then
    // stepping to 3 refutes every step case. Over distinct states, 2 has
    // no predecessor but itself, so k = 2 holds again.
    let mut p = toggle(3);
    let x = Term::int_var("x");
    p.clauses.push(Clause {
        body: vec![Application {
            relation: 0,
            args: vec![x.clone()],
        }],
        constraint: Term::bool(true),
        head: Some(Application {
            relation: 0,
            args: vec![x],
        }),
    });
    let facts = [Term::bool(true)];
    assert!(matches!(
        check(&p, 1, &facts),
        Err(Refusal::NotKInductive { k: 1 })
    ));
    assert_eq!(check(&p, 2, &facts), Ok(()));
    // A search adds the pairs lazily: the step case at 2 alone has a
    // counterexample, which repeats a state; with the pairs its
    // counterexamples repeat, it is unsatisfiable within the 3 pairs.
    let unrolling = Unrolling::new(&p, &facts);
    let mut solver = Z3Solver::new(None);
    let mut query = unrolling.step(2);
    for round in 0.. {
        assert!(round < 3, "more rounds than pairs");
        match solver.solve(&query) {
            Answer::Sat(model) => {
                let repeated = unrolling.repeated(2, &model);
                assert!(!repeated.is_empty(), "a counterexample over a simple path");
                query.extend(repeated);
            }
            Answer::Unsat => break,
            Answer::Unknown(why) => panic!("{why}"),
        }
    }
}

//! Every solver layer must answer as bare Z3 does (KLEE's validating
//! solver, as a property test): random sequences of queries go through the
//! caching chain and, one by one, through a fresh Z3; sat/unsat must agree
//! and every model returned must satisfy its query.

use proptest::prelude::*;
use wiser_smt::{Answer, CexCache, QueryCache, Solver, Term, Z3Solver};

fn var(i: usize) -> Term {
    Term::int_var(["x", "y", "z"][i])
}

fn arb_int() -> impl Strategy<Value = Term> {
    let leaf = prop_oneof![(-6i64..6).prop_map(Term::int), (0usize..3).prop_map(var),];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::add(&a, &b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::sub(&a, &b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::mul(&a, &b)),
            (inner.clone(), -4i64..4).prop_map(|(a, k)| Term::div(&a, &Term::int(k))),
            (inner.clone(), -4i64..4).prop_map(|(a, k)| Term::rem(&a, &Term::int(k))),
            (inner.clone(), inner).prop_map(|(a, b)| Term::div(&a, &b)),
        ]
    })
}

fn arb_bool() -> impl Strategy<Value = Term> {
    let atom = (arb_int(), arb_int(), 0u8..4).prop_map(|(a, b, op)| match op {
        0 => Term::le(&a, &b),
        1 => Term::lt(&a, &b),
        2 => Term::eq(&a, &b),
        _ => Term::ne(&a, &b),
    });
    atom.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::and(&a, &b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::or(&a, &b)),
            inner.prop_map(|a| Term::not(&a)),
        ]
    })
}

/// A sequence of queries sharing constraints, as a search produces them.
fn arb_queries() -> impl Strategy<Value = Vec<Vec<Term>>> {
    (
        prop::collection::vec(arb_bool(), 1..6),
        prop::collection::vec(prop::collection::vec(0usize..6, 1..4), 1..8),
    )
        .prop_map(|(pool, picks)| {
            picks
                .into_iter()
                .map(|ix| {
                    ix.into_iter()
                        .map(|i| pool[i % pool.len()].clone())
                        .collect()
                })
                .collect()
        })
}

fn verdict(a: &Answer) -> Option<bool> {
    match a {
        Answer::Sat(_) => Some(true),
        Answer::Unsat => Some(false),
        Answer::Unknown(_) => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_chain_agrees_with_bare_z3(queries in arb_queries()) {
        let timeout = Some(std::time::Duration::from_secs(5));
        let mut chain = QueryCache::new(CexCache::new(Z3Solver::new(timeout), 4), 64);
        for q in &queries {
            let layered = chain.solve(q);
            let bare = Z3Solver::new(timeout).solve(q);
            if let (Some(a), Some(b)) = (verdict(&layered), verdict(&bare)) {
                prop_assert_eq!(a, b, "query {:?}: chain {:?}, Z3 {:?}", q, layered, bare);
            }
            if let Answer::Sat(m) = &layered {
                for c in q {
                    prop_assert!(m.holds(c), "model {:?} violates {}", m, c);
                }
            }
        }
    }
}

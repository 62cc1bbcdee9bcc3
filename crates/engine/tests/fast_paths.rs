//! The symbolic domain's own layers (constant folding, the interval box,
//! the path's model, independence slicing) must decide every branch side
//! as bare Z3 does on the whole path condition. Random walks down random
//! branch conditions, with validation on: no disagreement allowed.

use proptest::prelude::*;
use wiser_engine::path::PathCond;
use wiser_engine::Feasible;
use wiser_ir::Site;
use wiser_semantics::Policy;
use wiser_smt::{CexCache, QueryCache, Term, Z3Solver};

fn var(i: usize) -> Term {
    Term::int_var(["n", "m", "k"][i])
}

fn arb_atom() -> impl Strategy<Value = Term> {
    let lin = (
        0usize..3,
        -3i64..4,
        -20i64..20,
        prop::option::of((0usize..3, -2i64..3)),
    )
        .prop_map(|(v, k, c, other)| {
            let mut t = Term::add(&Term::mul(&Term::int(k), &var(v)), &Term::int(c));
            if let Some((w, j)) = other {
                t = Term::add(&t, &Term::mul(&Term::int(j), &var(w)));
            }
            t
        });
    (lin, 0u8..4, prop::option::weighted(0.15, 0usize..3)).prop_map(|(t, op, square)| {
        let t = match square {
            Some(v) => Term::add(&t, &Term::mul(&var(v), &var(v))),
            None => t,
        };
        let zero = Term::int(0);
        match op {
            0 => Term::le(&t, &zero),
            1 => Term::lt(&t, &zero),
            2 => Term::eq(&t, &zero),
            _ => Term::ne(&t, &zero),
        }
    })
}

/// Atoms and boolean combinations of them (combinations of one-variable
/// bounds exercise the point-based decision).
fn arb_cond() -> impl Strategy<Value = Term> {
    let single = (0usize..3, -6i64..6, -6i64..6, 0u8..3).prop_map(|(v, a, b, shape)| {
        let x = var(v);
        let ge = Term::ge(&x, &Term::int(a));
        let le = Term::le(&x, &Term::int(b));
        match shape {
            0 => Term::and(&ge, &le),
            1 => Term::or(&Term::not(&ge), &le),
            _ => Term::not(&Term::or(&ge, &Term::eq(&x, &Term::int(b)))),
        }
    });
    prop_oneof![
        arb_atom(),
        single,
        (arb_atom(), arb_atom()).prop_map(|(a, b)| Term::or(&a, &b)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn fast_paths_agree_with_z3(conds in prop::collection::vec((arb_cond(), any::<bool>()), 1..10)) {
        let timeout = Some(std::time::Duration::from_millis(300));
        let chain = QueryCache::new(CexCache::new(Z3Solver::new(timeout), 4), 64);
        let mut dom = Feasible::new(chain).with_validation(Box::new(Z3Solver::new(timeout)));
        let mut path = PathCond::new();
        let site = Site { pc: 0, check: None };
        for (c, prefer_then) in conds {
            let fork = Policy::<wiser_engine::Symbolic>::branch(&mut dom, &path, site, &c);
            let next = if prefer_then { fork.then.or(fork.otherwise) } else { fork.otherwise.or(fork.then) };
            match next {
                Some(p) => path = p,
                // A side Z3 could not decide in time (a loaded machine, a
                // nonlinear condition) is kept, as the engine keeps it, so
                // the path may be infeasible after all: then both sides of
                // a later condition can be. Without such an answer, a
                // feasible path always has a feasible side.
                None if dom.stats.unknown > 0 => break,
                None => prop_assert!(false, "a feasible path has no feasible side on {}", c),
            }
        }
        prop_assert!(dom.mismatches.is_empty(), "{:?}", dom.mismatches);
    }
}

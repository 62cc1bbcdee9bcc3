//! Exact decisions without a solver, for queries over few values.
//!
//! * [`decide_by_points`]: a boolean combination of bounds on one variable
//!   that no other constraint mentions is satisfiable iff it holds at one
//!   of finitely many candidate points.
//! * [`decide_by_enumeration`]: when the variables of the relevant slice
//!   have finite sets, try their points. The variable with the largest (or
//!   an infinite) set need not be enumerated when every constraint is
//!   linear in it: for each point of the others, each constraint allows an
//!   exact set of its values, and the query is satisfiable at that point
//!   iff the intersection is not empty. Euclid's subtraction loop over
//!   `1 <= a, b <= 60` is decided with 60 points per query this way.
//!
//! * [`decide_by_moving_a_fresh_variable`]: a condition that is a bound
//!   on a variable no constraint mentions, once the others take their
//!   model values, is satisfied by moving that variable.
//!
//! The first two are sound and complete for what they accept; the third
//! only finds models; anything else goes to the solver.

use crate::path::{as_bound, is_numeric_var, Interval, PathCond, ValueSet};
use std::sync::Arc;
use wiser_num::Int;
use wiser_smt::{Kind, Model, Sort, Term, Value};

/// At most this many points of the enumerated variables are tried.
const MAX_POINTS: u64 = 4096;

/// At most this many points when no variable can be solved for (a
/// constraint is not linear in any): there the solver bit-blasts, and
/// spent a second per query on two `char` inputs and their remainders
/// (SV-COMP's `gcd_3`), where trying all 65,536 points takes milliseconds.
const MAX_POINTS_UNSOLVED: u64 = 1 << 16;

/// Decides `c` when it is a boolean combination of bounds on one variable
/// `x` that no other constraint of the path mentions. The values of `x`
/// satisfying `c` inside its set form a union of intervals whose ends are
/// among the bounds' ends (and their neighbours) and the set's ends, so
/// `c` is satisfiable exactly when one of those candidates satisfies it.
/// Returns the new raw model, or `None` inside when unsatisfiable; `None`
/// outside when not applicable.
pub(crate) fn decide_by_points(
    path: &PathCond,
    model: &Arc<Model>,
    c: &Term,
) -> Option<Option<Arc<Model>>> {
    let mut atoms = Vec::new();
    if !bound_atoms(c, &mut atoms) {
        return None;
    }
    let x = atoms.first()?.0.clone();
    if atoms.iter().any(|(v, _)| *v != x) || path.constrains(&x) {
        return None;
    }
    Some(point_satisfying(path, model, &x, &atoms, c))
}

/// Finds, without the solver, a model of the path and `c` when `c` becomes
/// a boolean combination of bounds on one variable `x` once the other
/// variables take their model values, and no other constraint of the path
/// mentions `x` (a fresh input, as a sorting loop compares each new
/// element with the last): moving `x` inside its set keeps the path's
/// constraints true, so a candidate point of [`decide_by_points`] that
/// satisfies `c` gives the model. Only ever says "satisfiable": when no
/// point does, other values of the other variables might, and the caller
/// goes on to the other deciders.
pub(crate) fn decide_by_moving_a_fresh_variable(
    path: &PathCond,
    model: &Arc<Model>,
    c: &Term,
) -> Option<Arc<Model>> {
    let vars = c.vars();
    // A condition on one variable is `decide_by_points`'s.
    if vars.len() < 2 || vars.len() > MAX_FRESH_VARS {
        return None;
    }
    if !vars.iter().all(is_numeric_var) {
        return None;
    }
    // The other variables at their values in the effective model (the raw
    // model clamped into the box), written into the raw model so that the
    // two agree on them: `c` is evaluated at the values the path has.
    let mut at_values = Model::clone(model);
    for v in &vars {
        at_values.set_int(v.as_var()?.clone(), path.value(v)?);
    }
    let at_values = Arc::new(at_values);
    for x in vars.iter().filter(|x| !path.constrains(x)) {
        let fixed = c.substitute(&|v: &Term| {
            if v == x {
                return None;
            }
            let value = at_values.int(v.as_var()?);
            match v.sort() {
                Sort::Bv(w) => Some(Term::bv(w, value.low_bits(64))),
                Sort::Int => Some(Term::int(value)),
                _ => None,
            }
        });
        let mut atoms = Vec::new();
        if !bound_atoms(&fixed, &mut atoms) || atoms.iter().any(|(v, _)| v != x) {
            continue;
        }
        if let Some(moved) = point_satisfying(path, &at_values, x, &atoms, &fixed) {
            // The moved model satisfies `c` itself, the other variables
            // unmoved.
            if moved.holds(c) {
                return Some(moved);
            }
        }
    }
    None
}

/// At most this many variables in a condition for
/// [`decide_by_moving_a_fresh_variable`] (each is tried).
const MAX_FRESH_VARS: usize = 4;

/// The model moved to the first candidate point of `x` in its set at which
/// `c`, a combination of the bounds `atoms` on `x`, holds.
fn point_satisfying(
    path: &PathCond,
    model: &Arc<Model>,
    x: &Term,
    atoms: &[(Term, ValueSet)],
    c: &Term,
) -> Option<Arc<Model>> {
    let name = x.as_var()?.clone();
    let boxed = path.set(x);
    let mut candidates: Vec<Int> = boxed.ends();
    for (_, s) in atoms {
        for end in s.ends() {
            candidates.extend([end.sub(&Int::ONE), end.clone(), end.add(&Int::ONE)]);
        }
    }
    candidates.sort();
    candidates.dedup();
    for v in candidates.into_iter().filter(|v| boxed.contains(v)) {
        let mut moved = Model::clone(model);
        moved.set_int(name.clone(), v);
        if moved.holds(c) {
            return Some(Arc::new(moved));
        }
    }
    None
}

/// Collects the bounds that `c` is a boolean combination of; false if some
/// atom is not a bound.
fn bound_atoms(c: &Term, out: &mut Vec<(Term, ValueSet)>) -> bool {
    match c.kind() {
        Kind::And(xs) | Kind::Or(xs) => xs.iter().all(|x| bound_atoms(x, out)),
        Kind::Not(x) if !matches!(x.kind(), Kind::Eq(_) | Kind::BvEq(..)) => bound_atoms(x, out),
        _ => match as_bound(c) {
            Some(b) => {
                out.push(b);
                true
            }
            None => false,
        },
    }
}

/// The number of values in `s`, if finite and within a `u64`.
fn set_size(s: &ValueSet) -> Option<u64> {
    s.size()
        .and_then(|n| n.to_i64())
        .and_then(|n| u64::try_from(n).ok())
}

/// Can the seed's variables alone be enumerated? The slice's variables
/// include them, and all but one are enumerated, so when the seed's sets
/// but the largest already hold more points than any enumeration tries,
/// the slice (whose making walks the path's constraints) is not made.
fn few_points(path: &PathCond, seed: &[Term]) -> bool {
    let mut sizes: Vec<u64> = seed
        .iter()
        .map(|v| set_size(&path.set(v)).unwrap_or(u64::MAX))
        .collect();
    sizes.sort_unstable();
    sizes.pop();
    let mut points: u64 = 1;
    for size in sizes {
        points = points.saturating_mul(size);
    }
    points <= MAX_POINTS.max(MAX_POINTS_UNSOLVED)
}

/// Decides `c` on the slice of the path relevant to `seed` (its
/// variables) by enumeration, as the module explains. Returns the new raw
/// model, or `None` inside when unsatisfiable; `None` outside when not
/// applicable.
pub(crate) fn decide_by_enumeration(
    path: &PathCond,
    c: &Term,
    seed: &[Term],
) -> Option<Option<Arc<Model>>> {
    let model = path.model.as_ref()?;
    if !few_points(path, seed) {
        return None;
    }
    let (mut query, vars) = path.related(seed);
    query.push(c.clone());
    if vars.is_empty() || !vars.iter().all(is_numeric_var) {
        return None;
    }
    let sets: Vec<ValueSet> = vars.iter().map(|v| path.set(v)).collect();
    let sizes: Vec<Option<u64>> = sets.iter().map(set_size).collect();
    // The variable to solve: the one with the largest set among those
    // every constraint is linear in.
    let solved = (0..vars.len())
        .filter(|&i| query.iter().all(|q| linear_in(q, &vars[i])))
        .max_by_key(|&i| sizes[i].unwrap_or(u64::MAX));
    let most = if solved.is_some() {
        MAX_POINTS
    } else {
        MAX_POINTS_UNSOLVED
    };
    let mut points: u64 = 1;
    for (i, size) in sizes.iter().enumerate() {
        if Some(i) == solved {
            continue;
        }
        points = points.checked_mul((*size)?)?;
        if points > most {
            return None;
        }
    }
    let enumerated: Vec<usize> = (0..vars.len()).filter(|&i| Some(i) != solved).collect();
    let ranges: Vec<Vec<Int>> = enumerated
        .iter()
        .map(|&i| sets[i].members().map(|m| m.collect()))
        .collect::<Option<_>>()?;
    let mentions: Vec<bool> = match solved {
        Some(l) => query.iter().map(|q| q.mentions(&vars[l])).collect(),
        None => Vec::new(),
    };
    let mut odometer = vec![0usize; enumerated.len()];
    loop {
        let at = |x: &Term, v: Int| match enumerated.iter().position(|&i| vars[i] == *x) {
            Some(k) => ranges[k][odometer[k]].clone(),
            None => v,
        };
        let found = match solved {
            None => query
                .iter()
                .all(|t| model.holds_with(t, &at))
                .then_some(None),
            // A condition the solving does not handle after all: leave the
            // query to the solver rather than guess.
            Some(l) => match solve_last(&query, &mentions, &vars[l], &sets[l], model, &at) {
                Err(NotHandled) => return None,
                Ok(v) => v.map(Some),
            },
        };
        if let Some(last) = found {
            let mut m = Model::clone(model);
            for (k, &i) in enumerated.iter().enumerate() {
                m.set_int(vars[i].as_var()?.clone(), ranges[k][odometer[k]].clone());
            }
            if let (Some(l), Some(v)) = (solved, last) {
                m.set_int(vars[l].as_var()?.clone(), v);
            }
            return Some(Some(Arc::new(m)));
        }
        // Next point, odometer style.
        let mut k = 0;
        loop {
            if k == odometer.len() {
                return Some(None);
            }
            if odometer[k] + 1 < ranges[k].len() {
                odometer[k] += 1;
                break;
            }
            odometer[k] = 0;
            k += 1;
        }
    }
}

/// A condition outside what solving for one variable handles: the caller
/// must not conclude anything from it.
struct NotHandled;

/// Given values of the other variables (through `at`), a value of `x` in
/// `set` satisfying every term of `query`, if one exists (the one nearest
/// to its model value).
fn solve_last(
    query: &[Term],
    mentions: &[bool],
    x: &Term,
    set: &ValueSet,
    model: &Model,
    at: &dyn Fn(&Term, Int) -> Int,
) -> Result<Option<Int>, NotHandled> {
    let mut allowed = set.clone();
    for (t, mentions_x) in query.iter().zip(mentions) {
        if !mentions_x {
            if !model.holds_with(t, at) {
                return Ok(None);
            }
            continue;
        }
        narrow(&mut allowed, t, x, model, at).ok_or(NotHandled)?;
        if allowed.is_empty() {
            return Ok(None);
        }
    }
    let name = x.as_var().ok_or(NotHandled)?;
    Ok(allowed.clamp(&at(x, model.int(name))))
}

/// Does `t` mention `x`?
fn mentions(t: &Term, x: &Term) -> bool {
    t.mentions(x)
}

/// Is `t` linear in `x`: built with and/or/not from integer comparisons in
/// which `x` occurs only as a monomial of the linear form?
fn linear_in(t: &Term, x: &Term) -> bool {
    if !matches!(x.kind(), Kind::Var(_, wiser_smt::Sort::Int)) {
        return !t.mentions(x);
    }
    match t.kind() {
        Kind::Bool(_) => true,
        Kind::And(xs) | Kind::Or(xs) => xs.iter().all(|y| linear_in(y, x)),
        Kind::Not(y) => linear_in(y, x),
        Kind::Le(lin) | Kind::Eq(lin) => match lin.kind() {
            Kind::Var(..) => true,
            Kind::Linear(ms, _) => ms.iter().all(|(a, _)| a == x || !a.mentions(x)),
            _ => !lin.mentions(x),
        },
        _ => !t.mentions(x),
    }
}

/// Narrows `allowed` to the values of `x` for which `t` holds, the other
/// variables fixed by `at`, in place for the common forms (a bound, an
/// equality, a disequality, a conjunction of them). `None`: `t` is not a
/// form this handles.
fn narrow(
    allowed: &mut ValueSet,
    t: &Term,
    x: &Term,
    model: &Model,
    at: &dyn Fn(&Term, Int) -> Int,
) -> Option<()> {
    if !mentions(t, x) {
        if !model.holds_with(t, at) {
            *allowed = ValueSet::empty();
        }
        return Some(());
    }
    match t.kind() {
        Kind::And(xs) => {
            for y in xs.iter() {
                narrow(allowed, y, x, model, at)?;
            }
        }
        Kind::Le(lin) | Kind::Eq(lin) => {
            let (k, r) = split(lin, x, model, at)?;
            let is_le = matches!(t.kind(), Kind::Le(_));
            if k.is_zero() {
                let holds = if is_le { r <= Int::ZERO } else { r.is_zero() };
                if !holds {
                    *allowed = ValueSet::empty();
                }
                return Some(());
            }
            // k·x + r ⋈ 0.
            let bound = r.neg();
            if !is_le {
                if !bound.rem_trunc(&k).is_zero() {
                    *allowed = ValueSet::empty();
                } else {
                    let v = bound.div_trunc(&k);
                    allowed.clip(Some(&v), Some(&v));
                }
            } else if k.is_negative() {
                allowed.clip(Some(&bound.div_ceil(&k)), None);
            } else {
                allowed.clip(None, Some(&bound.div_floor(&k)));
            }
        }
        Kind::Not(y) if matches!(y.kind(), Kind::Eq(_)) => {
            let Kind::Eq(lin) = y.kind() else {
                return None;
            };
            let (k, r) = split(lin, x, model, at)?;
            if k.is_zero() {
                if r.is_zero() {
                    *allowed = ValueSet::empty();
                }
            } else if r.neg().rem_trunc(&k).is_zero() {
                allowed.remove(&r.neg().div_trunc(&k));
            }
        }
        _ => *allowed = allowed.meet(&allowed_by(t, x, model, at)?),
    }
    Some(())
}

/// The values of `x` for which `t` holds, the other variables fixed by
/// `at` (`t` is [`linear_in`] `x`). `None`: `t` is not a form this
/// handles.
fn allowed_by(
    t: &Term,
    x: &Term,
    model: &Model,
    at: &dyn Fn(&Term, Int) -> Int,
) -> Option<ValueSet> {
    if !mentions(t, x) {
        return Some(if model.holds_with(t, at) {
            ValueSet::all()
        } else {
            ValueSet::empty()
        });
    }
    Some(match t.kind() {
        Kind::Bool(true) => ValueSet::all(),
        Kind::Bool(false) => ValueSet::empty(),
        Kind::And(xs) => {
            let mut s = ValueSet::all();
            for y in xs.iter() {
                s = s.meet(&allowed_by(y, x, model, at)?);
            }
            s
        }
        Kind::Or(xs) => {
            let mut parts = Vec::new();
            for y in xs.iter() {
                parts.extend(allowed_by(y, x, model, at)?.parts().iter().cloned());
            }
            ValueSet::from_parts(parts)
        }
        Kind::Not(y) => allowed_by(y, x, model, at)?.complement(),
        Kind::Le(lin) | Kind::Eq(lin) => {
            let (k, r) = split(lin, x, model, at)?;
            if k.is_zero() {
                let holds = if matches!(t.kind(), Kind::Le(_)) {
                    r <= Int::ZERO
                } else {
                    r.is_zero()
                };
                return Some(if holds {
                    ValueSet::all()
                } else {
                    ValueSet::empty()
                });
            }
            // k·x + r ⋈ 0.
            let bound = r.neg();
            if matches!(t.kind(), Kind::Eq(_)) {
                if !bound.rem_trunc(&k).is_zero() {
                    return Some(ValueSet::empty());
                }
                return Some(ValueSet::point(bound.div_trunc(&k)));
            }
            if k.is_negative() {
                // x >= ceil(-r / k)
                ValueSet::interval(Interval::new(Some(bound.div_ceil(&k)), None))
            } else {
                // x <= floor(-r / k)
                ValueSet::interval(Interval::new(None, Some(bound.div_floor(&k))))
            }
        }
        _ => return None,
    })
}

/// A linear form as `k·x + r`, the rest evaluated.
fn split(
    lin: &Term,
    x: &Term,
    model: &Model,
    at: &dyn Fn(&Term, Int) -> Int,
) -> Option<(Int, Int)> {
    match lin.kind() {
        Kind::Var(..) if lin == x => Some((Int::ONE, Int::ZERO)),
        Kind::Linear(ms, c) => {
            let mut k = Int::ZERO;
            let mut r = c.clone();
            for (a, coef) in ms.iter() {
                if a == x {
                    k = k.add(coef);
                } else {
                    match model.eval_with(a, at) {
                        Value::Int(v) => r = r.add(&coef.mul(&v)),
                        _ => return None,
                    }
                }
            }
            Some((k, r))
        }
        _ => match model.eval_with(lin, at) {
            Value::Int(v) => Some((Int::ZERO, v)),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiser_smt::{BvOp, BvPred, Sort};

    #[test]
    fn a_fresh_variable_is_moved_to_satisfy_a_comparison() {
        // a1 <=s a0 on the path (both 0 in the model); a2 is fresh, and
        // a1 <s a2 holds once a2 moves past a1's value.
        let a = |i: usize| Term::var(format!("a{i}"), Sort::Bv(32));
        let mut path = PathCond::new();
        path.add(&Term::bv_cmp(BvPred::Sle, &a(1), &a(0)));
        let model = Arc::new(Model::new());
        let c = Term::bv_cmp(BvPred::Slt, &a(1), &a(2));
        let moved = decide_by_moving_a_fresh_variable(&path, &model, &c).expect("moved");
        assert!(moved.holds(&c));
        assert!(path.constraints().all(|k| moved.holds(&k.term)));
        // Both variables constrained: nothing to move.
        let both = Term::bv_cmp(BvPred::Slt, &a(0), &a(1));
        assert!(decide_by_moving_a_fresh_variable(&path, &model, &both).is_none());
        // No value of a2 is below the least signed value: no model here
        // (and no refutation either).
        let min = Term::bv(32, 1 << 31);
        let below = Term::and(
            &Term::bv_eq(&a(1), &min),
            &Term::bv_cmp(BvPred::Slt, &a(2), &a(1)),
        );
        assert!(decide_by_moving_a_fresh_variable(&path, &model, &below).is_none());
    }

    #[test]
    fn the_other_variables_are_read_at_their_values_in_the_box() {
        // `5 <= y` is in the box, so the raw model's `y = 0` stands for 5:
        // moving `x` to 0 would satisfy `x == y` in the raw model only
        // (SV-COMP's `gcd_3` was then given a division by zero that no
        // input reaches).
        let (x, y) = (Term::var("x", Sort::Bv(8)), Term::var("y", Sort::Bv(8)));
        let mut path = PathCond::new();
        path.add(&Term::bv_cmp(BvPred::Ule, &Term::bv(8, 5), &y));
        let raw = Arc::new(Model::new());
        path.model = Some(raw.clone());
        assert_eq!(path.value(&y), Some(Int::from(5)));
        let c = Term::bv_eq(&x, &y);
        let moved = decide_by_moving_a_fresh_variable(&path, &raw, &c).expect("moved");
        path.model = Some(moved);
        assert_eq!(path.holds(&c), Some(true));
    }

    #[test]
    fn two_bytes_under_a_remainder_are_tried_point_by_point() {
        // Not linear in either byte: all 65,536 points are tried.
        let (x, y) = (Term::var("x", Sort::Bv(8)), Term::var("y", Sort::Bv(8)));
        let rem = Term::bv_bin(BvOp::Urem, &x, &y);
        let is7 = Term::bv_eq(&rem, &Term::bv(8, 7));
        let path = PathCond::new();
        let seed = is7.vars();
        let found = decide_by_enumeration(&path, &is7, &seed).expect("decided");
        let model = found.expect("satisfiable");
        assert!(model.holds(&is7));
        // x % y <= x, and x % 0 is x: below 7 it is never 7.
        let small = Term::and(&is7, &Term::bv_cmp(BvPred::Ult, &x, &Term::bv(8, 7)));
        assert!(decide_by_enumeration(&path, &small, &seed)
            .expect("decided")
            .is_none());
    }
}

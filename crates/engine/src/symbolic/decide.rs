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
//! Both are sound and complete for what they accept; anything else goes to
//! the solver.

use crate::path::{as_bound, is_numeric_var, Interval, PathCond, ValueSet};
use std::sync::Arc;
use wiser_num::Int;
use wiser_smt::{Kind, Model, Term, Value};

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
    let name = x.as_var()?.clone();
    let boxed = path.set(&x);
    let mut candidates: Vec<Int> = boxed.ends();
    for (_, s) in &atoms {
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
            return Some(Some(Arc::new(moved)));
        }
    }
    Some(None)
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
    let (mut query, vars) = path.related(seed);
    query.push(c.clone());
    if vars.is_empty() || !vars.iter().all(is_numeric_var) {
        return None;
    }
    let sets: Vec<ValueSet> = vars.iter().map(|v| path.set(v)).collect();
    let sizes: Vec<Option<u64>> = sets
        .iter()
        .map(|s| {
            s.size()
                .and_then(|n| n.to_i64())
                .and_then(|n| u64::try_from(n).ok())
        })
        .collect();
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

//! Cheap invariants by guess and check (Houdini, Flanagan and Leino
//! 2001): candidate facts at each cut point, pruned until every one that
//! is left is implied, along every clause into its cut point, by the
//! facts left at the clause's start.
//!
//! The candidates: each variable against each constant of the clauses
//! (also the constant of a linear term: `n - 1000 <= 0` gives 1000) and
//! against each other variable (`x <= c`, `x >= c`, `x <= y`; a narrower
//! bit-vector sign-extended to the wider one's width), and
//! the linear equalities that constant increments keep (a loop that adds
//! `a` to `x` and `b` to `y` keeps `b*x - a*y` fixed, at the value the
//! clause into the loop gives it: `s == 2*i` for `s += 2; i++`; or at a
//! variable the loop does not change plus a constant: `x + y == n`). Over
//! bit-vectors the comparisons are signed (C's `int`), and the equalities
//! hold modulo 2^w, wrap-around or not. And the values a parameter has
//! at every arrival (`fixed.rs`): an object's address, its length.
//!
//! The pruning asks, per clause, whether all the head's candidates
//! follow at once; each counterexample drops every candidate it
//! falsifies, so a clause costs a query per round of drops rather than
//! one per candidate (a candidate at a time only where that query is
//! undecided). The cells' candidates (`cells.rs`) number in the
//! thousands: on `array_init_pair_symmetr` 242 queries instead of 18,842
//! (at ceaf8a4).
//!
//! What survives is inductive, so it may strengthen the clauses Spacer
//! is given (a reachable state satisfies it); it often proves a counter
//! program alone, and gives Spacer the relational facts it is slowest to
//! find. Nothing here is trusted: the final invariants are checked like
//! Spacer's.

use crate::report::Incomplete;
use rustc_hash::FxHashSet;
use wiser_smt::{Answer, BvOp, BvPred, HornProblem, Kind, Solver, Sort, Term};

/// At most this many constants per cut point (the smallest in magnitude).
const MAX_CONSTANTS: usize = 12;

/// At most this many scalar variables per cut point take part in the
/// pairwise candidates.
const MAX_PAIRED: usize = 12;

/// The surviving candidates of each relation, as one formula each
/// (`true` where none survived); `extra`: more candidates per relation.
pub(super) fn houdini(
    p: &HornProblem,
    extra: Vec<Vec<Term>>,
    solver: &mut dyn Solver,
    stop: &dyn Fn() -> Option<Incomplete>,
) -> Result<Vec<Term>, Incomplete> {
    let fixed = super::fixed::fixed(p);
    let mut extra = extra.into_iter();
    let mut cands: Vec<Vec<Term>> = (0..p.relations.len())
        .map(|r| {
            let mut c = candidates(p, r);
            c.extend(super::fixed::facts(p, &fixed, r));
            c.extend(extra.next().unwrap_or_default());
            c
        })
        .collect();
    loop {
        let mut changed = false;
        for clause in &p.clauses {
            let Some(head) = &clause.head else { continue };
            if cands[head.relation].is_empty() {
                continue;
            }
            let mut premise = vec![clause.constraint.clone()];
            // Every body relation's candidates are assumed (a clause
            // through a call has the caller's and the callee's summary).
            for body in &clause.body {
                let facts = Term::and_all(cands[body.relation].iter().cloned());
                premise.push(instantiate(p, body.relation, &facts, &body.args));
            }
            // All the head's candidates at once: one query while they
            // hold, and each counterexample drops every candidate it
            // falsifies; one at a time where that query is undecided.
            let rel = head.relation;
            loop {
                if let Some(why) = stop() {
                    return Err(why);
                }
                let all = Term::and_all(
                    cands[rel]
                        .iter()
                        .map(|t| instantiate(p, rel, t, &head.args)),
                );
                let mut query = premise.clone();
                query.push(Term::not(&all));
                match solver.solve(&query) {
                    Answer::Unsat => break,
                    Answer::Sat(model) => {
                        let before = cands[rel].len();
                        cands[rel].retain(|t| model.holds(&instantiate(p, rel, t, &head.args)));
                        if cands[rel].len() == before {
                            // The model decides no candidate false (it
                            // leaves a variable out): one at a time.
                            changed |=
                                one_at_a_time(p, &premise, head, &mut cands[rel], solver, stop)?;
                            break;
                        }
                        changed = true;
                    }
                    Answer::Unknown(_) => {
                        changed |= one_at_a_time(p, &premise, head, &mut cands[rel], solver, stop)?;
                        break;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    Ok(cands.into_iter().map(Term::and_all).collect())
}

/// Prunes `cands` (of `head`'s relation) candidate by candidate under
/// `premise`: what a counterexample falsifies goes, and so does a
/// candidate the solver cannot decide. Whether any went.
fn one_at_a_time(
    p: &HornProblem,
    premise: &[Term],
    head: &wiser_smt::Application,
    cands: &mut Vec<Term>,
    solver: &mut dyn Solver,
    stop: &dyn Fn() -> Option<Incomplete>,
) -> Result<bool, Incomplete> {
    let rel = head.relation;
    let mut changed = false;
    let mut i = 0;
    while i < cands.len() {
        if let Some(why) = stop() {
            return Err(why);
        }
        let c = instantiate(p, rel, &cands[i], &head.args);
        let mut query = premise.to_vec();
        query.push(Term::not(&c));
        match solver.solve(&query) {
            Answer::Unsat => i += 1,
            Answer::Sat(model) => {
                // Every candidate the counterexample falsifies goes.
                let before = cands.len();
                let keep: Vec<Term> = cands
                    .iter()
                    .enumerate()
                    .filter(|&(j, t)| j != i && model.holds(&instantiate(p, rel, t, &head.args)))
                    .map(|(_, t)| t.clone())
                    .collect();
                *cands = keep;
                debug_assert!(cands.len() < before);
                changed = true;
                i = 0;
            }
            Answer::Unknown(_) => {
                cands.remove(i);
                changed = true;
            }
        }
    }
    Ok(changed)
}

/// `formula` (over relation `rel`'s parameters) at `args`.
fn instantiate(p: &HornProblem, rel: usize, formula: &Term, args: &[Term]) -> Term {
    let params = &p.relations[rel].params;
    formula.substitute(&|v| params.iter().position(|q| q == v).map(|k| args[k].clone()))
}

/// The candidates of relation `r`.
fn candidates(p: &HornProblem, r: usize) -> Vec<Term> {
    let params = &p.relations[r].params;
    // The IR's temporaries (`$…`, see `Slot::is_temporary`) hold values
    // between the steps of one statement: no facts about them.
    let scalars: Vec<&Term> = params
        .iter()
        .filter(|v| matches!(v.sort(), Sort::Int | Sort::Bv(_)))
        .filter(|v| !is_temporary(v))
        .collect();
    let mut out: Vec<Term> = Vec::new();
    let mut seen: FxHashSet<Term> = FxHashSet::default();
    let mut add = |t: Term, out: &mut Vec<Term>| {
        if t.as_bool().is_none() && seen.insert(t.clone()) {
            out.push(t);
        }
    };
    // The constants of the clauses into and out of this cut point.
    let mut constants: Vec<i64> = vec![0];
    for c in &p.clauses {
        let touches = c.head.as_ref().is_some_and(|h| h.relation == r)
            || c.body.iter().any(|b| b.relation == r);
        if touches {
            collect_constants(&c.constraint, &mut constants);
            for a in c.head.iter().chain(&c.body) {
                for t in &a.args {
                    collect_constants(t, &mut constants);
                }
            }
        }
    }
    constants.sort_by_key(|c| (c.unsigned_abs(), *c));
    constants.dedup();
    constants.truncate(MAX_CONSTANTS);
    for x in &scalars {
        for &k in &constants {
            let c = constant_like(x, k);
            add(le(x, &c), &mut out);
            add(le(&c, x), &mut out);
        }
    }
    let paired = &scalars[..scalars.len().min(MAX_PAIRED)];
    for (i, x) in paired.iter().enumerate() {
        for y in &paired[i + 1..] {
            if let Some((x, y)) = same_width(x, y) {
                add(le(&x, &y), &mut out);
                add(le(&y, &x), &mut out);
            }
        }
    }
    for t in increments(p, r) {
        add(t, &mut out);
    }
    out
}

/// The linear equalities kept by the constant increments of the clauses
/// from `r` to itself, at the values a clause into `r` gives.
fn increments(p: &HornProblem, r: usize) -> Vec<Term> {
    let params = &p.relations[r].params;
    let mut out = Vec::new();
    for c in &p.clauses {
        let ([b], Some(h)) = (&c.body[..], &c.head) else {
            continue;
        };
        if b.relation != r || h.relation != r {
            continue;
        }
        let deltas: Vec<Option<i64>> = params
            .iter()
            .zip(&h.args)
            .map(|(x, next)| super::relax::difference(next, x))
            .collect();
        // Where the loop starts: a clause into it from elsewhere.
        let Some(entry) = p.clauses.iter().find(|e| {
            e.head.as_ref().is_some_and(|h| h.relation == r)
                && e.body.iter().all(|b| b.relation != r)
        }) else {
            continue;
        };
        let start = &entry.head.as_ref().expect("a clause into r").args;
        for i in 0..params.len() {
            for j in i + 1..params.len() {
                let (Some(a), Some(bb)) = (deltas[i], deltas[j]) else {
                    continue;
                };
                let (x, y) = (&params[i], &params[j]);
                if (a == 0 && bb == 0) || x.sort() != y.sort() || is_temporary(x) || is_temporary(y)
                {
                    continue;
                }
                // bb*x - a*y is the same after each step.
                let f = |u: &Term, v: &Term| plus(&times(u, bb), &times(v, -a));
                let at_start = f(&start[i], &start[j]);
                if let Some(init) = super::relax::difference(&at_start, &constant_like(x, 0)) {
                    out.push(Term::equals(&f(x, y), &constant_like(x, init)));
                    continue;
                }
                // Or fixed relative to a variable the loop keeps (`x = n;
                // while (x > 0) { x--; y++; }` keeps x + y - n at 0).
                for (k, z) in params.iter().enumerate() {
                    if deltas[k] != Some(0) || z.sort() != x.sort() || is_temporary(z) {
                        continue;
                    }
                    if let Some(init) = super::relax::difference(&at_start, &start[k]) {
                        out.push(Term::equals(&minus(&f(x, y), z), &constant_like(x, init)));
                    }
                }
            }
        }
    }
    out
}

/// Is `v` the parameter of a temporary (named `$…`, or `routine::$…`)?
/// A variable-length array's length (`$len_…`) lives as long as its
/// array: not one.
pub(super) fn is_temporary(v: &Term) -> bool {
    v.as_var()
        .and_then(|n| n.rsplit("::").next())
        .is_some_and(|n| n.starts_with('$') && !n.starts_with("$len_"))
}

/// `x` and `y` at one sort: as they are, or the narrower bit-vector
/// sign-extended to the wider one's width (C's `int` against a length of
/// 64 bits); `None` for other sorts.
pub(super) fn same_width(x: &Term, y: &Term) -> Option<(Term, Term)> {
    match (x.sort(), y.sort()) {
        (a, b) if a == b => Some((x.clone(), y.clone())),
        (Sort::Bv(a), Sort::Bv(b)) if a < b => Some((Term::bv_resize(x, b, true), y.clone())),
        (Sort::Bv(a), Sort::Bv(b)) if b < a => Some((x.clone(), Term::bv_resize(y, a, true))),
        _ => None,
    }
}

pub(super) fn collect_constants(t: &Term, out: &mut Vec<i64>) {
    let mut stack = vec![t];
    let mut seen = FxHashSet::default();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.addr()) {
            continue;
        }
        if let Some(k) = constant_of(t) {
            out.push(k);
            if out.len() > 1000 {
                return;
            }
        }
        // A linear term keeps its constant in the node (`n - 1000 <= 0`
        // is `n <= 1000`): both signs.
        if let Kind::Linear(_, k) = t.kind() {
            if let Some(k) = k.to_i64().filter(|&k| k != 0) {
                out.extend([k, -k]);
            }
        }
        stack.extend(t.children());
    }
}

/// The value of a constant term, signed for a bit-vector.
fn constant_of(t: &Term) -> Option<i64> {
    if let Some((w, bits)) = t.as_bv() {
        return Some(wiser_num::bv::to_signed(u32::from(w), bits));
    }
    t.as_int()?.to_i64()
}

/// The constant `k` in `like`'s sort.
pub(super) fn constant_like(like: &Term, k: i64) -> Term {
    match like.sort() {
        Sort::Bv(w) => Term::bv(w, (k as u64) & wiser_num::bv::mask(u32::from(w))),
        _ => Term::int(k),
    }
}

pub(super) fn le(a: &Term, b: &Term) -> Term {
    if a.sort().is_bv() {
        Term::bv_cmp(BvPred::Sle, a, b)
    } else {
        Term::le(a, b)
    }
}

fn minus(a: &Term, b: &Term) -> Term {
    if a.sort().is_bv() {
        Term::bv_bin(BvOp::Sub, a, b)
    } else {
        Term::sub(a, b)
    }
}

pub(super) fn plus(a: &Term, b: &Term) -> Term {
    if a.sort().is_bv() {
        Term::bv_bin(BvOp::Add, a, b)
    } else {
        Term::add(a, b)
    }
}

/// `a*k`, and `a` itself for 1.
fn times(a: &Term, k: i64) -> Term {
    if k == 1 {
        return a.clone();
    }
    let c = constant_like(a, k);
    if a.sort().is_bv() {
        Term::bv_bin(BvOp::Mul, a, &c)
    } else {
        Term::mul(a, &c)
    }
}

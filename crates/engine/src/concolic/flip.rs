//! Flipping a decision: an input that follows a run's path up to decision
//! `j` and then takes the other side (SAGE's ExpandExecution step).
//!
//! The query is the conjunction of the decisions before `j`, as taken,
//! and the negation of decision `j`; only the constraints that share
//! variables with the negated condition, directly or through others, are
//! sent (constraint independence): the others mention only variables the
//! new input keeps at their current values, which satisfy them. The new
//! input is the current one with the solver's values for the variables
//! of the query, and for an array only for the cells the query reads
//! (SAGE's Combine: everything else keeps its value). The combined input
//! is checked against the whole query by evaluation before it is used.
//!
//! Concretisation: when the solver answers `unknown`, the query is asked
//! again with every variable of the query that does not occur in the
//! negated condition pinned to its current value (for an array, the cells
//! the query reads); if that is still undecided the child is dropped.

use crate::report::{ConcolicRun, Flip};
use crate::witness;
use rustc_hash::FxHashSet;
use wiser_ir::{Instr, Ir};
use wiser_num::Int;
use wiser_semantics::Input;
use wiser_smt::{Answer, Kind, Model, Solver, Sort, Term, Value};

/// Flips decision `j` of `run`, asking `solver`.
pub fn flip(ir: &Ir, run: &ConcolicRun, j: usize, solver: &mut dyn Solver) -> Flip {
    let Some(decision) = run.decisions.get(j) else {
        return Flip::Unknown(format!("no decision {j} on this path"));
    };
    let negated = decision.other_side();
    let prefix: Vec<Term> = run.decisions[..j].iter().map(|d| d.as_taken()).collect();
    let mut query = slice(&prefix, &negated);
    query.push(negated.clone());
    let current = witness::input_to_model(ir, &run.input);
    let reads = run.input.reads.len();
    let whole = || prefix.iter().chain(std::iter::once(&negated));
    let found = match solver.solve(&query) {
        Answer::Sat(m) => m,
        Answer::Unsat => return Flip::Infeasible,
        Answer::Unknown(why) => {
            let mut pinned = pins(&query, &negated, &current);
            if pinned.is_empty() {
                return Flip::Unknown(why);
            }
            pinned.extend(query.iter().cloned());
            return match solver.solve(&pinned) {
                Answer::Sat(m) => match combine(&current, &m, &query, whole()) {
                    Some(model) => Flip::Input {
                        input: child(ir, run, &model, read_count(&query, reads)),
                        concretised: true,
                    },
                    None => Flip::Unknown("the combined input misses the query".into()),
                },
                // Unsat with the pins says nothing about the side itself.
                Answer::Unsat => Flip::Unknown(format!(
                    "{why}; with the other variables pinned the side is infeasible"
                )),
                Answer::Unknown(again) => Flip::Unknown(again),
            };
        }
    };
    match combine(&current, &found, &query, whole()) {
        Some(model) => Flip::Input {
            input: child(ir, run, &model, read_count(&query, reads)),
            concretised: false,
        },
        None => Flip::Unknown("the combined input misses the query".into()),
    }
}

/// The input `model` describes, its reads shown as values of the types
/// the parent's run read them at (a model holds bit patterns).
fn child(ir: &Ir, parent: &ConcolicRun, model: &Model, reads: u32) -> Input {
    let mut input = witness::input_from_model(ir, model, reads);
    for (v, &pc) in input.reads.iter_mut().zip(&parent.read_pcs) {
        if let Instr::Havoc { ty, .. } = ir.at(pc).instr {
            *v = ty.wrap(v);
        }
    }
    input
}

/// The constraints of `prefix` that share variables with `cond`, directly
/// or through other such constraints, in path order.
fn slice(prefix: &[Term], cond: &Term) -> Vec<Term> {
    let mut vars: FxHashSet<Term> = cond.vars().into_iter().collect();
    let of: Vec<Vec<Term>> = prefix.iter().map(Term::vars).collect();
    let mut taken = vec![false; prefix.len()];
    loop {
        let mut grew = false;
        for (k, vs) in of.iter().enumerate() {
            if !taken[k] && vs.iter().any(|v| vars.contains(v)) {
                taken[k] = true;
                grew = true;
                vars.extend(vs.iter().cloned());
            }
        }
        if !grew {
            break;
        }
    }
    prefix
        .iter()
        .zip(taken)
        .filter(|(_, t)| *t)
        .map(|(c, _)| c.clone())
        .collect()
}

/// The prefix of the read symbols' names (`read#1`, ...).
const READ_PREFIX: &str = "read#";

/// Reads the new input needs: those of the current input, and every read
/// the query mentions.
fn read_count(query: &[Term], current: usize) -> u32 {
    let mut n = current as u32;
    for t in query {
        for v in t.vars() {
            if let Some(k) = v
                .as_var()
                .and_then(|name| name.strip_prefix(READ_PREFIX))
                .and_then(|k| k.parse::<u32>().ok())
            {
                // Symbols are numbered from 1 (see `read_symbol`).
                n = n.max(k);
            }
        }
    }
    n
}

/// The model's value of a scalar term, as an `Int` (booleans as 0 and 1).
fn scalar(model: &Model, t: &Term) -> Option<Int> {
    match model.eval(t) {
        Value::Int(n) => Some(n),
        Value::Bool(b) => Some(Int::from(i64::from(b))),
        Value::Array(_) => None,
    }
}

/// `(array variable, index)` of every read of an input array in `terms`,
/// through any stores on it.
fn selects(terms: &[Term]) -> Vec<(Term, Term)> {
    let mut out = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack: Vec<&Term> = terms.iter().collect();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.addr()) {
            continue;
        }
        if let Kind::Select(array, index) = t.kind() {
            let mut base = array;
            while let Kind::Store(inner, _, _) = base.kind() {
                base = inner;
            }
            if base.as_var().is_some() {
                out.push((base.clone(), index.clone()));
            }
        }
        stack.extend(t.children());
    }
    out
}

/// SAGE's Combine: `current` with `found`'s values for the query's
/// variables (for arrays, for the cells the query reads). `None` if the
/// result does not satisfy `whole` (the full query), which a cell-wise
/// combination could miss only through reads it does not see; then the
/// arrays are taken whole from `found` and checked again.
fn combine<'t>(
    current: &Model,
    found: &Model,
    query: &[Term],
    whole: impl Iterator<Item = &'t Term> + Clone,
) -> Option<Model> {
    let vars: FxHashSet<Term> = query.iter().flat_map(Term::vars).collect();
    let mut merged = current.clone();
    for v in &vars {
        if !matches!(v.sort(), Sort::Array(..)) {
            merged.copy_var(found, v);
        }
    }
    let mut cellwise = merged.clone();
    for (array, index) in selects(query) {
        let (Some(name), Some(i)) = (array.as_var(), scalar(found, &index)) else {
            continue;
        };
        let value = found.array(name).map(|a| a.get(&i)).unwrap_or_default();
        let mut contents = cellwise.array(name).cloned().unwrap_or_default();
        contents.entries.insert_mut(i, value);
        cellwise.set_array(name.clone(), contents);
    }
    if whole.clone().all(|c| cellwise.holds(c)) {
        return Some(cellwise);
    }
    for v in vars.iter().filter(|v| matches!(v.sort(), Sort::Array(..))) {
        merged.copy_var(found, v);
    }
    whole.into_iter().all(|c| merged.holds(c)).then_some(merged)
}

/// Equalities pinning every variable of `query` that does not occur in
/// `negated` to its value in `current` (for an array, the cells the query
/// reads at the indices `current` gives them).
fn pins(query: &[Term], negated: &Term, current: &Model) -> Vec<Term> {
    let free: FxHashSet<Term> = negated.vars().into_iter().collect();
    let mut out = Vec::new();
    let mut done = FxHashSet::default();
    for v in query.iter().flat_map(Term::vars) {
        if free.contains(&v) || !done.insert(v.clone()) {
            continue;
        }
        let Some(name) = v.as_var() else { continue };
        match v.sort() {
            Sort::Bool if current.boolean(name) => out.push(v.clone()),
            Sort::Bool => out.push(Term::not(&v)),
            Sort::Int => out.push(Term::eq(&v, &Term::int(current.int(name)))),
            Sort::Bv(w) => out.push(Term::bv_eq(&v, &bv(w, &current.int(name)))),
            Sort::Array(..) => {}
        }
    }
    for (array, index) in selects(query) {
        if free.contains(&array) {
            continue;
        }
        let Some(i) = scalar(current, &index) else {
            continue;
        };
        // The base array's cell at the index the current input reads,
        // pinned there: the index itself stays free.
        let Some(at) = constant(index.sort(), &i) else {
            continue;
        };
        let cell = Term::select(&array, &at);
        let pin = match (cell.sort(), current.eval(&cell)) {
            (Sort::Bool, Value::Bool(b)) => Some(if b { cell } else { Term::not(&cell) }),
            (Sort::Int, Value::Int(n)) => Some(Term::eq(&cell, &Term::int(n))),
            (Sort::Bv(w), Value::Int(n)) => Some(Term::bv_eq(&cell, &bv(w, &n))),
            _ => None,
        };
        out.extend(pin);
    }
    out
}

/// The constant `i` of an index sort.
fn constant(sort: Sort, i: &Int) -> Option<Term> {
    match sort {
        Sort::Int => Some(Term::int(i.clone())),
        Sort::Bv(w) => Some(bv(w, i)),
        _ => None,
    }
}

/// The bit-vector constant of width `w` whose pattern is `v` modulo 2^w.
fn bv(w: u8, v: &Int) -> Term {
    Term::bv(w, v.low_bits(u32::from(w)))
}

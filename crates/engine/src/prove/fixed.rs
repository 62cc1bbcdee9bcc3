//! The values a cut point's parameters always have: constant propagation
//! over the Horn clauses, for Houdini's candidates.
//!
//! A parameter is *fixed* at a relation when every clause into the
//! relation gives it one ground value (a term without variables), once
//! the body relations' fixed parameters are replaced by their values:
//! the address of an object made before the loops, a local the loops
//! never write, the length and freed flag an allocation recorded. These
//! are facts Houdini's comparisons with small constants do not guess
//! (an object's address is `-2^64`), yet the checks of every access
//! through a pointer need them. Arrays are fixed as whole terms; the
//! candidates say what their constant cells hold, as the terms have no
//! equality of arrays.
//!
//! Nothing here is trusted: the facts are candidates, which Houdini
//! keeps only if they are inductive.

use rustc_hash::FxHashSet;
use wiser_smt::{HornProblem, Kind, Sort, Term};

/// At most this many indices (the outermost stores first) give cell
/// candidates per relation: an initialised table of thousands would make
/// Houdini's work, and the search for duplicates, grow with it.
const MAX_CELLS: usize = 64;

/// What the clauses seen so far give one parameter.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    /// No clause into the relation yet.
    Unknown,
    /// Always this ground term.
    Is(Term),
    /// Two values, or one that is not ground.
    Varies,
}

/// The candidate facts of relation `r`: each fixed scalar parameter
/// equals its value, and each constant cell of a fixed array holds its
/// value. The cells are those stored at constant indices in any fixed
/// array of the relation: the memory model's arrays are all indexed by
/// objects, so the object whose length one records is the one whose
/// freed flag another keeps at its initial `false`.
pub(super) fn facts(p: &HornProblem, fixed: &[Vec<Option<Term>>], r: usize) -> Vec<Term> {
    let params = &p.relations[r].params;
    let mut indices: Vec<Term> = Vec::new();
    let mut seen: FxHashSet<Term> = FxHashSet::default();
    'arrays: for v in fixed[r].iter().flatten() {
        let mut a = v;
        while let Kind::Store(inner, i, _) = a.kind() {
            if i.is_const() && seen.insert(i.clone()) {
                if indices.len() == MAX_CELLS {
                    break 'arrays;
                }
                indices.push(i.clone());
            }
            a = inner;
        }
    }
    let mut out = Vec::new();
    for (x, v) in params.iter().zip(&fixed[r]) {
        let Some(v) = v else { continue };
        let Sort::Array(index, _) = x.sort() else {
            out.push(Term::equals(x, v));
            continue;
        };
        for i in indices.iter().filter(|i| i.sort() == index.into()) {
            let e = Term::select(v, i);
            if e.is_const() {
                out.push(Term::equals(&Term::select(x, i), &e));
            }
        }
    }
    out
}

/// Per relation, per parameter: the ground value every clause into the
/// relation gives it, if there is one.
pub(super) fn fixed(p: &HornProblem) -> Vec<Vec<Option<Term>>> {
    let mut values: Vec<Vec<Value>> = p
        .relations
        .iter()
        .map(|r| vec![Value::Unknown; r.params.len()])
        .collect();
    // Values only go from `Unknown` to `Is` to `Varies`: each pass that
    // changes one is followed by at most `2 * parameters` more.
    let mut changed = true;
    while changed {
        changed = false;
        for c in &p.clauses {
            let Some(head) = &c.head else { continue };
            // A body relation no clause reaches yet says nothing.
            let reached = c
                .body
                .iter()
                .all(|b| values[b.relation].iter().all(|v| *v != Value::Unknown));
            if !reached {
                continue;
            }
            let known = |v: &Term| {
                c.body.iter().find_map(|b| {
                    let params = &p.relations[b.relation].params;
                    let k = params.iter().position(|q| q == v)?;
                    match &values[b.relation][k] {
                        Value::Is(t) => Some(t.clone()),
                        _ => None,
                    }
                })
            };
            let given: Vec<Value> = head
                .args
                .iter()
                .map(|a| {
                    let t = a.substitute(&known);
                    if t.vars().is_empty() {
                        Value::Is(t)
                    } else {
                        Value::Varies
                    }
                })
                .collect();
            for (old, new) in values[head.relation].iter_mut().zip(given) {
                let met = match (&*old, new) {
                    (Value::Varies, _) => Value::Varies,
                    (Value::Unknown, new) => new,
                    (Value::Is(a), Value::Is(b)) if *a == b => continue,
                    _ => Value::Varies,
                };
                if *old != met {
                    *old = met;
                    changed = true;
                }
            }
        }
    }
    values
        .into_iter()
        .map(|vs| {
            vs.into_iter()
                .map(|v| match v {
                    Value::Is(t) => Some(t),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiser_smt::{Application, Clause, Relation, Scalar};

    #[test]
    fn what_every_clause_gives_alike_is_fixed() {
        // entry -> loop(p, n, a): p = -7, n = 0, a = [-7 := 3]; the loop
        // keeps p and a and counts n.
        let (p, n) = (Term::int_var("p"), Term::int_var("n"));
        let a = Term::var("a", Sort::Array(Scalar::Int, Scalar::Int));
        let cells = Term::store(
            &Term::const_array(Sort::Array(Scalar::Int, Scalar::Int), &Term::int(0)),
            &Term::int(-7),
            &Term::int(3),
        );
        let loop_ = |args: Vec<Term>| Application { relation: 1, args };
        let problem = HornProblem {
            relations: vec![
                Relation {
                    name: "entry".into(),
                    params: Vec::new(),
                },
                Relation {
                    name: "loop".into(),
                    params: vec![p.clone(), n.clone(), a.clone()],
                },
            ],
            clauses: vec![
                Clause {
                    body: Vec::new(),
                    constraint: Term::bool(true),
                    head: Some(loop_(vec![Term::int(-7), Term::int(0), cells])),
                },
                Clause {
                    body: vec![loop_(vec![p.clone(), n.clone(), a.clone()])],
                    constraint: Term::bool(true),
                    head: Some(loop_(vec![
                        p.clone(),
                        Term::add(&n, &Term::int(1)),
                        a.clone(),
                    ])),
                },
            ],
        };
        let fixed = fixed(&problem);
        assert_eq!(fixed[1][0], Some(Term::int(-7)));
        assert_eq!(fixed[1][1], None);
        assert_eq!(
            facts(&problem, &fixed, 1),
            vec![
                Term::equals(&p, &Term::int(-7)),
                Term::equals(&Term::select(&a, &Term::int(-7)), &Term::int(3)),
            ]
        );
    }
}

//! Path conditions.
//!
//! A path condition is the conjunction of
//! * a *box*: bounds `lo <= x <= hi` on single integer variables (every
//!   normalised comparison of one variable with a constant lands here, so
//!   loop tests over a symbolic bound never reach a solver), and
//! * other constraints, kept on a persistent stack with their variables.
//!
//! Invariant: when `model` is `Some`, the *effective model* satisfies the
//! whole path condition. The effective model is `model` with each bounded
//! variable's value clamped into its interval, so a branch that only
//! narrows a bound never has to copy the model. Each branch keeps the
//! invariant, so one side of every branch is decided by evaluating the
//! condition under the effective model, and a bug's witness is the
//! effective model of its path, with no further solver call.

use rpds::HashTrieMapSync;
use std::sync::Arc;
use wiser_num::Int;
use wiser_semantics::Stack;
use wiser_smt::{Kind, Model, Sort, Term};

/// Bounds of one variable; `None` is unbounded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Interval {
    /// Least value, if bounded below.
    pub lo: Option<Int>,
    /// Greatest value, if bounded above.
    pub hi: Option<Int>,
}

impl Interval {
    /// Does it contain `v`?
    pub fn contains(&self, v: &Int) -> bool {
        self.lo.as_ref().is_none_or(|lo| lo <= v) && self.hi.as_ref().is_none_or(|hi| v <= hi)
    }

    /// Is it empty?
    pub fn is_empty(&self) -> bool {
        matches!((&self.lo, &self.hi), (Some(lo), Some(hi)) if lo > hi)
    }

    /// The intersection with `other`.
    pub fn meet(&self, other: &Interval) -> Interval {
        let lo = match (&self.lo, &other.lo) {
            (Some(a), Some(b)) => Some(a.max(b).clone()),
            (a, b) => a.clone().or(b.clone()),
        };
        let hi = match (&self.hi, &other.hi) {
            (Some(a), Some(b)) => Some(a.min(b).clone()),
            (a, b) => a.clone().or(b.clone()),
        };
        Interval { lo, hi }
    }

    /// The member closest to `v`.
    pub fn clamp(&self, v: &Int) -> Int {
        match (&self.lo, &self.hi) {
            (Some(lo), _) if v < lo => lo.clone(),
            (_, Some(hi)) if v > hi => hi.clone(),
            _ => v.clone(),
        }
    }
}

/// A constraint of the form `x ∈ interval`, if `c` is one: a normalised
/// comparison of a single integer variable with a constant.
pub fn as_bound(c: &Term) -> Option<(Term, Interval)> {
    let (lin, is_eq) = match c.kind() {
        Kind::Le(l) => (l, false),
        Kind::Eq(l) => (l, true),
        _ => return None,
    };
    // After normalisation a one-variable comparison has coefficient ±1.
    let (x, k, c0) = match lin.kind() {
        Kind::Var(_, Sort::Int) => (lin.clone(), Int::ONE, Int::ZERO),
        Kind::Linear(ms, c0) if ms.len() == 1 => {
            let (x, k) = &ms[0];
            if !matches!(x.kind(), Kind::Var(_, Sort::Int)) || k.abs() != Int::ONE {
                return None;
            }
            (x.clone(), k.clone(), c0.clone())
        }
        _ => return None,
    };
    let bound = c0.neg().mul(&k); // k·x + c0 ⋈ 0  with k = ±1  gives  x ⋈' -c0·k
    let interval = if is_eq {
        Interval {
            lo: Some(bound.clone()),
            hi: Some(bound),
        }
    } else if k == Int::ONE {
        Interval {
            lo: None,
            hi: Some(bound),
        }
    } else {
        Interval {
            lo: Some(bound),
            hi: None,
        }
    };
    Some((x, interval))
}

/// A constraint that is not a bound, with its free variables.
#[derive(Clone, Debug)]
pub struct Constraint {
    /// The boolean term.
    pub term: Term,
    /// Its free variables (integer and array).
    pub vars: Arc<[Term]>,
}

/// The path condition of one symbolic state.
#[derive(Clone, Debug, Default)]
pub struct PathCond {
    /// Bounds on single variables.
    pub bounds: HashTrieMapSync<Term, Interval>,
    /// Other constraints, newest on top.
    pub constraints: Stack<Constraint>,
    /// The raw model, whose clamping into the box (see
    /// [`PathCond::effective_model`]) satisfies the whole path condition;
    /// `None` when a solver answered unknown on the way here.
    pub model: Option<Arc<Model>>,
    /// Was some branch on this path kept only because a solver answered
    /// unknown? Then the path may be infeasible.
    pub unknown: bool,
}

impl PathCond {
    /// The trivial path condition `true`, whose model is all zeros.
    pub fn new() -> PathCond {
        PathCond {
            bounds: HashTrieMapSync::new_sync(),
            constraints: Stack::new(),
            model: Some(Arc::new(Model::new())),
            unknown: false,
        }
    }

    /// `v` clamped into the interval of the variable `x`.
    fn clamp(&self, x: &Term, v: Int) -> Int {
        match self.bounds.get(x) {
            Some(i) => i.clamp(&v),
            None => v,
        }
    }

    /// The value of the integer variable `x` in the effective model.
    pub fn value(&self, x: &Term) -> Option<Int> {
        let m = self.model.as_ref()?;
        Some(self.clamp(x, m.int(x.as_var()?)))
    }

    /// Does `c` hold in the effective model? `None` without a model.
    pub fn holds(&self, c: &Term) -> Option<bool> {
        let m = self.model.as_ref()?;
        Some(m.holds_with(c, &|x, v| self.clamp(x, v)))
    }

    /// The effective model: a model of the whole path condition.
    pub fn effective_model(&self) -> Option<Model> {
        let mut m = Model::clone(self.model.as_ref()?);
        for (x, i) in self.bounds.iter() {
            if let Some(name) = x.as_var() {
                let v = i.clamp(&m.int(name));
                m.set_int(name.clone(), v);
            }
        }
        Some(m)
    }

    /// The interval of `x` (unbounded if absent).
    pub fn interval(&self, x: &Term) -> Interval {
        self.bounds.get(x).cloned().unwrap_or_default()
    }

    /// Adds a conjunct (splitting conjunctions, absorbing bounds). The
    /// model is left as it is: callers keep the invariant.
    pub fn add(&mut self, c: &Term) {
        match c.kind() {
            Kind::And(xs) => xs.iter().for_each(|x| self.add(x)),
            Kind::Bool(true) => {}
            _ => match as_bound(c) {
                Some((x, i)) => {
                    let met = self.interval(&x).meet(&i);
                    self.bounds.insert_mut(x, met);
                }
                None => {
                    let vars: Arc<[Term]> = c.vars().into();
                    self.constraints = self.constraints.push(Constraint {
                        term: c.clone(),
                        vars,
                    });
                }
            },
        }
    }

    /// Does any non-bound constraint mention `x`?
    pub fn constrains(&self, x: &Term) -> bool {
        self.constraints.iter().any(|c| c.vars.contains(x))
    }

    /// The whole path condition as a list of terms (bounds first, sorted
    /// by variable name, then the other constraints oldest first).
    pub fn terms(&self) -> Vec<Term> {
        let mut bounds: Vec<(&Term, &Interval)> = self.bounds.iter().collect();
        bounds.sort_by(|a, b| a.0.as_var().cmp(&b.0.as_var()));
        let mut out: Vec<Term> = bounds
            .into_iter()
            .flat_map(|(x, i)| bound_terms(x, i))
            .collect();
        let mut others: Vec<Term> = self.constraints.iter().map(|c| c.term.clone()).collect();
        others.reverse();
        out.extend(others);
        out
    }

    /// The constraints (as terms) that share variables, directly or
    /// through other constraints, with `seed`'s variables, plus the bounds
    /// of those variables: the slice of the path condition relevant to a
    /// query about `seed` (KLEE's constraint independence). Also returns
    /// the slice's variables: no other variable occurs in it.
    pub fn slice(&self, seed: &[Term]) -> (Vec<Term>, Vec<Term>) {
        let mut vars: Vec<Term> = seed.to_vec();
        let mut taken = vec![false; self.constraints.len()];
        let all: Vec<&Constraint> = self.constraints.iter().collect();
        loop {
            let mut grew = false;
            for (i, c) in all.iter().enumerate() {
                if !taken[i] && c.vars.iter().any(|v| vars.contains(v)) {
                    taken[i] = true;
                    grew = true;
                    for v in c.vars.iter() {
                        if !vars.contains(v) {
                            vars.push(v.clone());
                        }
                    }
                }
            }
            if !grew {
                break;
            }
        }
        let mut out: Vec<Term> = vars
            .iter()
            .filter_map(|v| self.bounds.get(v).map(|i| (v, i)))
            .flat_map(|(v, i)| bound_terms(v, i))
            .collect();
        out.extend(
            all.iter()
                .zip(&taken)
                .filter(|(_, t)| **t)
                .map(|(c, _)| c.term.clone()),
        );
        (out, vars)
    }
}

/// `lo <= x` and `x <= hi` as terms (one `x == v` when they coincide).
fn bound_terms(x: &Term, i: &Interval) -> Vec<Term> {
    match (&i.lo, &i.hi) {
        (Some(lo), Some(hi)) if lo == hi => vec![Term::eq(x, &Term::int(lo.clone()))],
        (lo, hi) => lo
            .iter()
            .map(|lo| Term::le(&Term::int(lo.clone()), x))
            .chain(hi.iter().map(|hi| Term::le(x, &Term::int(hi.clone()))))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_recognised() {
        let n = Term::int_var("n");
        let (x, i) = as_bound(&Term::lt(&Term::int(5), &n)).unwrap();
        assert_eq!(x, n);
        assert_eq!(
            i,
            Interval {
                lo: Some(6.into()),
                hi: None
            }
        );
        let (_, i) = as_bound(&Term::le(&n, &Term::int(-3))).unwrap();
        assert_eq!(
            i,
            Interval {
                lo: None,
                hi: Some((-3).into())
            }
        );
        let (_, i) = as_bound(&Term::eq(&Term::int(4), &n)).unwrap();
        assert_eq!(
            i,
            Interval {
                lo: Some(4.into()),
                hi: Some(4.into())
            }
        );
        let (_, i) = as_bound(&Term::le(&Term::mul(&Term::int(3), &n), &Term::int(7))).unwrap();
        assert_eq!(i.hi, Some(2.into()));
        assert!(as_bound(&Term::lt(&n, &Term::int_var("m"))).is_none());
    }

    #[test]
    fn slices_follow_shared_variables() {
        let (x, y, z) = (Term::int_var("x"), Term::int_var("y"), Term::int_var("z"));
        let mut pc = PathCond::new();
        pc.add(&Term::lt(&x, &y));
        pc.add(&Term::lt(&z, &Term::mul(&z, &z)));
        pc.add(&Term::le(&y, &Term::int(9)));
        let (s, vars) = pc.slice(std::slice::from_ref(&x));
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!(vars.len(), 2, "{vars:?}");
        assert_eq!(pc.terms().len(), 3);
    }
}

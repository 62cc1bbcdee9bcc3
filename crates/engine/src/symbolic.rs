//! The symbolic domain: values are terms, paths are [`PathCond`]s, and a
//! branch asks, side by side, whether the path condition extended with the
//! condition (or its negation) is satisfiable.
//!
//! Each side is decided by the cheapest layer that can:
//! 1. constant folding (the condition is `true` or `false`: no check);
//! 2. bounds: a one-variable condition whose interval meets the path's
//!    box emptily is unsat; one whose variable no other constraint mentions
//!    is sat, with the model moved into the interval;
//! 3. the path's model: if it satisfies the condition, that side is sat;
//! 4. the solver, on the slice of the path condition that shares
//!    variables with the condition (constraint independence).
//!
//! A solver `unknown` keeps the side (never pruned) and marks the path, so
//! the run cannot end `safe`.

use crate::path::{as_bound, PathCond};
use std::sync::Arc;
use wiser_num::Int;
use wiser_semantics::{Domain, Fork};
use wiser_smt::{Answer, Kind, Model, Solver, Sort, Term, Z3Solver};
use wiser_syntax::ast::{ArithOp, CmpOp};

/// How branch sides were decided.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BranchStats {
    /// Branches whose condition folded to a constant (no check needed).
    pub folded: u64,
    /// Sides whose feasibility had to be checked.
    pub checks: u64,
    /// Checks decided by the interval box.
    pub by_bounds: u64,
    /// Checks decided by the path's model.
    pub by_model: u64,
    /// Checks decided by enumerating a small box.
    pub by_enumeration: u64,
    /// Checks sent to the solver.
    pub by_solver: u64,
    /// Of those, answered unknown.
    pub unknown: u64,
    /// Sides found infeasible (pruned).
    pub pruned: u64,
}

impl BranchStats {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &BranchStats) {
        self.folded += other.folded;
        self.checks += other.checks;
        self.by_bounds += other.by_bounds;
        self.by_model += other.by_model;
        self.by_enumeration += other.by_enumeration;
        self.by_solver += other.by_solver;
        self.unknown += other.unknown;
        self.pruned += other.pruned;
    }
}

/// The symbolic domain over a solver `S`.
pub struct Symbolic<S> {
    solver: S,
    small: Vec<Term>,
    validator: Option<Z3Solver>,
    /// Disagreements found by validation (see [`Symbolic::with_validation`]).
    pub mismatches: Vec<String>,
    /// Counters.
    pub stats: BranchStats,
}

/// Small constants are made once: most constants in programs are small.
const SMALL_MIN: i64 = -256;
const SMALL_MAX: i64 = 1024;

impl<S: Solver> Symbolic<S> {
    /// A symbolic domain deciding with `solver`.
    pub fn new(solver: S) -> Self {
        Symbolic {
            solver,
            small: (SMALL_MIN..=SMALL_MAX).map(Term::int).collect(),
            validator: None,
            mismatches: Vec::new(),
            stats: BranchStats::default(),
        }
    }

    /// Cross-checks every feasibility decision, whichever layer made it,
    /// against a bare Z3 solver on the whole path condition, and checks
    /// that every path's model satisfies it; disagreements are collected
    /// in `mismatches`. Slow: for testing the engine.
    pub fn with_validation(mut self, timeout: Option<std::time::Duration>) -> Self {
        self.validator = Some(Z3Solver::new(timeout));
        self
    }

    fn validate(&mut self, path: &PathCond, c: &Term, decided: &Option<PathCond>) {
        let Some(reference) = &mut self.validator else {
            return;
        };
        let mut query = path.terms();
        query.push(c.clone());
        let truth = reference.solve(&query);
        let claim = match decided {
            None => "unsat",
            Some(p) if p.unknown => return,
            Some(_) => "sat",
        };
        let agrees = match &truth {
            Answer::Sat(_) => claim == "sat",
            Answer::Unsat => claim == "unsat",
            Answer::Unknown(_) => true,
        };
        if !agrees {
            let conj: Vec<String> = query.iter().map(|t| t.to_string()).collect();
            self.mismatches.push(format!(
                "validation: the solver layers say {claim} but Z3 says {truth:?} for {}",
                conj.join(" and ")
            ));
        }
        if let Some(m) = decided.as_ref().and_then(|p| p.effective_model()) {
            if let Some(bad) = query.iter().find(|t| !m.holds(t)) {
                self.mismatches.push(format!(
                    "validation: a path's model does not satisfy its path condition ({bad})"
                ));
            }
        }
    }

    /// The solver.
    pub fn solver(&mut self) -> &mut S {
        &mut self.solver
    }

    fn side(&mut self, path: &PathCond, c: &Term) -> Option<PathCond> {
        let decided = self.decide(path, c);
        if self.validator.is_some() {
            self.validate(path, c, &decided);
        }
        decided
    }

    fn decide(&mut self, path: &PathCond, c: &Term) -> Option<PathCond> {
        self.stats.checks += 1;
        if let Some(xs) = conjoined_bounds(c) {
            // `c` only narrows the box: decide it on the narrowed box.
            let narrowed = extend(path, c, path.model.clone());
            if xs.iter().any(|x| narrowed.interval(x).is_empty()) {
                self.stats.by_bounds += 1;
                self.stats.pruned += 1;
                return None;
            }
            if path.model.is_some() {
                // Clamping into a narrower interval keeps a value that lies
                // inside, and moves a variable that no other constraint
                // mentions: either way the raw model can stay.
                let kept = |x: &Term| {
                    path.value(x)
                        .is_some_and(|v| narrowed.interval(x).contains(&v))
                };
                if xs.iter().all(kept) {
                    self.stats.by_model += 1;
                    return Some(narrowed);
                }
                if xs.iter().all(|x| kept(x) || !path.constrains(x)) {
                    self.stats.by_bounds += 1;
                    return Some(narrowed);
                }
            }
        }
        if let Some(m) = &path.model {
            if path.holds(c) == Some(true) {
                self.stats.by_model += 1;
                return Some(extend(path, c, path.model.clone()));
            }
            if let Some(decided) = decide_by_points(path, m, c) {
                self.stats.by_bounds += 1;
                if decided.is_none() {
                    self.stats.pruned += 1;
                }
                return decided;
            }
        }
        let (mut query, vars) = path.slice(&c.vars());
        // The new condition first: it is the one most likely to fail.
        query.insert(0, c.clone());
        if let Some(decided) = decide_by_enumeration(path, &query, &vars) {
            self.stats.by_enumeration += 1;
            return match decided {
                Some(model) => Some(extend(path, c, Some(model))),
                None => {
                    self.stats.pruned += 1;
                    None
                }
            };
        }
        self.stats.by_solver += 1;
        match self.solver.solve(&query) {
            Answer::Sat(found) => {
                // Take from `found` only the slice's variables: the rest of
                // the path's model satisfies the constraints outside the
                // slice, and a cached model may assign other variables
                // arbitrarily.
                let model = path.model.as_ref().map(|m| {
                    let mut merged = Model::clone(m);
                    for v in &vars {
                        match v.kind() {
                            Kind::Var(name, Sort::Array) => merged.set_array(
                                name.clone(),
                                found.array(name).cloned().unwrap_or_default(),
                            ),
                            Kind::Var(name, _) => merged.set_int(name.clone(), found.int(name)),
                            _ => {}
                        }
                    }
                    Arc::new(merged)
                });
                Some(extend(path, c, model))
            }
            Answer::Unsat => {
                self.stats.pruned += 1;
                None
            }
            Answer::Unknown(_) => {
                self.stats.unknown += 1;
                let mut p = extend(path, c, None);
                p.unknown = true;
                Some(p)
            }
        }
    }
}

/// Decides `c` when it is a boolean combination of bounds on one integer
/// variable `x` that no other constraint of the path mentions. Then the
/// values of `x` satisfying `c` inside the path's interval form a union of
/// intervals whose ends are among the bounds' ends (and their neighbours)
/// and the box's ends, so `c` is satisfiable exactly when one of those
/// candidate points satisfies it. `None`: not applicable.
fn decide_by_points(path: &PathCond, model: &Arc<Model>, c: &Term) -> Option<Option<PathCond>> {
    let mut atoms = Vec::new();
    if !bound_atoms(c, &mut atoms) {
        return None;
    }
    let x = atoms.first()?.0.clone();
    if atoms.iter().any(|(v, _)| *v != x) || path.constrains(&x) {
        return None;
    }
    let name = x.as_var()?.clone();
    let boxed = path.interval(&x);
    let mut candidates: Vec<Int> = boxed.lo.iter().chain(boxed.hi.iter()).cloned().collect();
    for (_, i) in &atoms {
        for end in i.lo.iter().chain(i.hi.iter()) {
            candidates.extend([end.sub(&Int::ONE), end.clone(), end.add(&Int::ONE)]);
        }
    }
    candidates.sort();
    candidates.dedup();
    for v in candidates.into_iter().filter(|v| boxed.contains(v)) {
        let mut moved = Model::clone(model);
        moved.set_int(name.clone(), v);
        if moved.holds(c) {
            return Some(Some(extend(path, c, Some(Arc::new(moved)))));
        }
    }
    Some(None)
}

/// Queries over boxes of at most this many points are decided by trying
/// them all, which costs less than a solver call.
const MAX_POINTS: u64 = 2048;

/// Decides the slice `query` (over `vars`) by enumeration when every
/// variable is an integer with a finite interval and the box is small:
/// the box is exactly the bounds, and every other constraint is evaluated
/// at each point, so this is sound and complete. Returns the new raw model
/// on success; `None` when not applicable.
fn decide_by_enumeration(
    path: &PathCond,
    query: &[Term],
    vars: &[Term],
) -> Option<Option<Arc<Model>>> {
    let model = path.model.as_ref()?;
    let mut ranges = Vec::with_capacity(vars.len());
    let mut points: u64 = 1;
    for v in vars {
        if !matches!(v.kind(), Kind::Var(_, Sort::Int)) {
            return None;
        }
        let i = path.interval(v);
        let (lo, hi) = (i.lo?, i.hi?);
        let size = hi.sub(&lo).add(&Int::ONE).to_i64()?;
        points = points.checked_mul(u64::try_from(size).ok()?)?;
        if points > MAX_POINTS {
            return None;
        }
        ranges.push((lo, hi));
    }
    let mut point: Vec<Int> = ranges.iter().map(|(lo, _)| lo.clone()).collect();
    loop {
        let at = |x: &Term, v: Int| match vars.iter().position(|w| w == x) {
            Some(k) => point[k].clone(),
            None => v,
        };
        if query.iter().all(|t| model.holds_with(t, &at)) {
            let mut found = Model::clone(model);
            for (v, value) in vars.iter().zip(&point) {
                found.set_int(v.as_var()?.clone(), value.clone());
            }
            return Some(Some(Arc::new(found)));
        }
        // Next point, odometer style.
        let mut k = 0;
        loop {
            if k == point.len() {
                return Some(None);
            }
            if point[k] < ranges[k].1 {
                point[k] = point[k].add(&Int::ONE);
                break;
            }
            point[k] = ranges[k].0.clone();
            k += 1;
        }
    }
}

/// The variables of `c` if it is a bound or a conjunction of bounds.
fn conjoined_bounds(c: &Term) -> Option<Vec<Term>> {
    let atoms: Vec<&Term> = match c.kind() {
        Kind::And(xs) => xs.iter().collect(),
        _ => vec![c],
    };
    let mut vars = Vec::new();
    for a in atoms {
        let (x, _) = as_bound(a)?;
        if !vars.contains(&x) {
            vars.push(x);
        }
    }
    Some(vars)
}

/// Collects the bounds that `c` is a boolean combination of; false if some
/// atom is not a bound.
fn bound_atoms(c: &Term, out: &mut Vec<(Term, crate::path::Interval)>) -> bool {
    match c.kind() {
        Kind::And(xs) | Kind::Or(xs) => xs.iter().all(|x| bound_atoms(x, out)),
        Kind::Not(x) => bound_atoms(x, out),
        _ => match as_bound(c) {
            Some(b) => {
                out.push(b);
                true
            }
            None => false,
        },
    }
}

/// The name of the symbol for the `index`-th `x = *` read of a path
/// (from 0). `#` starts a comment in IMP, so no program variable has it.
pub fn read_symbol(index: u32) -> String {
    format!("read#{}", index + 1)
}

/// `path` with conjunct `c` and model `model`.
fn extend(path: &PathCond, c: &Term, model: Option<Arc<Model>>) -> PathCond {
    let mut p = path.clone();
    p.add(c);
    p.model = model;
    p
}

impl<S: Solver> Domain for Symbolic<S> {
    type Int = Term;
    type Bool = Term;
    type Array = Term;
    type Path = PathCond;

    fn int(&mut self, n: &Int) -> Term {
        match n.to_i64() {
            Some(v) if (SMALL_MIN..=SMALL_MAX).contains(&v) => {
                self.small[(v - SMALL_MIN) as usize].clone()
            }
            _ => Term::int(n.clone()),
        }
    }

    fn arith(&mut self, op: ArithOp, a: Term, b: Term) -> Term {
        match op {
            ArithOp::Add => Term::add(&a, &b),
            ArithOp::Sub => Term::sub(&a, &b),
            ArithOp::Mul => Term::mul(&a, &b),
            ArithOp::Div => Term::div(&a, &b),
            ArithOp::Rem => Term::rem(&a, &b),
        }
    }

    fn neg(&mut self, a: Term) -> Term {
        Term::neg(&a)
    }

    fn cmp(&mut self, op: CmpOp, a: Term, b: Term) -> Term {
        match op {
            CmpOp::Eq => Term::eq(&a, &b),
            CmpOp::Ne => Term::ne(&a, &b),
            CmpOp::Lt => Term::lt(&a, &b),
            CmpOp::Le => Term::le(&a, &b),
            CmpOp::Gt => Term::gt(&a, &b),
            CmpOp::Ge => Term::ge(&a, &b),
        }
    }

    fn bool(&mut self, b: bool) -> Term {
        Term::bool(b)
    }

    fn not(&mut self, a: Term) -> Term {
        Term::not(&a)
    }

    fn and(&mut self, a: Term, b: Term) -> Term {
        Term::and(&a, &b)
    }

    fn or(&mut self, a: Term, b: Term) -> Term {
        Term::or(&a, &b)
    }

    fn select(&mut self, array: &Term, index: Term) -> Term {
        Term::select(array, &index)
    }

    fn store(&mut self, array: &Term, index: Term, value: Term) -> Term {
        Term::store(array, &index, &value)
    }

    fn input(&mut self, name: &str) -> Term {
        Term::int_var(name)
    }

    fn input_array(&mut self, name: &str) -> Term {
        Term::array_var(name)
    }

    fn read(&mut self, index: u32) -> Term {
        Term::int_var(read_symbol(index))
    }

    fn branch(&mut self, path: PathCond, cond: &Term) -> Fork<PathCond> {
        if let Some(b) = cond.as_bool() {
            self.stats.folded += 1;
            let (then, otherwise) = if b {
                (Some(path), None)
            } else {
                (None, Some(path))
            };
            return Fork { then, otherwise };
        }
        let then = self.side(&path, cond);
        let otherwise = self.side(&path, &Term::not(cond));
        Fork { then, otherwise }
    }

    fn assume(&mut self, path: PathCond, cond: &Term) -> Option<PathCond> {
        match cond.as_bool() {
            Some(b) => {
                self.stats.folded += 1;
                b.then_some(path)
            }
            None => self.side(&path, cond),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiser_smt::SolverStats;

    /// A solver that answers like a counterexample cache may: with a model
    /// of the query that also assigns an unrelated variable.
    struct Stale;

    impl Solver for Stale {
        fn solve(&mut self, _: &[Term]) -> Answer {
            let mut m = Model::new();
            m.set_int("x".into(), Int::from(3));
            m.set_int("y".into(), Int::from(999));
            Answer::Sat(m)
        }
        fn stats(&self, _: &mut SolverStats) {}
    }

    #[test]
    fn a_solver_model_only_changes_the_slice_variables() {
        let (x, y) = (Term::int_var("x"), Term::int_var("y"));
        let y_squared_is_4 = Term::eq(&Term::mul(&y, &y), &Term::int(4));
        let mut path = PathCond::new();
        path.add(&y_squared_is_4);
        let mut m = Model::new();
        m.set_int("y".into(), Int::from(2));
        path.model = Some(Arc::new(m));
        let mut dom = Symbolic::new(Stale);
        assert_eq!(path.holds(&y_squared_is_4), Some(true));
        let x_squared_is_9 = Term::eq(&Term::mul(&x, &x), &Term::int(9));
        let then = dom.branch(path, &x_squared_is_9).then.expect("feasible");
        let model = then.effective_model().expect("a model");
        assert!(model.holds(&y_squared_is_4), "{model:?}");
        assert!(model.holds(&x_squared_is_9), "{model:?}");
    }
}

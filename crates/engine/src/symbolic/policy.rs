//! The symbolic policy: a side of a decision is taken when the path
//! condition extended with the condition (or its negation) is
//! satisfiable.
//!
//! Each side is decided by the cheapest layer that can:
//! 1. constant folding (the condition is `true` or `false`: no check);
//! 2. the box: a conjunction of bounds that empties a variable's set is
//!    unsat; one whose variables keep their model value, or are mentioned
//!    by no other constraint, is sat;
//! 3. the path's model: if it satisfies the condition, that side is sat;
//! 4. refutation by the box: the condition, with non-wrapping bit-vector
//!    arithmetic read as integers, is false at every point of the box;
//! 5. candidate points: a boolean combination of bounds on one variable
//!    that nothing else constrains holds somewhere iff at one of finitely
//!    many points;
//! 6. enumeration of a small box, with the last variable solved exactly
//!    when the constraints are linear in it;
//! 7. the solver, on the slice of the path condition that shares
//!    variables with the condition (constraint independence).
//!
//! A solver `unknown` keeps the side (never pruned) and marks the path, so
//! the run cannot end `safe`.

use super::decide::{decide_by_enumeration, decide_by_moving_a_fresh_variable, decide_by_points};
use super::range::refuted_by_box;
use super::Symbolic;
use crate::coverage::Coverage;
use crate::known::KnownBugs;
use crate::path::{as_bound, PathCond};
use std::sync::Arc;
use wiser_ir::{ErrorKind, Site, Span};
use wiser_semantics::{CallSite, Fork, Policy};
use wiser_smt::{Answer, Kind, Model, Solver, Sort, Term};

/// How decisions were made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BranchStats {
    /// Decisions whose condition folded to a constant (no check needed).
    pub folded: u64,
    /// Sides whose feasibility had to be checked.
    pub checks: u64,
    /// Checks decided by the box.
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

/// The symbolic policy over a solver `S`.
pub struct Feasible<S> {
    solver: S,
    validator: Option<Box<dyn Solver>>,
    known: Option<Arc<KnownBugs>>,
    /// Do states keep their decision trails?
    trails: bool,
    /// Disagreements found by validation (see [`Feasible::with_validation`]).
    pub mismatches: Vec<String>,
    /// Counters.
    pub stats: BranchStats,
    /// While a path is replayed from its prefix ([`crate::Prefix`]): the
    /// sides its decisions take, in order.
    forced: Option<Forced>,
    /// The sides of decisions taken (and instructions reached, marked by
    /// the expander), when asked for ([`Feasible::with_coverage`]).
    pub coverage: Option<Box<Coverage>>,
}

impl<S: Solver> Feasible<S> {
    /// A policy deciding with `solver`; states keep their decision trails.
    pub fn new(solver: S) -> Self {
        Feasible {
            solver,
            validator: None,
            known: None,
            trails: true,
            mismatches: Vec::new(),
            stats: BranchStats::default(),
            forced: None,
            coverage: None,
        }
    }

    /// From now on, the next `sides.len()` decisions take the given sides
    /// (oldest first), each checked for feasibility like any side: the
    /// replay of a path prefix. The other side is not decided at all.
    pub fn force(&mut self, sides: Vec<bool>) {
        self.forced = Some(Forced { sides, next: 0 });
    }

    /// Ends forcing; returns how many of the forced sides were not taken
    /// (0 when the replay consumed exactly its prefix).
    pub fn unforce(&mut self) -> usize {
        self.forced
            .take()
            .map_or(0, |f| f.sides.len().saturating_sub(f.next))
    }

    /// The side the next decision must take, if it is forced.
    fn next_forced(&mut self) -> Option<bool> {
        let f = self.forced.as_mut()?;
        let side = *f.sides.get(f.next)?;
        f.next += 1;
        Some(side)
    }

    /// Records the coverage of `ir` in [`Feasible::coverage`].
    pub fn with_coverage(mut self, ir: &wiser_ir::Ir) -> Self {
        self.coverage = Some(Box::new(Coverage::new(ir)));
        self
    }

    fn cover(&mut self, site: Site, side: bool) {
        if let Some(c) = &mut self.coverage {
            c.take(site, side);
        }
    }

    /// Whether states keep the ordered trail of their decisions. A trail
    /// costs an allocation per symbolic decision and keeps the decisions
    /// of a deep path alive (about 60 bytes each: 600 MB on a path of 10
    /// million), so a search whose results do not use them turns it off.
    pub fn with_trails(mut self, trails: bool) -> Self {
        self.trails = trails;
        self
    }

    /// Cross-checks every feasibility decision, whichever layer made it,
    /// against `reference` (a bare solver) on the whole path condition,
    /// and checks that every path's model satisfies it; disagreements are
    /// collected in `mismatches`. Slow: for testing the engine.
    pub fn with_validation(mut self, reference: Box<dyn Solver>) -> Self {
        self.validator = Some(reference);
        self
    }

    /// Stops looking for the bugs in `known` (for runs that report each
    /// bug once): their error sides are no longer decided.
    pub fn with_known(mut self, known: Arc<KnownBugs>) -> Self {
        self.known = Some(known);
        self
    }

    /// Is this bug already known from a path before this one (in the
    /// order of [`KnownBugs::beaten`])?
    pub fn is_known(
        &self,
        kind: ErrorKind,
        span: Span,
        stack: &dyn Fn() -> Vec<CallSite>,
        steps: u64,
        path: Option<&dyn Fn() -> Vec<Term>>,
    ) -> bool {
        self.known
            .as_ref()
            .is_some_and(|k| k.beaten(kind, span, stack, steps, path))
    }

    /// The solver.
    pub fn solver(&mut self) -> &mut S {
        &mut self.solver
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

    fn side(&mut self, path: &PathCond, c: &Term) -> Option<PathCond> {
        let decided = self.decide(path, c);
        if self.validator.is_some() {
            self.validate(path, c, &decided);
        }
        decided
    }

    fn pruned(&mut self) -> Option<PathCond> {
        self.stats.pruned += 1;
        None
    }

    fn decide(&mut self, path: &PathCond, c: &Term) -> Option<PathCond> {
        self.stats.checks += 1;
        if let Some(xs) = conjoined_bounds(c) {
            // `c` only narrows the box: decide it on the narrowed box.
            let narrowed = extend(path, c, path.model.clone());
            if xs.iter().any(|x| narrowed.is_empty_set(x)) {
                self.stats.by_bounds += 1;
                return self.pruned();
            }
            if path.model.is_some() {
                // Clamping into a narrower set keeps a value that lies
                // inside, and moves a variable that no other constraint
                // mentions: either way the raw model can stay.
                let kept = |x: &Term| path.value(x).is_some_and(|v| narrowed.admits(x, &v));
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
            if refuted_by_box(path, c) {
                self.stats.by_bounds += 1;
                return self.pruned();
            }
            if let Some(decided) = decide_by_points(path, m, c) {
                self.stats.by_bounds += 1;
                return match decided {
                    Some(model) => Some(extend(path, c, Some(model))),
                    None => self.pruned(),
                };
            }
            if let Some(model) = decide_by_moving_a_fresh_variable(path, m, c) {
                self.stats.by_bounds += 1;
                return Some(extend(path, c, Some(model)));
            }
        }
        let seed = c.vars();
        if let Some(decided) = decide_by_enumeration(path, c, &seed) {
            self.stats.by_enumeration += 1;
            return match decided {
                Some(model) => Some(extend(path, c, Some(model))),
                None => self.pruned(),
            };
        }
        let (mut query, vars) = path.slice(&seed);
        // The new condition last: the queries of neighbouring paths then
        // share their longest prefix, and the solver keeps its work.
        query.push(c.clone());
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
                        copy_var(&mut merged, v, &found);
                    }
                    Arc::new(merged)
                });
                Some(extend(path, c, model))
            }
            Answer::Unsat => self.pruned(),
            Answer::Unknown(_) => {
                self.stats.unknown += 1;
                let mut p = extend(path, c, None);
                p.unknown = true;
                Some(p)
            }
        }
    }
}

/// The sides a replayed prefix still has to take.
struct Forced {
    sides: Vec<bool>,
    next: usize,
}

/// Sets variable `v` of `into` to its value in `from`.
fn copy_var(into: &mut Model, v: &Term, from: &Model) {
    match v.kind() {
        Kind::Var(name, Sort::Array(..)) => {
            into.set_array(name.clone(), from.array(name).cloned().unwrap_or_default())
        }
        Kind::Var(name, Sort::Bool) => into.set_bool(name.clone(), from.boolean(name)),
        Kind::Var(name, _) => into.set_int(name.clone(), from.int(name)),
        _ => {}
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

/// `path` with conjunct `c` and model `model`.
fn extend(path: &PathCond, c: &Term, model: Option<Arc<Model>>) -> PathCond {
    let mut p = path.clone();
    p.add(c);
    p.model = model;
    p
}

impl<S: Solver> Policy<Symbolic> for Feasible<S> {
    type Path = PathCond;

    fn branch(&mut self, path: &PathCond, site: Site, cond: &Term) -> Fork<PathCond> {
        if let Some(b) = cond.as_bool() {
            self.folded(site, b);
            return Fork::one(b, path.clone());
        }
        if let Some(taken) = self.next_forced() {
            let c = if taken { cond.clone() } else { Term::not(cond) };
            let side = self.side(path, &c);
            if side.is_some() {
                self.cover(site, taken);
            }
            return match side {
                Some(p) => Fork::one(taken, p),
                // Infeasible now: the replay diverged, which the caller
                // sees as a path that ends early.
                None => Fork {
                    then: None,
                    otherwise: None,
                },
            };
        }
        let then = self.side(path, cond);
        let otherwise = self.side(path, &Term::not(cond));
        if self.coverage.is_some() {
            if then.is_some() {
                self.cover(site, true);
            }
            if otherwise.is_some() {
                self.cover(site, false);
            }
        }
        Fork { then, otherwise }
    }

    fn assume(&mut self, path: &PathCond, site: Site, cond: &Term) -> Option<PathCond> {
        // The machine assumes a check's passing side (its condition is the
        // negated fault), and the holding side of anything else.
        let side = site.check.is_none();
        let taken = match cond.as_bool() {
            Some(b) => {
                self.stats.folded += 1;
                b.then(|| path.clone())
            }
            None => {
                // A forced assumption takes its holding side, like any.
                let _ = self.next_forced();
                self.side(path, cond)
            }
        };
        if taken.is_some() {
            self.cover(site, side);
        }
        taken
    }

    fn folded(&mut self, site: Site, holds: bool) {
        self.stats.folded += 1;
        self.cover(site, holds);
    }

    fn seeks_error(
        &mut self,
        kind: ErrorKind,
        span: Span,
        steps: u64,
        stack: &dyn Fn() -> Vec<CallSite>,
    ) -> bool {
        !self.is_known(kind, span, stack, steps, None)
    }

    fn records_trail(&self) -> bool {
        self.trails
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiser_num::Int;
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

    fn site() -> Site {
        Site { pc: 0, check: None }
    }

    #[test]
    fn trails_are_kept_unless_turned_off() {
        assert!(Feasible::new(Stale).records_trail());
        assert!(!Feasible::new(Stale).with_trails(false).records_trail());
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
        let mut pol = Feasible::new(Stale);
        assert_eq!(path.holds(&y_squared_is_4), Some(true));
        let x_squared_is_9 = Term::eq(&Term::mul(&x, &x), &Term::int(9));
        let then = pol
            .branch(&path, site(), &x_squared_is_9)
            .then
            .expect("feasible");
        let model = then.effective_model().expect("a model");
        assert!(model.holds(&y_squared_is_4), "{model:?}");
        assert!(model.holds(&x_squared_is_9), "{model:?}");
    }

    /// A solver that must not be called.
    struct Forbidden;

    impl Solver for Forbidden {
        fn solve(&mut self, q: &[Term]) -> Answer {
            panic!("the solver was asked {q:?}")
        }
        fn stats(&self, _: &mut SolverStats) {}
    }

    #[test]
    fn solving_for_one_variable_evaluates_conditions_on_the_others() {
        // x ∈ {0}, y: u8 ∈ {1, 2}, x == 0 or y == 0; then y == 2 is
        // feasible (x = 0, y = 2). The `or` has a disjunct without x that
        // solving for x must evaluate, not give up on (a difftest find).
        let x = Term::int_var("x");
        let y = Term::var("y", Sort::Bv(8));
        let mut pol = Feasible::new(Forbidden);
        let mut path = PathCond::new();
        for c in [
            Term::eq(&x, &Term::int(0)),
            Term::bv_cmp(wiser_smt::BvPred::Ule, &Term::bv(8, 1), &y),
            Term::bv_cmp(wiser_smt::BvPred::Ule, &y, &Term::bv(8, 2)),
            Term::or(
                &Term::eq(&x, &Term::int(0)),
                &Term::bv_eq(&y, &Term::bv(8, 0)),
            ),
        ] {
            path = pol.assume(&path, site(), &c).expect("feasible");
        }
        let two = Term::bv_eq(&y, &Term::bv(8, 2));
        let fork = pol.branch(&path, site(), &two);
        let then = fork.then.expect("y == 2 is feasible");
        assert!(then.effective_model().unwrap().holds(&two));
        assert!(fork.otherwise.is_some());
    }

    #[test]
    fn a_countdown_to_zero_needs_no_solver() {
        // while x != 0 do x = x - 1 od, x unbounded: each test is a
        // disequality on one variable.
        let x = Term::int_var("x");
        let mut pol = Feasible::new(Forbidden);
        let mut path = PathCond::new();
        for k in 0..200 {
            let c = Term::ne(&Term::sub(&x, &Term::int(k)), &Term::int(0));
            let fork = pol.branch(&path, site(), &c);
            assert!(fork.otherwise.is_some(), "x == {k} is possible");
            path = fork.then.expect("x != k is possible");
        }
        assert_eq!(pol.stats.by_solver, 0);
    }
}

//! The solver interface and the layers stacked in front of Z3.
//!
//! Every implementation decides the same formula: the conjunction of the
//! given constraints. Layers (KLEE's solver chain) wrap an inner solver and
//! answer what they can without it:
//! * [`QueryCache`]: an exact cache keyed by the sorted, deduplicated set of
//!   constraints (terms are normalised, so equal sets often coincide);
//! * [`CexCache`]: recent models, tried on each new query before solving
//!   (KLEE's counterexample cache);
//! * [`crate::Z3Solver`] at the bottom.

use crate::model::Model;
use crate::term::Term;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::time::Duration;

/// The answer to a satisfiability query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable, with a model of the constraints.
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
    /// The solver could not decide (timeout, incompleteness, resource
    /// limit). Never to be read as `Unsat`.
    Unknown(String),
}

/// Counters of a solver chain; each layer adds its own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Queries that reached the chain.
    pub queries: u64,
    /// Answered by the query cache.
    pub query_cache_hits: u64,
    /// Answered by the counterexample cache.
    pub cex_cache_hits: u64,
    /// Queries that reached Z3.
    pub z3_queries: u64,
    /// Of those, answered sat / unsat / unknown.
    pub z3_sat: u64,
    /// See `z3_sat`.
    pub z3_unsat: u64,
    /// See `z3_sat`.
    pub z3_unknown: u64,
    /// Incremental checks that gave up and were retried one-shot.
    pub one_shot_retries: u64,
    /// Levels pushed on Z3's incremental solver (one per constraint).
    pub z3_pushes: u64,
    /// Levels popped from it (a `pop(n)` counts `n`), so that
    /// `z3_pushes - z3_pops` is the depth of the stack: each popped level
    /// is a constraint that had to be retracted and may be re-asserted.
    pub z3_pops: u64,
    /// Constraints asserted, incrementally or on one-shot solvers.
    pub z3_asserts: u64,
    /// Satisfiability checks run, incremental and one-shot.
    pub z3_checks: u64,
    /// Time spent in the solvers at the bottom of the chain (Z3, and
    /// Bitwuzla and cvc5 for the queries asked of them).
    pub z3_time: Duration,
    /// Solver processes started beyond the first of each
    /// [`crate::ProcessSolver`]: each one replaced a process that was
    /// stopped, crashed or held too many terms.
    pub solver_restarts: u64,
    /// Queries asked of cvc5 (those with float operations, when cvc5 is
    /// found: see [`crate::Cvc5`]).
    pub cvc5_queries: u64,
    /// Of those, answered sat (with a model our evaluator checked) /
    /// unsat by cvc5.
    pub cvc5_sat: u64,
    /// See `cvc5_sat`.
    pub cvc5_unsat: u64,
    /// Of those, the ones cvc5 did not answer (an error, `unknown`, a
    /// model that failed the check). The rest it answered, ran out of
    /// time on, or was stopped on when Bitwuzla answered first. A query
    /// that neither answered goes on to Z3 (`z3_queries`).
    pub cvc5_fallbacks: u64,
    /// Queries asked of Bitwuzla (those with float operations and no
    /// mathematical integer, when a Python with its bindings is found: see
    /// [`crate::Bitwuzla`]), side by side with cvc5.
    pub bitwuzla_queries: u64,
    /// Of those, answered sat (with a model our evaluator checked) /
    /// unsat by Bitwuzla.
    pub bitwuzla_sat: u64,
    /// See `bitwuzla_sat`.
    pub bitwuzla_unsat: u64,
    /// Of those, the ones Bitwuzla did not answer (an error, `unknown`, a
    /// model that failed the check). The rest it answered, ran out of
    /// time on, or was stopped on when cvc5 answered first.
    pub bitwuzla_fallbacks: u64,
    /// Float queries settled by Bitwuzla or cvc5 (counted once, however
    /// many of them ran): decided, or given up at the deadline; they did
    /// not reach Z3.
    pub external_settled: u64,
}

impl SolverStats {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &SolverStats) {
        let mut other = other.clone();
        let (theirs, their_time) = other.counters();
        let (mine, my_time) = self.counters();
        for (m, t) in mine.into_iter().zip(theirs) {
            *m += *t;
        }
        *my_time += *their_time;
    }

    /// Queries decided or given up at the bottom of the chain: those
    /// that reached Z3 and those Bitwuzla or cvc5 settled.
    pub fn solver_queries(&self) -> u64 {
        self.z3_queries + self.external_settled
    }

    /// Every counter, in a fixed order (the solver process's wire order),
    /// and the time. Destructured exhaustively, so that no counter can be
    /// left out of a sum or off the wire.
    pub(crate) fn counters(&mut self) -> ([&mut u64; 22], &mut Duration) {
        // Each counter is named once, for the pattern and the array alike.
        macro_rules! in_order {
            ($($counter:ident),*) => {{
                let SolverStats { $($counter,)* z3_time } = self;
                ([$($counter),*], z3_time)
            }};
        }
        in_order!(
            queries,
            query_cache_hits,
            cex_cache_hits,
            z3_queries,
            z3_sat,
            z3_unsat,
            z3_unknown,
            one_shot_retries,
            z3_pushes,
            z3_pops,
            z3_asserts,
            z3_checks,
            solver_restarts,
            cvc5_queries,
            cvc5_sat,
            cvc5_unsat,
            cvc5_fallbacks,
            bitwuzla_queries,
            bitwuzla_sat,
            bitwuzla_unsat,
            bitwuzla_fallbacks,
            external_settled
        )
    }
}

/// A decision procedure for conjunctions of boolean terms.
pub trait Solver {
    /// Decides whether the conjunction of `constraints` (boolean terms) is
    /// satisfiable; on `Sat` returns a model of it (variables it does not
    /// assign are 0).
    fn solve(&mut self, constraints: &[Term]) -> Answer;

    /// Adds this layer's counters (and its inner layers') to `out`.
    fn stats(&self, out: &mut SolverStats);

    /// No query may run past `deadline` (queries then answer unknown).
    /// Layers pass it on; the default ignores it.
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        let _ = deadline;
    }

    /// The deadline set by [`Solver::set_deadline`], so that a caller can
    /// narrow it for a few queries and restore it. The default: none.
    fn deadline(&self) -> Option<std::time::Instant> {
        None
    }
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn solve(&mut self, constraints: &[Term]) -> Answer {
        (**self).solve(constraints)
    }
    fn stats(&self, out: &mut SolverStats) {
        (**self).stats(out)
    }
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        (**self).set_deadline(deadline)
    }
    fn deadline(&self) -> Option<std::time::Instant> {
        (**self).deadline()
    }
}

/// Caches answers by the set of constraints. `Unknown` is not cached: a
/// later query may have more time.
pub struct QueryCache<S> {
    inner: S,
    cache: FxHashMap<Box<[Term]>, Answer>,
    capacity: usize,
    queries: u64,
    hits: u64,
}

impl<S: Solver> QueryCache<S> {
    /// A cache of at most `capacity` answers in front of `inner` (cleared
    /// when full).
    pub fn new(inner: S, capacity: usize) -> Self {
        QueryCache {
            inner,
            cache: FxHashMap::default(),
            capacity,
            queries: 0,
            hits: 0,
        }
    }
}

impl<S: Solver> Solver for QueryCache<S> {
    fn solve(&mut self, constraints: &[Term]) -> Answer {
        self.queries += 1;
        let mut key: Vec<Term> = constraints.to_vec();
        key.sort();
        key.dedup();
        let key = key.into_boxed_slice();
        if let Some(a) = self.cache.get(&key) {
            self.hits += 1;
            return a.clone();
        }
        let answer = self.inner.solve(constraints);
        if !matches!(answer, Answer::Unknown(_)) {
            if self.cache.len() >= self.capacity {
                self.cache.clear();
            }
            self.cache.insert(key, answer.clone());
        }
        answer
    }

    fn stats(&self, out: &mut SolverStats) {
        out.queries += self.queries;
        out.query_cache_hits += self.hits;
        self.inner.stats(out);
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline);
    }

    fn deadline(&self) -> Option<std::time::Instant> {
        self.inner.deadline()
    }
}

/// Tries recent models on each query before asking the inner solver: a
/// model that satisfies every constraint answers `Sat` at the cost of an
/// evaluation.
pub struct CexCache<S> {
    inner: S,
    models: VecDeque<Model>,
    capacity: usize,
    hits: u64,
}

impl<S: Solver> CexCache<S> {
    /// A cache of the `capacity` most recent models in front of `inner`.
    pub fn new(inner: S, capacity: usize) -> Self {
        CexCache {
            inner,
            models: VecDeque::new(),
            capacity,
            hits: 0,
        }
    }
}

impl<S: Solver> Solver for CexCache<S> {
    fn solve(&mut self, constraints: &[Term]) -> Answer {
        if let Some(m) = self
            .models
            .iter()
            .find(|m| constraints.iter().all(|c| m.holds(c)))
        {
            self.hits += 1;
            return Answer::Sat(m.clone());
        }
        let answer = self.inner.solve(constraints);
        if let Answer::Sat(m) = &answer {
            if self.models.len() >= self.capacity {
                self.models.pop_back();
            }
            self.models.push_front(m.clone());
        }
        answer
    }

    fn stats(&self, out: &mut SolverStats) {
        out.cex_cache_hits += self.hits;
        self.inner.stats(out);
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline);
    }

    fn deadline(&self) -> Option<std::time::Instant> {
        self.inner.deadline()
    }
}

//! k-induction over the Horn clauses, for the programs Spacer does not
//! close: the clauses are a transition system (a state is a cut point
//! with its relation's values), and for k = 1, 2, … the base case asks
//! whether an error is reachable in k - 1 steps from the entry, the step
//! case whether k consecutive states anywhere, each satisfying the
//! Houdini facts of its cut point and not at an error, can step into an
//! error ([`wiser_smt::Unrolling`]), over states that are pairwise
//! distinct (simple paths, constrained pair by pair where a
//! counterexample repeats a state). The facts matter: without them a
//! step case starts from states no run reaches and k-induction proves
//! little.
//!
//! A step case that holds is a claim, not yet a proof: the certificate
//! (k and the facts) is re-checked on a fresh solver chain of the run
//! layer ([`wiser_smt::HornProblem::check_k_inductive`]: the facts
//! inductive, every base case up to k, the step case at k) before the
//! prover says `safe`. A base case that reaches an error ends the search
//! with `unknown`: the prover never reports a bug, the bug finders
//! replay them.

use crate::report::Incomplete;
use crate::run::{Solvers, StopSwitch};
use wiser_smt::{Answer, HornProblem, Refusal, Solver, SolverStats, Term, Unrolling};

/// What the search for a k came to.
pub(super) enum Outcome {
    /// The property is k-inductive relative to the facts, and the
    /// independent check agreed.
    Proved {
        /// The k.
        k: usize,
    },
    /// No proof, and why.
    Unknown(Incomplete, String),
    /// The search found a k that the independent check refused (an
    /// internal error, or a check that could not decide).
    Refused(Refusal),
}

/// Deepens k from 1 to `max_k` over `p` strengthened by `facts`
/// (inductive, one per relation), asking `solvers`' bare solvers (which
/// carry the run's deadline) and looking at `stop` before each query.
/// The solvers' counters are added to `stats`.
pub(super) fn k_induction(
    p: &HornProblem,
    facts: &[Term],
    max_k: usize,
    solvers: &Solvers,
    stop: &StopSwitch,
    stats: &mut SolverStats,
) -> Outcome {
    if !p.is_unrollable() {
        let reason = "k-induction unrolls linear clauses over scalars only: the summaries of \
                      recursive procedures are not linear, and arrays have no equality in \
                      the terms";
        return Outcome::Unknown(Incomplete::NotEncoded, reason.into());
    }
    let unrolling = Unrolling::new(p, facts);
    let mut solver = solvers.bare();
    let found = search(&unrolling, max_k, &mut *solver, stop);
    solver.stats(stats);
    let k = match found {
        Ok(k) => k,
        Err((why, reason)) => return Outcome::Unknown(why, reason),
    };
    if let Some(why) = stop.reason() {
        return Outcome::Unknown(
            why,
            format!("stopped while checking k-induction at k = {k}"),
        );
    }
    // The certificate, on a chain that shares nothing with the search.
    let mut checker = solvers.bare();
    let checked = p.check_k_inductive(k, facts, &mut *checker);
    checker.stats(stats);
    match checked {
        Ok(()) => Outcome::Proved { k },
        Err(refusal) => Outcome::Refused(refusal),
    }
}

/// The least k up to `max_k` whose step case holds, with every base case
/// below it.
fn search(
    unrolling: &Unrolling<'_>,
    max_k: usize,
    solver: &mut dyn Solver,
    stop: &StopSwitch,
) -> Result<usize, (Incomplete, String)> {
    let undecided = |what: String, why: String| {
        let reason = format!("k-induction could not decide {what}: {why}");
        (Incomplete::SolverUnknown, reason)
    };
    let stopped =
        |why: Incomplete, k: usize| (why, format!("stopped during k-induction at k = {k}"));
    // Simple-path constraints a step case needed: they hold at every
    // deeper k too (the states keep their numbers).
    let mut distinct: Vec<Term> = Vec::new();
    for k in 1..=max_k {
        // The base case: no error within k - 1 steps of the entry.
        let depth = k - 1;
        if let Some(why) = stop.reason() {
            return Err(stopped(why, k));
        }
        match solver.solve(&unrolling.base(depth)) {
            Answer::Unsat => {}
            Answer::Sat(_) => {
                let reason = format!(
                    "k-induction's base case reaches an error at depth {depth} (the bug finders \
                     replay bugs: `wiser check`, `wiser bmc`)"
                );
                return Err((Incomplete::NoInvariant, reason));
            }
            Answer::Unknown(why) => {
                return Err(undecided(format!("the base case at depth {depth}"), why))
            }
        }
        // The step case, with the simple-path constraints its
        // counterexamples violate, added until one violates none: all
        // k² pairs at once made the queries of deep k slower, and most
        // counterexamples repeat no state.
        let step = unrolling.step(k);
        loop {
            if let Some(why) = stop.reason() {
                return Err(stopped(why, k));
            }
            let query: Vec<Term> = step.iter().chain(&distinct).cloned().collect();
            match solver.solve(&query) {
                Answer::Unsat => return Ok(k),
                Answer::Sat(model) => {
                    // Only pairs not asked yet: a model that leaves a
                    // variable unset reads it as 0, and so may seem to
                    // repeat a pair the query already forbids.
                    let repeated: Vec<Term> = unrolling
                        .repeated(k, &model)
                        .into_iter()
                        .filter(|d| !distinct.contains(d))
                        .collect();
                    if repeated.is_empty() {
                        break;
                    }
                    distinct.extend(repeated);
                }
                Answer::Unknown(why) => {
                    return Err(undecided(format!("the step case at k = {k}"), why))
                }
            }
        }
    }
    let reason = format!("the property is not k-inductive for k up to {max_k} (--max-k)");
    Err((Incomplete::NoInvariant, reason))
}

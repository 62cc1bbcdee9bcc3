//! Constrained Horn clauses over [`Term`]s, and the independent check of
//! a solution.
//!
//! A [`HornProblem`] has relations (unknown predicates over parameter
//! variables, one per cut point of a program, and per summarised
//! procedure its calls and its summary) and clauses
//! `body₁(args) ∧ … ∧ bodyₙ(args) ∧ constraint ⇒ head(args)`, each
//! universally quantified over its free variables; a clause without a
//! body is a fact (the entry), one with several bodies non-linear (a
//! path through a call: the caller's cut point and the callee's
//! summary), one without a head a query (an error must be unreachable). A solution
//! gives each relation a formula over its parameters; Z3's Spacer finds
//! one (`z3_horn.rs`), and [`HornProblem::check`] re-checks it with any
//! [`Solver`] — a fresh one, sharing nothing with the solver that found
//! it — clause by clause: the solution is believed only if for every
//! clause `bodies ∧ constraint ∧ ¬head` is unsatisfiable.

use crate::solver::{Answer, Solver};
use crate::term::Term;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// An unknown predicate.
#[derive(Clone, Debug)]
pub struct Relation {
    /// A name for people (a solution is shown under it).
    pub name: Arc<str>,
    /// Its parameters: distinct variables.
    pub params: Vec<Term>,
}

/// A relation applied to arguments (of the parameters' sorts).
#[derive(Clone, Debug)]
pub struct Application {
    /// Which relation (an index into [`HornProblem::relations`]).
    pub relation: usize,
    /// The arguments.
    pub args: Vec<Term>,
}

/// `body₁(args) ∧ … ∧ bodyₙ(args) ∧ constraint ⇒ head(args)`.
#[derive(Clone, Debug)]
pub struct Clause {
    /// The premise's relations, all of which must hold; none for a fact.
    pub body: Vec<Application>,
    /// The premise's constraint.
    pub constraint: Term,
    /// The conclusion; `None` for a query (the premise must not hold).
    pub head: Option<Application>,
}

/// Relations and clauses.
#[derive(Clone, Debug, Default)]
pub struct HornProblem {
    /// The unknowns.
    pub relations: Vec<Relation>,
    /// The clauses.
    pub clauses: Vec<Clause>,
}

/// What a Horn solver answered.
#[derive(Clone, Debug)]
pub enum HornAnswer {
    /// A solution: a formula per relation, over its parameters (not yet
    /// checked: see [`HornProblem::check`]).
    Solved(Vec<Term>),
    /// No solution exists: some query's premise is derivable.
    Refuted,
    /// No answer, and why.
    Unknown(String),
}

/// Why a solution was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The solution does not give one formula per relation, or a formula
    /// speaks of variables other than its relation's parameters.
    Malformed(String),
    /// Clause `clause` does not hold under the solution.
    Violated {
        /// Its index in [`HornProblem::clauses`].
        clause: usize,
    },
    /// The checking solver could not decide clause `clause`.
    Undecided {
        /// Its index.
        clause: usize,
        /// The solver's reason.
        reason: String,
    },
    /// k-induction's base case reaches an error in `depth` steps.
    Reachable {
        /// The number of steps.
        depth: usize,
    },
    /// k-induction's step case fails at `k`.
    NotKInductive {
        /// The claimed k.
        k: usize,
    },
    /// The checking solver could not decide a case of k-induction.
    UndecidedUnrolling {
        /// Which case, in words.
        what: String,
        /// The solver's reason.
        reason: String,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Malformed(why) => write!(f, "malformed solution: {why}"),
            Refusal::Violated { clause } => write!(f, "clause {clause} does not hold"),
            Refusal::Undecided { clause, reason } => {
                write!(f, "clause {clause} could not be checked: {reason}")
            }
            Refusal::Reachable { depth } => {
                write!(f, "an error is reachable in {depth} steps")
            }
            Refusal::NotKInductive { k } => write!(f, "the step case fails at k = {k}"),
            Refusal::UndecidedUnrolling { what, reason } => {
                write!(f, "{what} could not be checked: {reason}")
            }
        }
    }
}

impl HornProblem {
    /// Relation `app.relation`'s formula in `solution`, at `app`'s
    /// arguments.
    pub fn instantiate(&self, solution: &[Term], app: &Application) -> Term {
        let params = &self.relations[app.relation].params;
        let at: FxHashMap<&Term, &Term> = params.iter().zip(&app.args).collect();
        solution[app.relation].substitute(&|v| at.get(v).map(|&t| t.clone()))
    }

    /// Checks `solution` clause by clause with `solver`: `Ok` only if
    /// every clause holds (its premise — the constraint and every body
    /// relation's formula at its arguments — with the negated conclusion
    /// is unsatisfiable).
    pub fn check(&self, solution: &[Term], solver: &mut dyn Solver) -> Result<(), Refusal> {
        self.well_formed(solution)?;
        for (i, clause) in self.clauses.iter().enumerate() {
            let mut query = vec![clause.constraint.clone()];
            for body in &clause.body {
                query.push(self.instantiate(solution, body));
            }
            if let Some(head) = &clause.head {
                query.push(Term::not(&self.instantiate(solution, head)));
            }
            match solver.solve(&query) {
                Answer::Unsat => {}
                Answer::Sat(_) => return Err(Refusal::Violated { clause: i }),
                Answer::Unknown(reason) => return Err(Refusal::Undecided { clause: i, reason }),
            }
        }
        Ok(())
    }

    /// `Ok` if `solution` has one formula per relation, each over its
    /// relation's parameters only.
    pub(crate) fn well_formed(&self, solution: &[Term]) -> Result<(), Refusal> {
        if solution.len() != self.relations.len() {
            return Err(Refusal::Malformed(format!(
                "{} formulas for {} relations",
                solution.len(),
                self.relations.len()
            )));
        }
        for (rel, formula) in self.relations.iter().zip(solution) {
            if let Some(v) = formula.vars().iter().find(|v| !rel.params.contains(v)) {
                return Err(Refusal::Malformed(format!(
                    "the formula of {} speaks of {v}, not one of its parameters",
                    rel.name
                )));
            }
        }
        Ok(())
    }
}

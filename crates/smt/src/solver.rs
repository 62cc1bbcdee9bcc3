//! The solver interface. Every implementation decides the same formula:
//! the conjunction of the given constraints.

use crate::model::Model;
use crate::term::Term;

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

impl Answer {
    /// Is this `Sat`?
    pub fn is_sat(&self) -> bool {
        matches!(self, Answer::Sat(_))
    }
}

/// A decision procedure for conjunctions of boolean terms.
pub trait Solver {
    /// Decides whether the conjunction of `constraints` (boolean terms) is
    /// satisfiable; on `Sat` returns a model of it that assigns every
    /// variable occurring in it.
    fn solve(&mut self, constraints: &[Term]) -> Answer;
}

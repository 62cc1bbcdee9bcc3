//! Bounded model checking (seed 004, CBMC): every path of the program up
//! to a bound on loop iterations and recursion, in one formula.
//!
//! The one `Machine::step` runs with the [`Guarded`] policy, which takes
//! both sides of every decision under its condition without asking a
//! solver, on a [`crate::merge::MergeFrontier`] in pure topological
//! order that merges the states meeting at each join point into `ite`
//! values: the formula grows with the program, not with its number of
//! paths ([`explore`]). Error states are collected with their guards; a
//! path that would take a loop's back edge more than the bound allows is
//! cut and its guard kept (the *unwinding assertion*). Then
//! ([`decide`]) one query asks whether any error of the property is
//! reachable; a model is turned into an input and replayed on the
//! concrete interpreter like every other witness. No error: if no path
//! was cut, or (with unwinding assertions) no cut path is feasible, the
//! program is safe; otherwise the answer is "no bug up to the bound",
//! `unknown` with reason `unwind_bound`, and `unwind_max` tries the next
//! bound.

mod decide;
mod explore;

pub use crate::guarded::{Guard, Guarded};
pub use decide::bmc;

use wiser_ir::Pc;

/// The bounds of a bounded-model-checking run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bmc {
    /// How often a loop's back edge may be taken per entry into the loop,
    /// and how many activations beyond the first a procedure may have at
    /// once (recursion depth).
    pub unwind: u32,
    /// Bounds for particular loops, by the `pc` of their head.
    pub unwind_loops: Vec<(Pc, u32)>,
    /// Deepen the bound one by one, from `unwind` to this, until there is
    /// a verdict.
    pub unwind_max: Option<u32>,
    /// Ask whether the bound can be exceeded: if not, and no error is
    /// reachable, the program is safe.
    pub unwinding_assertions: bool,
}

impl Default for Bmc {
    /// Bound 1, no deepening, no unwinding assertions.
    fn default() -> Self {
        Bmc {
            unwind: 1,
            unwind_loops: Vec::new(),
            unwind_max: None,
            unwinding_assertions: false,
        }
    }
}

impl Bmc {
    /// The bound of the loop whose head is `head`, at global bound `k`
    /// (a per-loop bound stays fixed while `unwind_max` deepens the rest).
    pub fn bound_of(&self, head: Pc, k: u32) -> u32 {
        self.unwind_loops
            .iter()
            .find(|&&(h, _)| h == head)
            .map_or(k, |&(_, b)| b)
    }
}

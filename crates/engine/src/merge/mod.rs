//! State merging (seed 003's m-to-n transitions): two states at the same
//! point of the program, with the same call stack and the same number of
//! reads, become one whose values are `ite` terms over what each path
//! required and whose path condition is the disjunction of theirs.
//!
//! * [`state`]: when two states may merge, and the merge itself (values
//!   and arrays become `ite`s, the trail keeps the common decisions);
//! * [`JoinPath`]: what a policy's path type does in a merge: the path
//!   condition's disjunction for symbolic execution
//!   ([`crate::path::PathCond::join`]), the guards' for bounded model
//!   checking;
//! * [`frontier`]: a frontier that steps states in topological order of
//!   their position, so that both sides of an `if` arrive at its end
//!   before either goes on, and merges a state into a waiting one at the
//!   same place;
//! * [`auto`]: the merge that pays (query-count estimation, simplified).
//!
//! **A merge is exact**: the merged state stands for exactly the inputs
//! of the two it replaces, with their values. So the symbolic semantics
//! stays precise and exhaustive, and a witness drawn from a merged state's
//! model replays like any other.

pub(crate) mod auto;
pub(crate) mod frontier;
pub(crate) mod state;

pub use frontier::MergeFrontier;
pub use state::JoinPath;

/// When states are merged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MergeMode {
    /// Never: every path is a state of its own (WiSE's tree).
    #[default]
    None,
    /// Whenever two states meet at the same place (the end of an `if`, a
    /// loop exit), with the same call stack and number of reads.
    Joins,
    /// As `Joins`, but only when the merge pays: not when a value that
    /// differs is a constant on one side and later decides a branch (the
    /// merge would turn a branch that folds into one that forks and asks
    /// the solver: Kuznetsov et al., PLDI 2012, in spirit).
    Auto,
}

impl MergeMode {
    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            MergeMode::None => "none",
            MergeMode::Joins => "joins",
            MergeMode::Auto => "auto",
        }
    }
}

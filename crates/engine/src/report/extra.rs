//! What only one engine adds to a report ([`Extra`]), and the data of a
//! concolic run, a fuzzing session and a proof it holds (the engines of
//! `crate::concolic` and `crate::prove` make them; they live here, below
//! the engines, so that the one report can name them).

use super::branch_coverage::SessionCoverage;
#[cfg(doc)]
use super::{Incomplete, Report, Stats};
use crate::witness::Bug;
use std::sync::Arc;
use std::time::Duration;
use wiser_ir::{ErrorKind, Pc, Site, Span};
use wiser_semantics::{Bound, Input};
use wiser_smt::Term;

/// What one engine adds to a [`Report`]: the engine's name, typed.
#[derive(Clone, Debug)]
pub enum Extra {
    /// Symbolic execution (`wiser check`; named `check` in reports):
    /// nothing beyond the common fields.
    Symex,
    /// Bounded model checking: an `unknown` for want of a larger bound
    /// says [`Incomplete::UnwindBound`].
    Bmc {
        /// The last bound tried.
        bound: u32,
    },
    /// One concolic run and its flips. Its bug, if the run reached one,
    /// is also the report's one bug; an error that did not replay is its
    /// one internal error.
    Concolic(Box<ConcolicExtra>),
    /// A fuzzing session: its one stop reason is the report's only
    /// [`Incomplete`].
    Fuzz(Box<FuzzStats>),
    /// A proof attempt: for `safe`, the checked invariants.
    Prove(Box<ProveExtra>),
}

impl Extra {
    /// The engine's name in reports.
    pub fn engine(&self) -> &'static str {
        match self {
            Extra::Symex => "check",
            Extra::Bmc { .. } => "bmc",
            Extra::Concolic(_) => "concolic",
            Extra::Fuzz(_) => "fuzz",
            Extra::Prove(_) => "prove",
        }
    }
}

/// What a concolic run adds to its [`Report`].
#[derive(Clone, Debug)]
pub struct ConcolicExtra {
    /// The run (empty when its worker was abandoned: see
    /// [`Stats::abandoned_workers`]).
    pub run: ConcolicRun,
    /// One per decision of `run`, in order; fewer when a limit stopped
    /// the run first (the other decisions were not flipped).
    pub flips: Vec<Flip>,
}

/// What kind of decision a [`RunDecision`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    /// A conditional branch (`if`, `while`, a C `?:` or `&&` lowered to one).
    Branch,
    /// An assertion.
    Assertion,
    /// A runtime check (its condition is the fault condition).
    Check(ErrorKind),
    /// An assumption.
    Assume,
}

impl DecisionKind {
    /// A short name: `branch`, `assert`, `assume`, or the check's error kind.
    pub fn name(self) -> &'static str {
        match self {
            DecisionKind::Branch => "branch",
            DecisionKind::Assertion => "assert",
            DecisionKind::Assume => "assume",
            DecisionKind::Check(k) => k.name(),
        }
    }
}

/// One symbolic decision of a run (a decision whose condition was a
/// constant is not one: no input can change it).
#[derive(Clone, Debug)]
pub struct RunDecision {
    /// Where.
    pub site: Site,
    /// What.
    pub kind: DecisionKind,
    /// The source of the decision (the statement, or the checked operator).
    pub span: Span,
    /// The condition (for a check: the fault condition).
    pub cond: Term,
    /// Did the condition hold on this run (for a check: did it fault)?
    pub taken: bool,
}

impl RunDecision {
    /// The constraint the run's input satisfies here: the condition or
    /// its negation.
    pub fn as_taken(&self) -> Term {
        if self.taken {
            self.cond.clone()
        } else {
            Term::not(&self.cond)
        }
    }

    /// The constraint of the other side.
    pub fn other_side(&self) -> Term {
        if self.taken {
            Term::not(&self.cond)
        } else {
            self.cond.clone()
        }
    }
}

/// How a concolic run ended.
#[derive(Clone, Debug)]
pub enum RunOutcome {
    /// The program ended normally.
    Halted,
    /// A runtime error, replayed on the concrete interpreter: a bug.
    Bug(Box<Bug>),
    /// A runtime error whose input did not replay to it: an engine fault,
    /// reported, never a bug.
    Mismatch(String),
    /// An `assume` did not hold: the input is outside the program's domain.
    /// The failed assumption is the run's last decision.
    AssumeFailed {
        /// The `assume` statement.
        span: Span,
    },
    /// The path went past a bound of the search (the input heap's, the
    /// threads', the context switches'): the input is beyond what the
    /// search explores.
    Cut(Bound),
    /// The step limit was reached first.
    OutOfSteps,
    /// The run was stopped from outside (an interrupt or the time limit).
    Stopped,
}

/// The result of one concolic run.
#[derive(Clone, Debug)]
pub struct ConcolicRun {
    /// The input as run: the reads padded with 0 to the reads made, and
    /// every read a value of its type.
    pub input: Input,
    /// The symbolic decisions, in order.
    pub decisions: Vec<RunDecision>,
    /// The branch sides taken, as `(pc of the branch, side)`, in order,
    /// repeated when taken again.
    pub covered: Vec<(Pc, bool)>,
    /// How it ended.
    pub outcome: RunOutcome,
    /// Steps taken.
    pub steps: u64,
    /// Where each read was made (the `pc` of its `Havoc`).
    pub read_pcs: Vec<Pc>,
}

/// What flipping one decision gave.
#[derive(Clone, Debug)]
pub enum Flip {
    /// The other side is feasible; this input takes it.
    Input {
        /// The new input.
        input: Input,
        /// Found only with the variables outside the negated condition
        /// pinned to their current values (after a solver `unknown`).
        concretised: bool,
    },
    /// The other side is infeasible after the path's prefix.
    Infeasible,
    /// Undecided, even with the variables outside the negated condition
    /// pinned: no input (the child is dropped).
    Unknown(String),
}

/// What a fuzzing session adds to its [`Report`] (whose verdict is
/// `bug` if a bug was found, else `unknown`: fuzzing is not exhaustive, it
/// never says `safe`; whose bugs are each location once, in the order
/// found; and whose one [`Incomplete`] says why it ended:
/// [`Incomplete::WorkListEmpty`] (every generated input was run and
/// expanded), [`Incomplete::StoppedAtFirstBug`] (without `all_bugs`),
/// [`Incomplete::MaxRuns`], or a limit of the run layer).
#[derive(Clone, Debug)]
pub struct FuzzStats {
    /// Runs made.
    pub runs: u64,
    /// The run that found each bug of the report, in the report's order
    /// (the seed's run is 1).
    pub found_by: Vec<u64>,
    /// Branch coverage of all runs.
    pub coverage: SessionCoverage,
    /// Flip queries asked.
    pub flips: u64,
    /// Flips found infeasible.
    pub infeasible: u64,
    /// Children found only after concretisation.
    pub concretised: u64,
    /// Children dropped: undecided even after concretisation.
    pub dropped: u64,
    /// Runs that ended on a failed `assume`.
    pub assume_failed: u64,
    /// Runs that hit the step limit.
    pub out_of_steps: u64,
    /// Runs cut by a bound of the search (`--max-objects`,
    /// `--max-threads`, `--max-switches`).
    pub cut: u64,
}

/// An invariant of a proof: a formula over the program's variables that
/// holds whenever control is at `span`'s loop head (in the call context
/// of `routine`).
#[derive(Clone, Debug)]
pub struct Invariant {
    /// The loop head.
    pub span: Span,
    /// The routine the loop is in.
    pub routine: Arc<str>,
    /// The formula, over variables named as the program's (a called
    /// routine's as `routine::name`).
    pub formula: Term,
    /// For an invariant over arrays' cells: the index it holds for every
    /// value of (the formula speaks of each array `a` by its cell
    /// `a[k]`); `None` otherwise.
    pub for_every: Option<Term>,
}

/// What the prover adds to its report.
#[derive(Clone, Debug, Default)]
pub struct ProveExtra {
    /// For `safe`: the checked invariants, one per loop head (the
    /// entry's, always `true`, left out).
    pub invariants: Vec<Invariant>,
    /// Relations (cut points) and clauses of the encoding.
    pub relations: usize,
    /// Clauses of the encoding.
    pub clauses: usize,
    /// Time guessing and checking cheap invariants (Houdini).
    pub guess_time: Duration,
    /// Time in the Horn-clause solver.
    pub solve_time: Duration,
    /// Time checking the solution.
    pub check_time: Duration,
    /// For `unknown`: what stopped the proof, in words.
    pub reason: Option<String>,
    /// For `safe`: which method proved it.
    pub method: Option<ProofMethod>,
    /// For a proof by k-induction: its k.
    pub k: Option<usize>,
}

/// The method that proved a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofMethod {
    /// The cheap guessed facts alone (Houdini).
    Houdini,
    /// Spacer's invariants (with the facts).
    Spacer,
    /// k-induction, strengthened by the facts.
    KInduction,
}

impl ProofMethod {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            ProofMethod::Houdini => "houdini",
            ProofMethod::Spacer => "spacer",
            ProofMethod::KInduction => "k-induction",
        }
    }
}

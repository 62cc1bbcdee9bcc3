//! What a run found: the verdict, typed stop reasons, bugs and counters.

pub mod branch_coverage;
pub mod extra;

pub use crate::coverage::Coverage;
use crate::symbolic::BranchStats;
use crate::witness::Bug;
pub use extra::{
    ConcolicExtra, ConcolicRun, DecisionKind, Extra, Flip, FuzzStats, Invariant, ProofMethod,
    ProveExtra, RunOutcome,
};
use std::time::Duration;
use wiser_ir::{ErrorKind, Span};
use wiser_semantics::{Decision, Input};
use wiser_smt::{SolverStats, Term};

/// The answer of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// At least one bug, with a replayed witness.
    Bug,
    /// No bug on any path: the search was exhaustive.
    Safe,
    /// No bug found, but the search was not exhaustive (see `incomplete`).
    Unknown,
}

impl Verdict {
    /// The verdict of a search that found bugs (or not) and was
    /// incomplete for `incomplete`: a bug whenever one was found, `safe`
    /// only when nothing made the search incomplete.
    pub fn of(found_bugs: bool, incomplete: &[Incomplete]) -> Verdict {
        if found_bugs {
            Verdict::Bug
        } else if incomplete.is_empty() {
            Verdict::Safe
        } else {
            Verdict::Unknown
        }
    }

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Bug => "bug",
            Verdict::Safe => "safe",
            Verdict::Unknown => "unknown",
        }
    }
}

/// Why a run stopped, or why its search was not exhaustive: the one
/// enum of stop reasons of every engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Incomplete {
    /// The state limit was reached.
    MaxStates,
    /// The time limit was reached.
    Timeout,
    /// The solver answered unknown on some query.
    SolverUnknown,
    /// The run stopped at the first bug with states left to explore.
    StoppedAtFirstBug,
    /// The memory bound was reached.
    MaxMemory,
    /// The run was interrupted (Ctrl-C or a termination signal).
    Interrupted,
    /// A witness failed to replay (an engine fault).
    InternalError,
    /// An error of a kind outside the property was reachable (see
    /// [`Report::outside_property`]): the paths through it were not
    /// followed, so the run cannot say `safe`.
    OutsideProperty,
    /// Bounded model checking found no bug up to its bound, and paths go
    /// beyond it (or unwinding assertions were not asked for).
    UnwindBound,
    /// A path read more references from the input heap than
    /// `--max-objects` allows: larger input heaps were not explored.
    HeapBound,
    /// A path started more threads than `--max-threads` allows.
    ThreadBound,
    /// A path would have taken more preemptive context switches than
    /// `--max-switches` allows.
    SwitchBound,
    /// Fuzzing made as many runs as `--max-runs` allows.
    MaxRuns,
    /// Fuzzing ran every input it generated (its work list is empty):
    /// fuzzing does not cover every path, so it never says `safe`.
    WorkListEmpty,
    /// The program may commit errors of the property's kinds in ways its
    /// IR does not check ([`wiser_ir::Ir::unchecked`] says which and why).
    Unchecked,
    /// A path reached a place where the program's model stops deciding
    /// the property ([`wiser_ir::Ir::undecided`]: C's `exit` while
    /// objects `malloc` made are live, under `valid-memtrack`).
    UncheckedPlace,
    /// The prover found no invariant that proves the program (Spacer
    /// gave up or found a path to an error).
    NoInvariant,
    /// The prover does not encode something the program has (threads,
    /// objects, recursion).
    NotEncoded,
}

impl From<wiser_semantics::Bound> for Incomplete {
    fn from(b: wiser_semantics::Bound) -> Incomplete {
        match b {
            wiser_semantics::Bound::Heap => Incomplete::HeapBound,
            wiser_semantics::Bound::Threads => Incomplete::ThreadBound,
            wiser_semantics::Bound::Switches => Incomplete::SwitchBound,
        }
    }
}

impl Incomplete {
    /// Every reason, in declaration order.
    pub const ALL: [Incomplete; 18] = [
        Incomplete::MaxStates,
        Incomplete::Timeout,
        Incomplete::SolverUnknown,
        Incomplete::StoppedAtFirstBug,
        Incomplete::MaxMemory,
        Incomplete::Interrupted,
        Incomplete::InternalError,
        Incomplete::OutsideProperty,
        Incomplete::UnwindBound,
        Incomplete::HeapBound,
        Incomplete::ThreadBound,
        Incomplete::SwitchBound,
        Incomplete::MaxRuns,
        Incomplete::WorkListEmpty,
        Incomplete::Unchecked,
        Incomplete::UncheckedPlace,
        Incomplete::NoInvariant,
        Incomplete::NotEncoded,
    ];

    /// The reason named `name` ([`Incomplete::name`]).
    pub fn from_name(name: &str) -> Option<Incomplete> {
        Incomplete::ALL.into_iter().find(|i| i.name() == name)
    }

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Incomplete::MaxStates => "max_states",
            Incomplete::Timeout => "timeout",
            Incomplete::SolverUnknown => "solver_unknown",
            Incomplete::StoppedAtFirstBug => "stopped_at_first_bug",
            Incomplete::MaxMemory => "max_memory",
            Incomplete::Interrupted => "interrupted",
            Incomplete::InternalError => "internal_error",
            Incomplete::OutsideProperty => "outside_property",
            Incomplete::UnwindBound => "unwind_bound",
            Incomplete::HeapBound => "heap_bound",
            Incomplete::ThreadBound => "thread_bound",
            Incomplete::SwitchBound => "switch_bound",
            Incomplete::MaxRuns => "max_runs",
            Incomplete::WorkListEmpty => "work_list_empty",
            Incomplete::Unchecked => "unchecked",
            Incomplete::UncheckedPlace => "unchecked_place",
            Incomplete::NoInvariant => "no_invariant",
            Incomplete::NotEncoded => "not_encoded",
        }
    }
}

/// Counters of a run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// States taken from the frontier.
    pub states: u64,
    /// Largest frontier.
    pub max_frontier: usize,
    /// States merged into others (`--merge`).
    pub merges: u64,
    /// States not expanded because an equal state was (`visited.rs`):
    /// interleavings of threads that meet, and loops of a sequential
    /// program that come back to a state they were in.
    pub revisited: u64,
    /// How decisions were made.
    pub branches: BranchStats,
    /// What the solver chain did.
    pub solver: SolverStats,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Peak resident memory of the process, in bytes (0 if unknown).
    pub peak_memory: u64,
    /// Memory growth during the run divided by the largest frontier: an
    /// estimate of what one waiting state costs, shared structure included.
    /// `None` below a thousand waiting states, where fixed costs (Z3's own
    /// memory) swamp it.
    pub bytes_per_state: Option<u64>,
    /// Workers still busy in one step when the run had to end: their
    /// counters are missing, and the run ended without them.
    pub abandoned_workers: usize,
    /// Did the run pass half its memory bound, so that its search kept the
    /// frontier from growing from then on (breadth-first dove: its bug
    /// need not be the shortest)? See [`crate::run::MEMORY_PRESSURE_PERCENT`].
    pub memory_pressure: bool,
}

/// The result of a run of any engine: what every engine reports, and in
/// [`Report::extra`] what only one of them does.
#[derive(Clone, Debug)]
pub struct Report {
    /// The answer.
    pub verdict: Verdict,
    /// Confirmed bugs, by location.
    pub bugs: Vec<Bug>,
    /// Why the search was not exhaustive (empty iff it was).
    pub incomplete: Vec<Incomplete>,
    /// Engine faults (witnesses that did not replay).
    pub internal_errors: Vec<String>,
    /// Reachable errors whose kind is outside the property (undefined
    /// behaviour under `unreach-call`), one per kind and location, sorted
    /// by location; not confirmed by replay, since they are not bugs.
    pub outside_property: Vec<(ErrorKind, Span)>,
    /// The places where the model stops deciding ([`wiser_ir::Ir::undecided`])
    /// that a path reached, one per kind and location, sorted by
    /// location ([`Incomplete::UncheckedPlace`]).
    pub unchecked_places: Vec<(ErrorKind, Span)>,
    /// Counters.
    pub stats: Stats,
    /// Every ended or cut path, sorted by trail, when
    /// [`crate::Record::paths`] asked for them (else empty).
    pub paths: Vec<PathEnd>,
    /// Ended paths beyond [`crate::Record::max_paths`]: counted, not kept.
    pub paths_dropped: u64,
    /// What the run covered, when [`crate::Record::coverage`] asked.
    pub coverage: Option<Coverage>,
    /// What the engine that made the report adds to it.
    pub extra: Extra,
}

impl Report {
    /// A report with `verdict` and nothing found yet, for `extra`'s
    /// engine.
    pub fn empty(verdict: Verdict, extra: Extra) -> Report {
        Report {
            verdict,
            bugs: Vec::new(),
            incomplete: Vec::new(),
            internal_errors: Vec::new(),
            outside_property: Vec::new(),
            unchecked_places: Vec::new(),
            stats: Stats::default(),
            paths: Vec::new(),
            paths_dropped: 0,
            coverage: None,
            extra,
        }
    }

    /// The last bound tried, for a bounded model check.
    pub fn bmc_bound(&self) -> Option<u32> {
        match self.extra {
            Extra::Bmc { bound } => Some(bound),
            _ => None,
        }
    }

    /// The run and its flips, for a concolic run.
    pub fn concolic(&self) -> Option<&ConcolicExtra> {
        match &self.extra {
            Extra::Concolic(c) => Some(c),
            _ => None,
        }
    }

    /// The counters of a fuzzing session.
    pub fn fuzz(&self) -> Option<&FuzzStats> {
        match &self.extra {
            Extra::Fuzz(f) => Some(f),
            _ => None,
        }
    }
}

/// How a recorded path ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathEndKind {
    /// The program ended normally.
    Halted,
    /// A reachable error of a kind in the property (a bug).
    Error {
        /// What goes wrong.
        kind: ErrorKind,
        /// Where.
        span: Span,
    },
    /// The path was not followed to its end: it was left waiting when a
    /// limit stopped the run, or its end could not be decided (the solver
    /// answered unknown, or a replay failed: an engine fault).
    Cut(Incomplete),
    /// The state was merged into another (`--merge`): its path goes on in
    /// the merged state, whose trail keeps the decisions both share.
    Merged,
    /// A reachable error of a kind outside the property: not a bug, and
    /// its path ends here.
    OutsideProperty {
        /// What goes wrong.
        kind: ErrorKind,
        /// Where.
        span: Span,
    },
}

impl PathEndKind {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            PathEndKind::Halted => "halted",
            PathEndKind::Error { .. } => "error",
            PathEndKind::Cut(_) => "cut",
            PathEndKind::Merged => "merged",
            PathEndKind::OutsideProperty { .. } => "outside_property",
        }
    }

    /// A rank for a stable order of ends with the same trail.
    pub(crate) fn rank(self) -> u8 {
        match self {
            PathEndKind::Halted => 0,
            PathEndKind::Error { .. } => 1,
            PathEndKind::OutsideProperty { .. } => 2,
            PathEndKind::Cut(_) => 3,
            PathEndKind::Merged => 4,
        }
    }
}

/// One ended or cut path.
#[derive(Clone, Debug)]
pub struct PathEnd {
    /// The path's decisions, root first (only those whose condition was
    /// not a constant).
    pub trail: Vec<Decision<Term>>,
    /// How it ended.
    pub end: PathEndKind,
    /// Its path condition.
    pub path_condition: Vec<Term>,
    /// For a path that halted or stopped on an error: an input from a
    /// model of the path, replayed on the concrete interpreter to end the
    /// same way (same error, place and call stack; or halting after as
    /// many steps). `None` if the solver could not decide the path, and
    /// for cut and merged paths.
    pub input: Option<Input>,
}

#[cfg(test)]
mod tests {
    use super::Incomplete;

    #[test]
    fn every_reason_is_found_by_its_name() {
        for i in Incomplete::ALL {
            assert_eq!(Incomplete::from_name(i.name()), Some(i));
        }
        // `ALL` lists each reason once: as many distinct names as entries.
        let mut names: Vec<&str> = Incomplete::ALL.iter().map(|i| i.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Incomplete::ALL.len());
        assert_eq!(Incomplete::from_name("no_such_reason"), None);
    }
}

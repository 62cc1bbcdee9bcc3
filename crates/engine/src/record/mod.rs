//! What a run keeps besides its bugs, when asked ([`Record`]): every path
//! it ended or cut, with its decisions and an input that replays to the
//! same end (test generation, pictures of the symbolic execution tree),
//! and the coverage of the program (instructions reached, sides of
//! decisions taken).
//!
//! Nothing is kept by default: a run that records nothing pays one
//! untaken branch per expanded state and per decision.

use crate::report::Incomplete;
pub use crate::report::{Coverage, PathEnd, PathEndKind};
use crate::witness::{self, input_from_model, Replay, SymState};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use wiser_ir::Ir;
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::{Decision, Input, Options};
use wiser_smt::{Answer, Solver, Term};

/// What a run keeps besides its bugs. The default keeps nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Keep every ended or cut path ([`crate::Report::paths`]). Error
    /// paths are then each followed and confirmed, even at a location
    /// whose bug is already known (`--all` otherwise skips them).
    pub paths: bool,
    /// Keep the coverage ([`crate::Report::coverage`]).
    pub coverage: bool,
    /// Keep at most this many paths (0: [`DEFAULT_MAX_PATHS`]); the others
    /// are counted in [`crate::Report::paths_dropped`].
    pub max_paths: usize,
}

/// The number of paths kept when [`Record::max_paths`] is 0.
pub const DEFAULT_MAX_PATHS: usize = 100_000;

/// The most decisions kept in all the trails of a run's paths together
/// (about 24 bytes each): a deep loop's paths each repeat the decisions of
/// the shorter ones, so their trails grow with the square of the depth.
/// Paths beyond it are dropped (counted) like those beyond the cap.
pub const MAX_DECISIONS: usize = 8_000_000;

impl Record {
    /// Keeps nothing.
    pub fn nothing() -> Record {
        Record::default()
    }

    /// Does it keep anything?
    pub fn any(self) -> bool {
        self.paths || self.coverage
    }

    /// The cap on kept paths.
    pub fn cap(self) -> usize {
        if self.max_paths == 0 {
            DEFAULT_MAX_PATHS
        } else {
            self.max_paths
        }
    }
}

impl PathEnd {
    /// The path of `state`, ended as `end`.
    pub fn of(state: &SymState, end: PathEndKind, input: Option<Input>) -> PathEnd {
        let mut trail: Vec<Decision<Term>> = state.trail.iter().cloned().collect();
        trail.reverse();
        PathEnd {
            trail,
            end,
            path_condition: state.path.terms(),
            input,
        }
    }

    /// The order of paths: by the sites and sides of their trails, then
    /// by how they ended (compared in place: the trails of a deep loop's
    /// paths are long).
    fn order(&self, other: &PathEnd) -> std::cmp::Ordering {
        self.trail
            .iter()
            .map(|d| (d.site, d.taken))
            .cmp(other.trail.iter().map(|d| (d.site, d.taken)))
            .then(self.end.rank().cmp(&other.end.rank()))
    }
}

/// Sorts paths by their trails (a depth-first order of the tree): the
/// order of a report, whatever the number of workers.
pub fn sort_paths(paths: &mut [PathEnd]) {
    paths.sort_by(PathEnd::order);
}

/// What one expander recorded (see [`crate::Expander::with_record`]).
#[derive(Debug, Default)]
pub struct Recorded {
    /// Ended paths, in the order they ended.
    pub paths: Vec<PathEnd>,
    /// Ended paths beyond the cap.
    pub dropped: u64,
    /// Engine faults: inputs of normally ended paths that did not replay.
    pub mismatches: Vec<String>,
}

/// What the paths of one run may take, shared by its workers: at most
/// `cap` paths, with at most [`MAX_DECISIONS`] decisions in all.
pub(crate) struct Budget {
    paths: AtomicUsize,
    decisions: AtomicUsize,
    cap: usize,
}

impl Budget {
    pub fn new(record: Record) -> Budget {
        Budget {
            paths: AtomicUsize::new(0),
            decisions: AtomicUsize::new(0),
            cap: record.cap(),
        }
    }

    /// May a path with a trail of `len` decisions be kept?
    pub fn admit(&self, len: usize) -> bool {
        if self.paths.fetch_add(1, Ordering::Relaxed) >= self.cap {
            return false;
        }
        if self.decisions.fetch_add(len, Ordering::Relaxed) + len > MAX_DECISIONS {
            self.decisions.fetch_sub(len, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// How many more paths may be kept.
    pub fn room(&self) -> usize {
        self.cap.saturating_sub(self.paths.load(Ordering::Relaxed))
    }
}

/// Keeps ended paths, within a budget shared by the workers of a run.
pub(crate) struct Recorder {
    budget: Arc<Budget>,
    pub recorded: Recorded,
}

impl Recorder {
    pub fn new(budget: Arc<Budget>) -> Recorder {
        Recorder {
            budget,
            recorded: Recorded::default(),
        }
    }

    /// May the path of `state` be kept? Counts it as dropped if not.
    pub fn admit(&mut self, state: &SymState) -> bool {
        let ok = self.budget.admit(state.trail.len());
        if !ok {
            self.recorded.dropped += 1;
        }
        ok
    }

    pub fn push(&mut self, path: PathEnd) {
        self.recorded.paths.push(path);
    }
}

/// The end of an error path, from its confirmation: the error with the
/// replayed input, or a cut if it could not be confirmed; `None` for a
/// path that turned out infeasible (not a path).
pub(crate) fn error_end(replay: &Replay, outside: bool) -> Option<(PathEndKind, Option<Input>)> {
    match replay {
        Replay::Confirmed(bug) => {
            let (kind, span) = (bug.kind, bug.span);
            let end = if outside {
                PathEndKind::OutsideProperty { kind, span }
            } else {
                PathEndKind::Error { kind, span }
            };
            Some((end, Some(bug.input.clone())))
        }
        Replay::Infeasible => None,
        Replay::Undecided => Some((PathEndKind::Cut(Incomplete::SolverUnknown), None)),
        Replay::Mismatch(_) => Some((PathEndKind::Cut(Incomplete::InternalError), None)),
    }
}

/// An input that makes the program end normally along the path of the
/// final state `state`, replayed on the concrete interpreter (which must
/// halt after as many steps as the path took): `Ok(None)` when the solver
/// cannot decide the path, `Err(None)` when the path is infeasible (only
/// after a solver `unknown`), `Err(Some(msg))` when the input does not
/// replay (an engine fault).
pub(crate) fn halting_input<S: Solver + ?Sized>(
    ir: &Ir,
    state: &SymState,
    solver: &mut S,
    options: Options,
) -> Result<Option<Input>, Option<String>> {
    let model = match state.path.effective_model() {
        Some(m) => m,
        None => match solver.solve(&state.path.terms()) {
            Answer::Sat(m) => m,
            Answer::Unsat => return Err(None),
            Answer::Unknown(_) => return Ok(None),
        },
    };
    let mut input = input_from_model(ir, &model, state.reads);
    input.schedule = state.schedule();
    let run = concrete::run_with(ir, &input, state.steps + 1, options);
    // Reads come from the model as bit patterns: show them as values of
    // their types, as `witness::replay` does.
    for (v, ty) in input.reads.iter_mut().zip(&run.read_types) {
        *v = ty.wrap(v);
    }
    if run.outcome == Outcome::Halted && run.steps == state.steps {
        Ok(Some(input))
    } else {
        Err(Some(format!(
            "internal error: the input {input:?} of a path that ends normally after {} steps \
             replays as {:?} after {} steps",
            state.steps, run.outcome, run.steps
        )))
    }
}

/// Confirms an error state for the record (see [`witness::confirm`]).
pub(crate) fn confirm<S: Solver + ?Sized>(
    ir: &Ir,
    state: &SymState,
    solver: &mut S,
    options: Options,
) -> Replay {
    witness::confirm(ir, state, solver, state.steps + 1, options)
}

#[cfg(test)]
mod tests;

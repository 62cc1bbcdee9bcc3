//! The one expansion step every driver uses: take a state, and either
//! confirm the bug it is stuck on (find a witness, replay it), report an
//! error outside the property (not a bug: its path just ends), report that
//! its path ended normally, or step it and hand its successors on.
//!
//! WiSE's [`crate::Explorer`] iterator and the parallel workers of
//! [`crate::symex`] differ only in where states wait and how results are
//! collected; what happens to one state is written here once.

use crate::config::Property;
use crate::path::PathCond;
use crate::record::{self, Budget, PathEnd, PathEndKind, Record, Recorded, Recorder};
use crate::symbolic::{Feasible, Symbolic};
use crate::witness::{self, Bug, Replay, SymState};
use std::sync::Arc;
use wiser_ir::{ErrorKind, Instr, Ir, Span};
use wiser_semantics::{Machine, Options, Policy, State};
use wiser_smt::Solver;

/// What expanding one state produced.
pub enum Expansion {
    /// The state was stepped; its successors (possibly none: an `assume`
    /// that cannot hold) were handed on.
    Stepped,
    /// The program ended normally on this path.
    Final(Box<SymState>),
    /// A reachable error, with an input that was replayed and reaches it.
    Bug(Box<Bug>),
    /// An error state whose path is infeasible after all (possible only
    /// after a solver `unknown`).
    Infeasible,
    /// An error state whose reachability could not be decided (the solver
    /// answered unknown).
    Undecided,
    /// An engine fault: a witness did not replay. Reported, never hidden.
    Internal(String),
    /// An error already confirmed on another path (with the same kind,
    /// place and call stack), not confirmed again.
    Known,
    /// A reachable error of a kind outside the property: not a bug, and
    /// not confirmed; its path ends here, and the run cannot be `safe`.
    OutsideProperty(ErrorKind, Span),
    /// A reachable place where the model stops deciding the property
    /// ([`wiser_ir::Ir::undecided`]): not a bug; its path ends here, and
    /// the run cannot be `safe`.
    UncheckedPlace(ErrorKind, Span),
    /// The path went past a bound of the search (input heap, threads,
    /// context switches): it ends here, and the run cannot be `safe`.
    Bounded(crate::Incomplete),
    /// A state equal to one expanded before (of a concurrent program:
    /// another interleaving reached it; of a sequential one: a loop came
    /// back to a state it was in, see `visited.rs`): not expanded again.
    Revisited,
}

/// A machine, the symbolic algebra and a symbolic policy: all one worker
/// needs to expand states of one program.
pub struct Expander<'ir, S: Solver> {
    machine: Machine<'ir, Symbolic>,
    alg: Symbolic,
    policy: Feasible<S>,
    property: Property,
    /// Ended paths, when asked for.
    recorder: Option<Box<Recorder>>,
    /// States expanded so far (see `visited.rs`); `None` for an expander
    /// that replays paths.
    visited: Option<Arc<crate::Visited>>,
}

impl<'ir, S: Solver> Expander<'ir, S> {
    /// An expander of `ir` deciding with `policy`, under `options`.
    pub fn new(ir: &'ir Ir, policy: Feasible<S>, options: Options) -> Self {
        Self::sharing(ir, policy, options, Arc::new(crate::Visited::new(ir)))
    }

    /// Like [`Expander::new`], sharing the set of expanded states with
    /// other expanders (the workers of one run).
    pub fn sharing(
        ir: &'ir Ir,
        policy: Feasible<S>,
        options: Options,
        visited: Arc<crate::Visited>,
    ) -> Self {
        Expander {
            machine: Machine::with_options(ir, options),
            alg: Symbolic::new(),
            policy,
            property: Property::all(),
            recorder: None,
            visited: Some(visited),
        }
    }

    /// Expands every state, however many times it is met: for replaying
    /// paths one after another, which share their beginnings (a state
    /// met again there is the same path's, not another's); and for an
    /// explorer that reports every path's final state.
    pub(crate) fn without_matching(mut self) -> Self {
        self.visited = None;
        self
    }

    /// Records what `record` asks for: the coverage (in the policy), and
    /// every path that ends here (see [`Expander::take_recorded`]), up to
    /// `record`'s cap on paths.
    pub fn with_record(self, record: Record) -> Self {
        self.with_shared_record(record, Arc::new(Budget::new(record)))
    }

    /// Like [`Expander::with_record`], with a count of kept paths shared
    /// with other expanders (the workers of one run), so that the cap
    /// holds for the whole run.
    pub(crate) fn with_shared_record(mut self, record: Record, budget: Arc<Budget>) -> Self {
        if record.coverage && self.policy.coverage.is_none() {
            let ir = self.machine.ir();
            self.policy = self.policy.with_coverage(ir);
        }
        if record.paths {
            self.policy = self.policy.with_trails(true);
            self.recorder = Some(Box::new(Recorder::new(budget)));
        }
        self
    }

    /// The paths recorded so far (taken: the expander starts afresh).
    pub fn take_recorded(&mut self) -> Recorded {
        self.recorder
            .as_mut()
            .map(|r| std::mem::take(&mut r.recorded))
            .unwrap_or_default()
    }

    /// Records `state`'s path as cut for `why` (a state left waiting when
    /// the run stopped), if paths are recorded.
    pub fn record_cut(&mut self, state: &SymState, why: crate::Incomplete) {
        self.record_end(state, PathEndKind::Cut(why), None);
    }

    fn record_end(
        &mut self,
        state: &SymState,
        end: PathEndKind,
        input: Option<wiser_semantics::Input>,
    ) {
        if let Some(r) = &mut self.recorder {
            if r.admit(state) {
                r.push(PathEnd::of(state, end, input));
            }
        }
    }

    /// Records an error state's path; `outside`: its kind is outside the
    /// property.
    fn record_error(&mut self, state: &SymState, replay: &Replay, outside: bool) {
        if let Some((end, input)) = record::error_end(replay, outside) {
            self.record_end(state, end, input);
        }
    }

    /// Records a normally ended path with an input that replays to its end.
    fn record_halt(&mut self, state: &SymState) {
        if !self.recorder.as_mut().is_some_and(|r| r.admit(state)) {
            return;
        }
        let ir = self.machine.ir();
        let options = self.machine.options();
        let (end, input) = match record::halting_input(ir, state, self.policy.solver(), options) {
            Ok(input) => (PathEndKind::Halted, input),
            // Infeasible after all: not a path.
            Err(None) => return,
            Err(Some(msg)) => {
                if let Some(r) = &mut self.recorder {
                    r.recorded.mismatches.push(msg);
                }
                (PathEndKind::Cut(crate::Incomplete::InternalError), None)
            }
        };
        if let Some(r) = &mut self.recorder {
            r.push(PathEnd::of(state, end, input));
        }
    }

    /// Only errors of the kinds in `property` are bugs.
    pub fn with_property(mut self, property: Property) -> Self {
        self.property = property;
        self
    }

    /// The program's initial state.
    pub fn initial(&mut self) -> SymState {
        State::initial(self.machine.ir(), &mut self.alg, PathCond::new())
    }

    /// The policy (for its counters and solver).
    pub fn policy(&mut self) -> &mut Feasible<S> {
        &mut self.policy
    }

    /// Expands `state`, pushing its successors onto `out`.
    pub fn expand(&mut self, state: SymState, out: &mut Vec<SymState>) -> Expansion {
        let ir = self.machine.ir();
        if let Some(c) = &mut self.policy.coverage {
            c.reach(state.pc);
        }
        if let Some((kind, span)) = state.error() {
            if ir.undecided_at(kind, span).is_some() {
                // Where the model stops deciding: no bug. Outside the
                // property the path ends here (as the `exit` it marks);
                // inside, the run cannot be `safe`.
                if !self.property.contains(kind) {
                    return Expansion::Infeasible;
                }
                if state.path.unknown {
                    let why = crate::Incomplete::SolverUnknown;
                    self.record_end(&state, PathEndKind::Cut(why), None);
                    return Expansion::Undecided;
                }
                let why = crate::Incomplete::UncheckedPlace;
                self.record_end(&state, PathEndKind::Cut(why), None);
                return Expansion::UncheckedPlace(kind, span);
            }
            if !self.property.contains(kind) && kind.is_terminal() {
                // Found after the program ended: outside the property,
                // the path simply ended (on its other side of the check).
                return Expansion::Infeasible;
            }
            if !self.property.contains(kind) {
                // Not a bug, so no witness: the policy found the error side
                // feasible, unless a solver `unknown` on the way leaves
                // that open.
                if state.path.unknown {
                    self.record_end(
                        &state,
                        PathEndKind::Cut(crate::Incomplete::SolverUnknown),
                        None,
                    );
                    return Expansion::Undecided;
                }
                if self.recorder.is_some() {
                    // A recorded path gets an input all the same.
                    let options = self.machine.options();
                    let replay = record::confirm(ir, &state, self.policy.solver(), options);
                    self.record_error(&state, &replay, true);
                }
                return Expansion::OutsideProperty(kind, span);
            }
            let path = || state.path.terms();
            if self.policy.is_known(
                kind,
                span,
                &|| state.call_stack(ir),
                state.steps,
                Some(&path),
            ) {
                return Expansion::Known;
            }
            // A path replays in exactly as many steps as led to it.
            let max_steps = state.steps + 1;
            let options = self.machine.options();
            let replay = witness::confirm(ir, &state, self.policy.solver(), max_steps, options);
            if self.recorder.is_some() {
                self.record_error(&state, &replay, false);
            }
            return match replay {
                Replay::Confirmed(mut bug) => {
                    // The symbolic path's length, which the search orders
                    // by (the replay's may count differently).
                    bug.steps = state.steps;
                    if self.policy.records_trail() {
                        bug.prefix = Some(crate::Prefix::of(&state));
                    }
                    Expansion::Bug(bug)
                }
                Replay::Infeasible => Expansion::Infeasible,
                Replay::Undecided => Expansion::Undecided,
                Replay::Mismatch(msg) => Expansion::Internal(msg),
            };
        }
        if let Some(bound) = state.bounded() {
            let why = crate::Incomplete::from(bound);
            self.record_end(&state, PathEndKind::Cut(why), None);
            return Expansion::Bounded(why);
        }
        if state.is_final(ir) {
            if self.recorder.is_some() {
                self.record_halt(&state);
            }
            return Expansion::Final(Box::new(state));
        }
        if let Some(visited) = &self.visited {
            let bounded = self.machine.options().max_switches.is_some();
            if !visited.insert(&state, bounded) {
                return Expansion::Revisited;
            }
        }
        let first = out.len();
        self.machine
            .step(&mut self.alg, &mut self.policy, state, out);
        self.step_into_failures(first, out);
        Expansion::Stepped
    }

    /// Steps at once each new successor (from `out[first..]`) whose next
    /// instruction is `fail`, and hands on the error state instead, last:
    /// a depth-first search then confirms the bug next, rather than after
    /// the whole subtree of its sibling (an assertion checked in a loop of
    /// a million iterations forks a failing side at each). One step more
    /// on a path that ends there changes nothing else. Sequential programs
    /// only: in a threaded one the next step may be another thread's.
    fn step_into_failures(&mut self, first: usize, out: &mut Vec<SymState>) {
        let ir = self.machine.ir();
        if ir.threaded {
            return;
        }
        let at_fail = |s: &SymState| {
            s.error().is_none()
                && s.bounded().is_none()
                && matches!(
                    ir.code.get(s.pc as usize).map(|l| &l.instr),
                    Some(Instr::Fail)
                )
        };
        let mut i = first;
        let mut end = out.len();
        while i < end {
            if at_fail(&out[i]) {
                let s = out.remove(i);
                end -= 1;
                if let Some(c) = &mut self.policy.coverage {
                    c.reach(s.pc);
                }
                self.machine.step(&mut self.alg, &mut self.policy, s, out);
            } else {
                i += 1;
            }
        }
    }
}

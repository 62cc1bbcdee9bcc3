//! Unrolling: every path up to the bound, merged at join points.

use super::Bmc;
use crate::frontier::Frontier;
use crate::guarded::{Guard, Guarded};
use crate::merge::{MergeFrontier, MergeMode};
use crate::report::Incomplete;
use crate::symbolic::Symbolic;
use std::sync::Arc;
use wiser_ir::{Cfg, ErrorKind, Ir, Span};
use wiser_semantics::{CallSite, Machine, Options, State, Status};
use wiser_smt::Term;

/// An error state: where, with which call stack and reads, and under
/// which guard (as one formula, made once).
pub(super) struct ErrorPath {
    pub kind: ErrorKind,
    pub span: Span,
    pub stack: Vec<CallSite>,
    pub reads: u32,
    /// The path's schedule (threads are never merged: one path per error).
    pub schedule: Vec<wiser_semantics::Switch>,
    pub guard: Guard,
    pub formula: Term,
}

/// What unrolling to one bound found.
#[derive(Default)]
pub(super) struct Unrolled {
    /// Error states, in the order they were reached.
    pub errors: Vec<ErrorPath>,
    /// Guards of the paths cut at the bound.
    pub cut: Vec<Guard>,
    /// Guards of the paths cut by a bound of the search (the input
    /// heap's, threads', switches'), with the bound.
    pub bounded: Vec<(Incomplete, Guard)>,
    /// States stepped.
    pub states: u64,
    /// Merges made.
    pub merges: u64,
    /// The most steps of any path (a replay's budget).
    pub max_steps: u64,
    /// Why unrolling stopped early, if it did.
    pub stopped: Option<Incomplete>,
}

/// Unrolls `ir` to bound `k`; `stop` says when the run must end.
pub(super) fn unroll(
    ir: &Arc<Ir>,
    cfg: &Arc<Cfg>,
    bmc: &Bmc,
    k: u32,
    options: Options,
    stop: &dyn Fn() -> Option<Incomplete>,
) -> Unrolled {
    let mut frontier = MergeFrontier::<Guard>::new(ir.clone(), cfg.clone(), MergeMode::Joins, 0);
    let mut machine = Machine::with_options(ir, options);
    let mut alg = Symbolic::new();
    let mut policy = Guarded;
    let mut out = Vec::with_capacity(4);
    let mut found = Unrolled::default();
    frontier.push(State::initial(ir, &mut alg, Guard::new()), false);
    while let Some(state) = frontier.pop() {
        found.states += 1;
        // One atomic load: the run layer's watcher does the looking.
        if let Some(why) = stop() {
            found.stopped = Some(why);
            break;
        }
        found.max_steps = found.max_steps.max(state.steps);
        if let Status::Error { kind, span } = state.status {
            found.errors.push(ErrorPath {
                kind,
                span,
                stack: state.call_stack(ir),
                reads: state.reads,
                schedule: state.schedule(),
                formula: state.path.formula(),
                guard: state.path,
            });
            continue;
        }
        if let Some(bound) = state.bounded() {
            found.bounded.push((Incomplete::from(bound), state.path));
            continue;
        }
        let (from, depth) = (state.pc, state.callers.len());
        machine.step(&mut alg, &mut policy, state, &mut out);
        for mut s in out.drain(..) {
            if s.status == Status::Running {
                let now = s.callers.len();
                if now == depth && cfg.is_back_edge(from, s.pc) {
                    if s.path.unwind(depth, s.pc) > bmc.bound_of(s.pc, k) {
                        found.cut.push(s.path);
                        continue;
                    }
                } else if now > depth {
                    let proc = s.frame.proc;
                    let active = 1 + s.callers.iter().filter(|f| f.proc == proc).count();
                    if active as u64 > u64::from(k) + 1 {
                        found.cut.push(s.path);
                        continue;
                    }
                } else if now < depth {
                    s.path.leave_frames_above(now);
                }
            }
            frontier.push(s, true);
        }
    }
    found.merges = frontier.merges();
    found
}

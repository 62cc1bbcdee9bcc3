//! One concolic run: the program on one input, through the one
//! `Machine::step` over the symbolic algebra with the [`FollowInput`]
//! policy, giving the path's symbolic decisions, the branch sides it
//! covered and how it ended. An error is a bug only after the input
//! replays to it on the concrete interpreter ([`witness::replay`]).

use super::policy::FollowInput;
use crate::report::extra::RunDecision;
use crate::report::{ConcolicRun, DecisionKind, RunOutcome};
use crate::symbolic::Symbolic;
use crate::witness::{self, Expected, Replay};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use wiser_ir::{Instr, Ir, ScalarTy, Site};
use wiser_num::Int;
use wiser_semantics::{Input, Machine, Options, State};
use wiser_smt::Term;

/// The kind of decision at `site`.
pub fn decision_kind(ir: &Ir, site: Site) -> DecisionKind {
    let loc = ir.at(site.pc);
    match (site.check, &loc.instr) {
        (Some(k), _) => loc
            .checks
            .get(usize::from(k))
            .map_or(DecisionKind::Branch, |c| DecisionKind::Check(c.kind)),
        (None, Instr::Assert { .. }) => DecisionKind::Assertion,
        (None, Instr::Assume { .. }) => DecisionKind::Assume,
        (None, _) => DecisionKind::Branch,
    }
}

fn decision(ir: &Ir, site: Site, cond: Term, taken: bool) -> RunDecision {
    RunDecision {
        site,
        kind: decision_kind(ir, site),
        span: ir.site_span(site),
        cond,
        taken,
    }
}

/// How often a run looks at its stop switch, in steps.
const POLL: u64 = 4096;

/// Runs `ir` on `input` for at most `max_steps` steps under `options`,
/// collecting the symbolic path; stops early when `stop` is set.
pub fn run(
    ir: &Ir,
    input: &Input,
    options: Options,
    max_steps: u64,
    stop: Option<&AtomicBool>,
) -> ConcolicRun {
    let model = Arc::new(witness::input_to_model(ir, input));
    let mut alg = Symbolic::new();
    let mut pol = FollowInput::new(model);
    let mut machine = Machine::with_options(ir, options);
    let mut state: State<Symbolic, ()> = State::initial(ir, &mut alg, ());
    let mut out = Vec::with_capacity(2);
    let mut covered = Vec::new();
    let (mut read_types, mut read_pcs) = (Vec::new(), Vec::new());
    let mut failed_assume = None;
    let mut steps = 0u64;
    let (ended, last) = loop {
        if state.error().is_some() || state.is_final(ir) {
            break (None, Some(state));
        }
        if let Some(bound) = state.bounded() {
            break (Some(RunOutcome::Cut(bound)), Some(state));
        }
        if steps >= max_steps {
            break (Some(RunOutcome::OutOfSteps), Some(state));
        }
        if steps.is_multiple_of(POLL) && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            break (Some(RunOutcome::Stopped), Some(state));
        }
        let pc = state.pc;
        let loc = ir.at(pc);
        if let Instr::Havoc { ty, .. } = loc.instr {
            read_types.push(ty);
            read_pcs.push(pc);
        }
        // Only an `assume` ends a path without a successor; its trail is
        // kept (a reference count) to report the path up to it.
        let before = matches!(loc.instr, Instr::Assume { .. }).then(|| state.trail.clone());
        pol.last = None;
        machine.step(&mut alg, &mut pol, state, &mut out);
        steps += 1;
        let Some(next) = out.pop() else {
            let trail = before.unwrap_or_default();
            let failed = pol
                .last
                .take()
                .map(|a| decision(ir, a.site, a.cond, a.holds));
            failed_assume = Some((trail, failed));
            break (Some(RunOutcome::AssumeFailed { span: loc.span }), None);
        };
        out.clear();
        if let (
            Instr::Branch {
                then_to, else_to, ..
            },
            true,
        ) = (&loc.instr, next.error().is_none())
        {
            if then_to == else_to {
                covered.extend([(pc, true), (pc, false)]);
            } else {
                covered.push((pc, next.pc == *then_to));
            }
        }
        state = next;
    };
    let trail = match (&failed_assume, &last) {
        (Some((t, _)), _) => t.clone(),
        (None, Some(s)) => s.trail.clone(),
        (None, None) => Default::default(),
    };
    let mut decisions: Vec<RunDecision> = trail
        .iter()
        .map(|d| decision(ir, d.site, d.cond.clone(), d.taken))
        .collect();
    decisions.reverse();
    if let Some((_, Some(failed))) = failed_assume {
        decisions.push(failed);
    }
    let input = as_run(input, &read_types);
    let outcome = match (ended, last) {
        (Some(o), _) => o,
        (None, None) => RunOutcome::Halted,
        (None, Some(state)) => match state.error() {
            None => RunOutcome::Halted,
            // Where the model stops deciding (`Ir::undecided`): the run
            // ends there, as the `exit` it marks does (a failed `assume`);
            // no bug.
            Some((kind, span)) if ir.undecided_at(kind, span).is_some() => {
                RunOutcome::AssumeFailed { span }
            }
            Some((kind, span)) => {
                let expected = Expected {
                    kind,
                    span,
                    stack: state.call_stack(ir),
                    path_condition: decisions.iter().map(RunDecision::as_taken).collect(),
                };
                // A path replays in exactly as many steps as led to it.
                match witness::replay(ir, input.clone(), expected, state.steps + 1, options) {
                    Replay::Confirmed(bug) => RunOutcome::Bug(bug),
                    Replay::Mismatch(m) => RunOutcome::Mismatch(m),
                    // `replay` answers only the two above.
                    Replay::Infeasible | Replay::Undecided => {
                        RunOutcome::Mismatch("internal error: a replay without a verdict".into())
                    }
                }
            }
        },
    };
    ConcolicRun {
        input,
        decisions,
        covered,
        outcome,
        steps,
        read_pcs,
    }
}

/// `input` as the run read it: one value per read made (a missing read is
/// 0), each a value of its type.
fn as_run(input: &Input, read_types: &[ScalarTy]) -> Input {
    let mut input = input.clone();
    if input.reads.len() < read_types.len() {
        input.reads.resize(read_types.len(), Int::ZERO);
    }
    for (v, ty) in input.reads.iter_mut().zip(read_types) {
        *v = ty.wrap(v);
    }
    input
}

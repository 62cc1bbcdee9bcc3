//! Witnesses: concrete inputs that reach a bug, checked by replay.
//!
//! No bug is reported before its witness replays: the input is run on the
//! concrete interpreter (the same semantics over the concrete domain), and
//! the run must stop on the same kind of error, at the same place, with the
//! same call stack. Anything else is an engine fault, reported as such.

use crate::symbolic::{read_symbol, Symbolic};
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::{ArrayInput, CallSite, ErrorKind, Input, Ir, State};
use wiser_smt::{Answer, Model, Solver, Term};
use wiser_syntax::Span;

/// A confirmed bug.
#[derive(Clone, Debug)]
pub struct Bug {
    /// What goes wrong.
    pub kind: ErrorKind,
    /// Where.
    pub span: Span,
    /// The call stack at the error, innermost first.
    pub stack: Vec<CallSite>,
    /// An input that triggers it (replayed).
    pub input: Input,
    /// The path condition of the path that reaches it.
    pub path_condition: Vec<Term>,
}

/// The outcome of confirming an error state.
pub enum Replay {
    /// The witness replayed.
    Confirmed(Box<Bug>),
    /// The state's path turned out infeasible (possible only on paths kept
    /// after a solver `unknown`).
    Infeasible,
    /// No witness could be found: the solver answered unknown.
    Undecided,
    /// The witness did not reproduce the error: an engine fault.
    Mismatch(String),
}

/// Finds a witness for an error state and replays it.
pub fn confirm<S: Solver>(
    ir: &Ir,
    state: &State<Symbolic<S>>,
    solver: &mut S,
    max_steps: u64,
) -> Replay {
    let (kind, span) = state.error().expect("an error state");
    let model = match state.path.effective_model() {
        Some(m) => m,
        None => match solver.solve(&state.path.terms()) {
            Answer::Sat(m) => m,
            Answer::Unsat => return Replay::Infeasible,
            Answer::Unknown(_) => return Replay::Undecided,
        },
    };
    let input = input_from_model(ir, &model, state.reads);
    let stack = state.call_stack(ir);
    let run = concrete::run(ir, &input, max_steps);
    match run.outcome {
        Outcome::Error {
            kind: k,
            span: s,
            stack: st,
        } if k == kind && s == span && st == stack => Replay::Confirmed(Box::new(Bug {
            kind,
            span,
            stack,
            input,
            path_condition: state.path.terms(),
        })),
        other => Replay::Mismatch(format!(
            "internal error: the witness {input:?} for a {} at bytes {}..{} replays as {other:?}",
            kind.name(),
            span.lo,
            span.hi
        )),
    }
}

/// The program input that a model describes.
pub fn input_from_model(ir: &Ir, model: &Model, reads: u32) -> Input {
    Input {
        vars: ir
            .inputs
            .iter()
            .map(|(_, name)| (name.clone(), model.int(name)))
            .collect(),
        reads: (0..reads).map(|k| model.int(&read_symbol(k))).collect(),
        arrays: ir
            .arrays
            .iter()
            .filter_map(|name| {
                let a = model.array(name)?;
                Some((
                    name.clone(),
                    ArrayInput {
                        default: a.default.clone(),
                        entries: a
                            .entries
                            .iter()
                            .map(|(i, v)| (i.clone(), v.clone()))
                            .collect(),
                    },
                ))
            })
            .collect(),
    }
}

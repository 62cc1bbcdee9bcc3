//! Witnesses: concrete inputs that reach a bug, checked by replay.
//!
//! No bug is reported before its witness replays: the input is run on the
//! concrete interpreter (the same semantics over the concrete algebra,
//! with the same options), and the run must stop on the same kind of
//! error, at the same place, with the same call stack. Anything else is an
//! engine fault, reported as such.

use crate::path::PathCond;
use crate::symbolic::{read_symbol, Symbolic};
use wiser_ir::{ArrayTy, Ir, Pc, ScalarTy, Span};
use wiser_num::Int;
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::{ArrayInput, CallSite, ErrorKind, Input, Options, State};
use wiser_smt::{Answer, Model, Solver, Term};

/// A confirmed bug.
#[derive(Clone, Debug)]
pub struct Bug {
    /// What goes wrong.
    pub kind: ErrorKind,
    /// Where.
    pub span: Span,
    /// The call stack at the error, innermost first.
    pub stack: Vec<CallSite>,
    /// An input that triggers it (replayed): values of the inputs' types.
    pub input: Input,
    /// The path condition of the path that reaches it.
    pub path_condition: Vec<Term>,
    /// Where the replay made each read of `input.reads`: the `pc` of its
    /// `Havoc` (for C, the span of a `__VERIFIER_nondet_*` call or of an
    /// uninitialised local).
    pub read_pcs: Vec<Pc>,
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

/// A symbolic state.
pub type SymState = State<Symbolic, PathCond>;

/// Finds a witness for an error state and replays it with `options`.
pub fn confirm<S: Solver + ?Sized>(
    ir: &Ir,
    state: &SymState,
    solver: &mut S,
    max_steps: u64,
    options: Options,
) -> Replay {
    let Some((kind, span)) = state.error() else {
        return Replay::Mismatch("internal error: confirming a state with no error".into());
    };
    let model = match state.path.effective_model() {
        Some(m) => m,
        None => match solver.solve(&state.path.terms()) {
            Answer::Sat(m) => m,
            Answer::Unsat => return Replay::Infeasible,
            Answer::Unknown(_) => return Replay::Undecided,
        },
    };
    let mut input = input_from_model(ir, &model, state.reads);
    let stack = state.call_stack(ir);
    let run = concrete::run_with(ir, &input, max_steps, options);
    // Reads of fixed-width types come from the model as bit patterns:
    // show them as values of their types (the replay read them so).
    for (v, ty) in input.reads.iter_mut().zip(&run.read_types) {
        *v = ty.wrap(v);
    }
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
            read_pcs: run.read_pcs,
        })),
        other => Replay::Mismatch(format!(
            "internal error: the witness {input:?} for a {} at bytes {}..{} replays as {other:?}",
            kind.name(),
            span.lo,
            span.hi
        )),
    }
}

/// The value of type `ty` that a model value (a bit pattern for
/// fixed-width types) stands for.
fn typed(ty: ScalarTy, v: Int) -> Int {
    ty.wrap(&v)
}

/// The program input that a model describes (values of the inputs' types).
pub fn input_from_model(ir: &Ir, model: &Model, reads: u32) -> Input {
    let scalar = |name: &str, ty: ScalarTy| match ty {
        ScalarTy::Bool => Int::from(i64::from(model.boolean(name))),
        ScalarTy::Int(_) => typed(ty, model.int(name)),
    };
    let mut vars: Vec<(std::sync::Arc<str>, Int)> = ir
        .inputs
        .iter()
        .map(|i| (i.name.clone(), scalar(&i.name, i.ty)))
        .collect();
    vars.extend(
        ir.globals
            .iter()
            .filter(|g| g.init.is_none())
            .map(|g| (g.name.clone(), scalar(&g.name, g.ty))),
    );
    Input {
        vars,
        // Kept as the model has them; `confirm` types them after replay.
        reads: (0..reads).map(|k| model.int(&read_symbol(k))).collect(),
        arrays: ir
            .arrays
            .iter()
            .filter(|a| a.init.is_none())
            .filter_map(|a| {
                let m = model.array(&a.name)?;
                Some((a.name.clone(), array_input(a.ty, m)))
            })
            .collect(),
    }
}

fn array_input(ty: ArrayTy, m: &wiser_smt::ArrayValue) -> ArrayInput {
    let index = ScalarTy::Int(ty.index);
    ArrayInput {
        default: typed(ty.elem, m.default.clone()),
        entries: m
            .entries
            .iter()
            .map(|(i, v)| (typed(index, i.clone()), typed(ty.elem, v.clone())))
            .collect(),
    }
}

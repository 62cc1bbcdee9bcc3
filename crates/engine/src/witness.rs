//! Witnesses: concrete inputs that reach a bug, checked by replay.
//!
//! No bug is reported before its witness replays: the input is run on the
//! concrete interpreter (the same semantics over the concrete algebra,
//! with the same options), and the run must stop on the same kind of
//! error, at the same place, with the same call stack. Anything else is an
//! engine fault, reported as such.

use crate::path::PathCond;
use crate::symbolic::{read_symbol, Symbolic};
use std::sync::Arc;
use wiser_ir::{ArrayTy, Ir, Pc, ScalarTy, Span};
use wiser_num::Int;
use wiser_num::IntTy;
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::{ArrayInput, CallSite, ErrorKind, Input, Options, State, Switch};
use wiser_smt::{Answer, ArrayValue, Model, Solver, Term};

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
    /// The length of the path in steps (the replay's).
    pub steps: u64,
    /// How many other call stacks reach the same error at the same place
    /// (filled in by drivers that report each place once).
    pub other_stacks: usize,
    /// The symbolic path to the error state, by its decisions, where the
    /// run kept trails: what a worker of a distributed run sends for the
    /// coordinator to confirm the bug again ([`crate::prefix`]).
    pub prefix: Option<crate::Prefix>,
}

impl Bug {
    /// The order in which bugs are canonical: the shortest path first,
    /// then by place, call stack, path condition and input. Independent of
    /// which worker found a bug when, so a run that reports "the first"
    /// bug, or one per place, reports the least in this order.
    pub fn key(&self) -> impl Ord + '_ {
        (
            self.steps,
            self.span,
            self.kind,
            self.stack
                .iter()
                .map(|c| (c.call_site, c.routine.clone()))
                .collect::<Vec<_>>(),
            &self.path_condition,
            format!("{:?}", self.input),
        )
    }
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
    let terms = state.path.terms();
    let model = match state.path.effective_model() {
        Some(m) => m,
        None => match solver.solve(&terms) {
            Answer::Sat(m) => m,
            Answer::Unsat => return Replay::Infeasible,
            Answer::Unknown(_) => return Replay::Undecided,
        },
    };
    let schedule = state.schedule();
    let model = small_model(
        ir,
        solver,
        &terms,
        model,
        (state.reads, &schedule),
        max_steps,
        options,
    );
    let mut input = input_from_model(ir, &model, state.reads);
    input.schedule = schedule;
    let stack = state.call_stack(ir);
    let expected = Expected {
        kind,
        span,
        stack,
        path_condition: terms,
    };
    replay(ir, input, expected, max_steps, options)
}

/// The canonical small model of `constraints` ([`crate::minimise`]), from
/// `model`, a model of them that reaches the error: the types of its
/// reads (which say which are unsigned) are those of a run of `model`'s
/// input, with the path's `reads` count and `schedule`.
pub fn small_model<S: Solver + ?Sized>(
    ir: &Ir,
    solver: &mut S,
    constraints: &[Term],
    model: Model,
    (reads, schedule): (u32, &[Switch]),
    max_steps: u64,
    options: Options,
) -> Model {
    let mut input = input_from_model(ir, &model, reads);
    input.schedule = schedule.to_vec();
    let run = concrete::run_with(ir, &input, max_steps, options);
    let mut order: Vec<String> = Vec::new();
    let mut unsigned: Vec<String> = Vec::new();
    let mut note = |name: &str, ty: ScalarTy, order: &mut Vec<String>| {
        // A float is minimised as its pattern, an unsigned integer: the
        // witness is then the same whatever query found it (positive
        // numbers first, the smallest magnitude first).
        order.push(name.to_string());
        if matches!(ty, ScalarTy::Int(t) if !t.is_signed()) || ty.float().is_some() {
            unsigned.push(name.to_string());
        }
    };
    for i in &ir.inputs {
        note(&i.name, i.ty, &mut order);
    }
    for g in ir.globals.iter().filter(|g| g.init.is_none()) {
        note(&g.name, g.ty, &mut order);
    }
    for k in 0..reads {
        let ty = run
            .read_types
            .get(k as usize)
            .copied()
            .unwrap_or(ScalarTy::Int(IntTy::INT));
        note(&read_symbol(k), ty, &mut order);
    }
    // The input heap's shape (reference fields) before its contents, so
    // that the objects a path reaches get the lowest numbers whatever
    // model the solver gave first.
    let is_ref = |i: usize| {
        ir.field_of(wiser_ir::ArrayId(i as u32))
            .is_some_and(|(_, f)| f.refers.is_some())
    };
    let inputs: Vec<(usize, &wiser_ir::ArrayDecl)> = ir
        .arrays
        .iter()
        .enumerate()
        .filter(|(_, a)| a.init.is_none())
        .collect();
    for (_, a) in inputs.iter().filter(|(i, _)| is_ref(*i)) {
        note(&a.name, a.ty.elem, &mut order);
    }
    for (_, a) in inputs.iter().filter(|(i, _)| !is_ref(*i)) {
        note(&a.name, a.ty.elem, &mut order);
    }
    let inputs = crate::minimise::Inputs {
        order: &order,
        unsigned: &|name| unsigned.iter().any(|u| u == name),
    };
    crate::minimise::minimise(&mut SolverRef(solver), constraints, model, &inputs)
}

/// A `&mut S` as a `dyn Solver`, for any `S`, sized or not.
struct SolverRef<'a, S: ?Sized>(&'a mut S);

impl<S: Solver + ?Sized> Solver for SolverRef<'_, S> {
    fn solve(&mut self, constraints: &[Term]) -> Answer {
        self.0.solve(constraints)
    }
    fn stats(&self, out: &mut wiser_smt::SolverStats) {
        self.0.stats(out)
    }
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.0.set_deadline(deadline)
    }
    fn deadline(&self) -> Option<std::time::Instant> {
        self.0.deadline()
    }
}

/// The error a witness must reproduce, and the path condition of the path
/// that reached it (for the report).
pub struct Expected {
    /// What goes wrong.
    pub kind: ErrorKind,
    /// Where.
    pub span: Span,
    /// The call stack at the error, innermost first.
    pub stack: Vec<CallSite>,
    /// The conditions of the path that reached it.
    pub path_condition: Vec<Term>,
}

/// Runs `input` on the concrete interpreter with `options` for at most
/// `max_steps` steps: the error `expected` is a bug only if the run stops
/// on it (same kind, place and call stack). Every engine reports its bugs
/// through here: symbolic execution with an input from a model
/// ([`confirm`]), concolic execution and fuzzing with the input they ran.
pub fn replay(
    ir: &Ir,
    mut input: Input,
    expected: Expected,
    max_steps: u64,
    options: Options,
) -> Replay {
    let Expected {
        kind,
        span,
        stack,
        path_condition,
    } = expected;
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
            path_condition,
            read_pcs: run.read_pcs,
            steps: run.steps,
            other_stacks: 0,
            prefix: None,
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
        ScalarTy::Int(_) | ScalarTy::Float(_) => typed(ty, model.int(name)),
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
        // The schedule is the path's, not the model's: see `confirm`.
        schedule: Vec::new(),
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

/// The model that gives every input the value `input` gives it (0 for
/// anything it leaves out, as the interpreter reads it): the inverse of
/// [`input_from_model`]. Under it a term built by the symbolic algebra
/// evaluates to the value the concrete interpreter computes on `input`,
/// which is what lets concolic execution follow `input` with the symbolic
/// semantics alone. Fixed-width values are stored as their bit patterns.
pub fn input_to_model(ir: &Ir, input: &Input) -> Model {
    let mut model = Model::new();
    let scalar = |model: &mut Model, name: &Arc<str>, ty: ScalarTy, v: &Int| match ty {
        ScalarTy::Bool => model.set_bool(name.clone(), !v.is_zero()),
        ScalarTy::Int(t) => model.set_int(name.clone(), pattern(t, v)),
        ScalarTy::Float(t) => model.set_int(name.clone(), pattern(t.bits_ty(), v)),
    };
    for (name, v) in &input.vars {
        if let Some(ty) = ir.input_type(name) {
            scalar(&mut model, name, ty, v);
        }
    }
    // A read's type is known only when the run makes it; the evaluator
    // reads a bit-vector variable modulo 2^w, so the value itself will do.
    for (k, v) in input.reads.iter().enumerate() {
        model.set_int(Arc::from(read_symbol(k as u32)), v.clone());
    }
    for (name, a) in &input.arrays {
        let Some(decl) = ir
            .arrays
            .iter()
            .find(|d| d.name == *name && d.init.is_none())
        else {
            continue;
        };
        let (index, elem) = (decl.ty.index, decl.ty.elem);
        let cell = |ty: ScalarTy, v: &Int| match ty {
            ScalarTy::Bool => Int::from(i64::from(!v.is_zero())),
            ScalarTy::Int(t) => pattern(t, v),
            ScalarTy::Float(t) => pattern(t.bits_ty(), v),
        };
        let mut value = ArrayValue {
            default: cell(elem, &a.default),
            ..ArrayValue::default()
        };
        for (i, v) in &a.entries {
            value.entries.insert_mut(pattern(index, i), cell(elem, v));
        }
        model.set_array(name.clone(), value);
    }
    model
}

/// A value of type `ty` as the model stores it: itself for `int`, its bit
/// pattern for a fixed-width type.
fn pattern(ty: IntTy, v: &Int) -> Int {
    match ty.width() {
        None => v.clone(),
        Some(_) => Int::from_u64(ty.to_bits(v)),
    }
}

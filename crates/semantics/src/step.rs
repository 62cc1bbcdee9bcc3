//! The small-step semantics, written once for every algebra and policy.
//!
//! [`Machine::step`] takes a state by value and pushes its successors: one
//! for most instructions, up to two for a branch, plus an error state for
//! each check that may fault. Every decision (a check, a branch, an
//! assertion, an assumption) goes to the policy with its [`Site`]; runtime
//! errors are just decisions whose one side is an error state. Nothing
//! here recurses: expressions run on an explicit stack.

use crate::algebra::Algebra;
use crate::policy::{Fork, Policy};
use crate::state::{Decision, Frame, State, Status};
use std::sync::Arc;
use wiser_ir::{Code, ErrorKind, Instr, Ir, Op, Site, Span};

/// Semantic options that every domain of one run must share (the
/// interpreter that replays a witness must use the same as the search).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Signed `+ - *`, unary `-` and `<<` wrap instead of being
    /// `signed_overflow` errors (gcc's `-fwrapv`). `MIN / -1` stays an
    /// error: it traps on common hardware.
    pub wrap_signed: bool,
}

impl Options {
    /// Is a check of this kind performed?
    pub fn checks(&self, kind: ErrorKind) -> bool {
        !(self.wrap_signed && kind == ErrorKind::SignedOverflow)
    }
}

/// Runs the semantics of one program over algebra `A`. Holds the scratch
/// stack that expression evaluation reuses from step to step.
pub struct Machine<'ir, A: Algebra> {
    ir: &'ir Ir,
    options: Options,
    stack: Vec<A::Value>,
}

impl<'ir, A: Algebra> Machine<'ir, A> {
    /// A machine for `ir` with the default options.
    pub fn new(ir: &'ir Ir) -> Self {
        Machine::with_options(ir, Options::default())
    }

    /// A machine for `ir` with `options`.
    pub fn with_options(ir: &'ir Ir, options: Options) -> Self {
        Machine {
            ir,
            options,
            stack: Vec::new(),
        }
    }

    /// The program.
    pub fn ir(&self) -> &'ir Ir {
        self.ir
    }

    /// The options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Pushes the successors of `state` onto `out`. A final or stuck state
    /// has none; so has a state whose `assume` cannot hold.
    pub fn step<P: Policy<A>>(
        &mut self,
        alg: &mut A,
        pol: &mut P,
        mut state: State<A, P::Path>,
        out: &mut Vec<State<A, P::Path>>,
    ) {
        if state.status != Status::Running {
            return;
        }
        state.steps += 1;
        let ir = self.ir;
        let pc = state.pc;
        let loc = ir.at(pc);
        for (k, check) in loc.checks.iter().enumerate() {
            if !self.options.checks(check.kind) {
                continue;
            }
            let mut fault = self.eval(alg, &check.cond, &state);
            if let Some(guard) = &check.guard {
                let guard = self.eval(alg, guard, &state);
                fault = alg.and(guard, fault);
            }
            let site = Site {
                pc,
                check: Some(k as u16),
            };
            if let Some(faults) = alg.as_bool(&fault) {
                pol.folded(site, faults);
                if faults {
                    state.status = Status::Error {
                        kind: check.kind,
                        span: check.span,
                    };
                    out.push(state);
                    return;
                }
                continue;
            }
            let fork = if pol.seeks_error(check.kind, check.span, state.steps, &|| {
                state.call_stack(ir)
            }) {
                pol.branch(&state.path, site, &fault)
            } else {
                let passes = alg.not(fault.clone());
                Fork {
                    then: None,
                    otherwise: pol.assume(&state.path, site, &passes),
                }
            };
            let record = pol.records_trail() && alg.as_bool(&fault).is_none();
            if let Some(path) = fork.then {
                let mut err = error_state(&state, path, check.kind, check.span);
                if record {
                    push_decision(&mut err, site, true, fault.clone());
                }
                out.push(err);
            }
            match fork.otherwise {
                Some(path) => {
                    state.path = path;
                    if record {
                        push_decision(&mut state, site, false, fault);
                    }
                }
                None => return,
            }
        }
        let site = Site { pc, check: None };
        match &loc.instr {
            Instr::Assign { dst, value, next } => {
                let v = self.eval(alg, value, &state);
                state.store(*dst, v);
                state.pc = *next;
                out.push(state);
            }
            Instr::Havoc { dst, ty, next } => {
                let v = alg.read(state.reads, *ty);
                state.reads += 1;
                state.store(*dst, v);
                state.pc = *next;
                out.push(state);
            }
            Instr::Store {
                array,
                index,
                value,
                next,
            } => {
                let i = self.eval(alg, index, &state);
                let v = self.eval(alg, value, &state);
                let ty = ir.arrays[array.0 as usize].ty;
                let arrays = Arc::make_mut(&mut state.arrays);
                let a = &mut arrays[array.0 as usize];
                *a = alg.store(ty, a, i, v);
                state.pc = *next;
                out.push(state);
            }
            Instr::Branch {
                cond,
                then_to,
                else_to,
            } => {
                let c = self.eval(alg, cond, &state);
                if let Some(holds) = alg.as_bool(&c) {
                    pol.folded(site, holds);
                    state.pc = if holds { *then_to } else { *else_to };
                    out.push(state);
                    return;
                }
                let fork = pol.branch(&state.path, site, &c);
                let record = pol.records_trail();
                take_sides(
                    state,
                    fork,
                    site,
                    record.then_some(c),
                    *then_to,
                    *else_to,
                    out,
                );
            }
            Instr::Assert { cond, next } => {
                let c = self.eval(alg, cond, &state);
                if let Some(holds) = alg.as_bool(&c) {
                    pol.folded(site, holds);
                    if holds {
                        state.pc = *next;
                    } else {
                        state.status = Status::Error {
                            kind: ErrorKind::Assertion,
                            span: loc.span,
                        };
                    }
                    out.push(state);
                    return;
                }
                let fork = if pol.seeks_error(ErrorKind::Assertion, loc.span, state.steps, &|| {
                    state.call_stack(ir)
                }) {
                    pol.branch(&state.path, site, &c)
                } else {
                    Fork {
                        then: pol.assume(&state.path, site, &c),
                        otherwise: None,
                    }
                };
                let record = pol.records_trail();
                if let Some(path) = fork.otherwise {
                    let mut err = error_state(&state, path, ErrorKind::Assertion, loc.span);
                    if record {
                        push_decision(&mut err, site, false, c.clone());
                    }
                    out.push(err);
                }
                if let Some(path) = fork.then {
                    state.path = path;
                    if record {
                        push_decision(&mut state, site, true, c);
                    }
                    state.pc = *next;
                    out.push(state);
                }
            }
            Instr::Assume { cond, next } => {
                let c = self.eval(alg, cond, &state);
                if let Some(holds) = alg.as_bool(&c) {
                    pol.folded(site, holds);
                    if holds {
                        state.pc = *next;
                        out.push(state);
                    }
                    return;
                }
                if let Some(path) = pol.assume(&state.path, site, &c) {
                    state.path = path;
                    if pol.records_trail() {
                        push_decision(&mut state, site, true, c);
                    }
                    state.pc = *next;
                    out.push(state);
                }
            }
            Instr::Fail => {
                state.status = Status::Error {
                    kind: ErrorKind::Fail,
                    span: loc.span,
                };
                out.push(state);
            }
            Instr::Call {
                proc,
                args,
                dst,
                next,
            } => {
                let routine = &ir.procs[proc.0 as usize];
                let mut locals = Vec::with_capacity(routine.slots.len());
                for arg in args.iter() {
                    let v = self.eval(alg, arg, &state);
                    locals.push(v);
                }
                for slot in &routine.slots[locals.len()..] {
                    locals.push(alg.zero(slot.ty));
                }
                let callee = Frame {
                    locals: Arc::new(locals),
                    proc: Some(*proc),
                    ret: *next,
                    dst: *dst,
                    call_site: loc.span,
                };
                let caller = std::mem::replace(&mut state.frame, callee);
                state.callers = state.callers.push(caller);
                state.pc = routine.entry;
                out.push(state);
            }
            Instr::Return { value } => {
                let v = value.as_ref().map(|code| self.eval(alg, code, &state));
                let callers = std::mem::take(&mut state.callers);
                let Some((caller, rest)) = callers.split() else {
                    // The IR is validated: `return` only occurs in procedures.
                    return;
                };
                let callee = std::mem::replace(&mut state.frame, caller);
                state.callers = rest;
                if let (Some(d), Some(v)) = (callee.dst, v) {
                    state.store(d, v);
                }
                state.pc = callee.ret;
                out.push(state);
            }
            Instr::Skip { next } => {
                state.pc = *next;
                out.push(state);
            }
            Instr::Halt => {}
        }
    }

    /// Evaluates code in `state`'s current frame.
    pub fn eval<P>(&mut self, alg: &mut A, code: &Code, state: &State<A, P>) -> A::Value {
        let stack = &mut self.stack;
        let base = stack.len();
        for op in code.iter() {
            let v = match op {
                Op::Int(t, n) => alg.int(*t, n),
                Op::Bool(b) => alg.bool(*b),
                Op::Load(p) => state.load(*p).clone(),
                Op::Select(a) => {
                    let i = pop(stack);
                    let ty = self.ir.arrays[a.0 as usize].ty;
                    alg.select(ty, &state.arrays[a.0 as usize], i)
                }
                Op::Unary(op, t) => {
                    let a = pop(stack);
                    alg.unary(*op, *t, a)
                }
                Op::Binary(op, t) => {
                    let b = pop(stack);
                    let a = pop(stack);
                    alg.binary(*op, *t, a, b)
                }
                Op::Cmp(op, t) => {
                    let b = pop(stack);
                    let a = pop(stack);
                    alg.compare(*op, *t, a, b)
                }
                Op::Cast(from, to) => {
                    let a = pop(stack);
                    alg.cast(*from, *to, a)
                }
                Op::Overflows(op, t) => {
                    let b = pop(stack);
                    let a = pop(stack);
                    alg.overflows(*op, *t, a, b)
                }
                Op::NegOverflows(t) => {
                    let a = pop(stack);
                    alg.neg_overflows(*t, a)
                }
                Op::Not => {
                    let a = pop(stack);
                    alg.not(a)
                }
                Op::And => {
                    let b = pop(stack);
                    let a = pop(stack);
                    alg.and(a, b)
                }
                Op::Or => {
                    let b = pop(stack);
                    let a = pop(stack);
                    alg.or(a, b)
                }
                Op::Ite(t) => {
                    let e = pop(stack);
                    let th = pop(stack);
                    let c = pop(stack);
                    alg.ite(*t, c, th, e)
                }
            };
            stack.push(v);
        }
        let v = pop(stack);
        debug_assert_eq!(stack.len(), base, "validated code leaves one value");
        stack.truncate(base);
        v
    }
}

/// Pops an operand. The IR is validated, so the stack never underflows.
fn pop<V>(stack: &mut Vec<V>) -> V {
    stack.pop().expect("validated code never underflows")
}

fn push_decision<A: Algebra, P>(state: &mut State<A, P>, site: Site, taken: bool, cond: A::Value) {
    state.trail = state.trail.push(Decision { site, taken, cond });
}

/// A copy of `state` stuck on an error, with path `path`.
fn error_state<A: Algebra, P: Clone>(
    state: &State<A, P>,
    path: P,
    kind: ErrorKind,
    span: Span,
) -> State<A, P> {
    let mut s = state.clone();
    s.path = path;
    s.status = Status::Error { kind, span };
    s
}

/// Pushes the sides a branch may take, cloning `state` only when both are.
fn take_sides<A: Algebra, P: Clone>(
    state: State<A, P>,
    fork: Fork<P>,
    site: Site,
    record: Option<A::Value>,
    then_to: u32,
    else_to: u32,
    out: &mut Vec<State<A, P>>,
) {
    let mut go = |mut s: State<A, P>, path: P, taken: bool, to: u32| {
        s.path = path;
        if let Some(c) = &record {
            push_decision(&mut s, site, taken, c.clone());
        }
        s.pc = to;
        out.push(s);
    };
    match (fork.then, fork.otherwise) {
        (Some(t), Some(e)) => {
            let other = state.clone();
            go(state, t, true, then_to);
            go(other, e, false, else_to);
        }
        (Some(t), None) => go(state, t, true, then_to),
        (None, Some(e)) => go(state, e, false, else_to),
        (None, None) => {}
    }
}

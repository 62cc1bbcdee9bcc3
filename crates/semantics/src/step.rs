//! The small-step semantics, written once for every [`Domain`].
//!
//! [`Machine::step`] takes a state by value and pushes its successors: one
//! for most instructions, up to two for a branch, plus one error state for
//! each divisor that may be zero. A branch asks the domain which sides are
//! feasible; runtime errors are just branches to an error state. Nothing
//! here recurses: expressions run on explicit stacks.

use crate::domain::Domain;
use crate::ir::{Code, Instr, Ir, Op};
use crate::state::{ErrorKind, Frame, State, Status};
use std::sync::Arc;
use wiser_num::Int;
use wiser_syntax::ast::CmpOp;
use wiser_syntax::Span;

/// Runs the semantics of one program over domain `D`. Holds the scratch
/// stacks that expression evaluation reuses from step to step.
pub struct Machine<'ir, D: Domain> {
    ir: &'ir Ir,
    ints: Vec<D::Int>,
    bools: Vec<D::Bool>,
}

impl<'ir, D: Domain> Machine<'ir, D> {
    /// A machine for `ir`.
    pub fn new(ir: &'ir Ir) -> Self {
        Machine {
            ir,
            ints: Vec::new(),
            bools: Vec::new(),
        }
    }

    /// The program.
    pub fn ir(&self) -> &'ir Ir {
        self.ir
    }

    /// Pushes the successors of `state` onto `out`. A final or stuck state
    /// has none; so has a state whose `assume` cannot hold.
    pub fn step(&mut self, dom: &mut D, mut state: State<D>, out: &mut Vec<State<D>>) {
        if state.status != Status::Running {
            return;
        }
        let ir = self.ir;
        let loc = &ir.code[state.pc as usize];
        for check in loc.checks.iter() {
            let divisor = self.eval_int(dom, &check.divisor, &state);
            let zero = dom.int(&Int::ZERO);
            let mut faults = dom.cmp(CmpOp::Eq, divisor, zero);
            if let Some(guard) = &check.guard {
                let guard = self.eval_bool(dom, guard, &state);
                faults = dom.and(guard, faults);
            }
            let fork = dom.branch(state.path.clone(), &faults);
            if let Some(path) = fork.then {
                out.push(error_state(
                    &state,
                    path,
                    ErrorKind::DivisionByZero,
                    check.span,
                ));
            }
            match fork.otherwise {
                Some(path) => state.path = path,
                None => return,
            }
        }
        match &loc.instr {
            Instr::Assign { dst, value, next } => {
                let v = self.eval_int(dom, value, &state);
                Arc::make_mut(&mut state.frame.locals)[*dst as usize] = v;
                state.pc = *next;
                out.push(state);
            }
            Instr::Havoc { dst, next } => {
                let v = dom.read(state.reads);
                state.reads += 1;
                Arc::make_mut(&mut state.frame.locals)[*dst as usize] = v;
                state.pc = *next;
                out.push(state);
            }
            Instr::Store {
                array,
                index,
                value,
                next,
            } => {
                let i = self.eval_int(dom, index, &state);
                let v = self.eval_int(dom, value, &state);
                let arrays = Arc::make_mut(&mut state.arrays);
                let a = &mut arrays[*array as usize];
                *a = dom.store(a, i, v);
                state.pc = *next;
                out.push(state);
            }
            Instr::Branch {
                cond,
                then_to,
                else_to,
            } => {
                let c = self.eval_bool(dom, cond, &state);
                let fork = dom.branch(state.path.clone(), &c);
                fork_to(state, fork, |s| s.pc = *then_to, |s| s.pc = *else_to, out);
            }
            Instr::Assert { cond, next } => {
                let c = self.eval_bool(dom, cond, &state);
                let fork = dom.branch(state.path.clone(), &c);
                if let Some(path) = fork.otherwise {
                    out.push(error_state(&state, path, ErrorKind::Assertion, loc.span));
                }
                if let Some(path) = fork.then {
                    state.path = path;
                    state.pc = *next;
                    out.push(state);
                }
            }
            Instr::Assume { cond, next } => {
                let c = self.eval_bool(dom, cond, &state);
                if let Some(path) = dom.assume(state.path.clone(), &c) {
                    state.path = path;
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
                let routine = &ir.procs[*proc as usize];
                let zero = dom.int(&Int::ZERO);
                let mut locals = Vec::with_capacity(routine.slots.len());
                for arg in args.iter() {
                    let v = self.eval_int(dom, arg, &state);
                    locals.push(v);
                }
                locals.resize(routine.slots.len(), zero);
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
                let v = self.eval_int(dom, value, &state);
                let callers = std::mem::take(&mut state.callers);
                let Some((caller, rest)) = callers.split() else {
                    // The static checks reject `return` outside a procedure.
                    unreachable!("return with an empty call stack")
                };
                let callee = std::mem::replace(&mut state.frame, caller);
                state.callers = rest;
                if let Some(d) = callee.dst {
                    Arc::make_mut(&mut state.frame.locals)[d as usize] = v;
                }
                state.pc = callee.ret;
                out.push(state);
            }
            Instr::Halt => {}
        }
    }

    /// Evaluates integer-valued code in `state`'s current frame.
    pub fn eval_int(&mut self, dom: &mut D, code: &Code, state: &State<D>) -> D::Int {
        self.run(dom, code, state);
        self.ints.pop().expect("integer code leaves one value")
    }

    /// Evaluates boolean-valued code in `state`'s current frame.
    pub fn eval_bool(&mut self, dom: &mut D, code: &Code, state: &State<D>) -> D::Bool {
        self.run(dom, code, state);
        self.bools.pop().expect("boolean code leaves one value")
    }

    fn run(&mut self, dom: &mut D, code: &Code, state: &State<D>) {
        let (ints, bools) = (&mut self.ints, &mut self.bools);
        for op in code.iter() {
            match op {
                Op::Const(n) => ints.push(dom.int(n)),
                Op::Load(slot) => ints.push(state.frame.locals[*slot as usize].clone()),
                Op::Select(a) => {
                    let i = ints.pop().expect("index");
                    ints.push(dom.select(&state.arrays[*a as usize], i));
                }
                Op::Neg => {
                    let a = ints.pop().expect("operand");
                    ints.push(dom.neg(a));
                }
                Op::Arith(op) => {
                    let b = ints.pop().expect("rhs");
                    let a = ints.pop().expect("lhs");
                    ints.push(dom.arith(*op, a, b));
                }
                Op::Cmp(op) => {
                    let b = ints.pop().expect("rhs");
                    let a = ints.pop().expect("lhs");
                    bools.push(dom.cmp(*op, a, b));
                }
                Op::Bool(b) => bools.push(dom.bool(*b)),
                Op::Not => {
                    let a = bools.pop().expect("operand");
                    bools.push(dom.not(a));
                }
                Op::And | Op::Or => {
                    let b = bools.pop().expect("rhs");
                    let a = bools.pop().expect("lhs");
                    bools.push(if *op == Op::And {
                        dom.and(a, b)
                    } else {
                        dom.or(a, b)
                    });
                }
            }
        }
    }
}

/// A copy of `state` stuck on an error, with path `path`.
fn error_state<D: Domain>(
    state: &State<D>,
    path: D::Path,
    kind: ErrorKind,
    span: Span,
) -> State<D> {
    let mut s = state.clone();
    s.path = path;
    s.status = Status::Error { kind, span };
    s
}

/// Pushes the feasible sides of a fork, cloning `state` only when both are.
fn fork_to<D: Domain>(
    mut state: State<D>,
    fork: crate::domain::Fork<D::Path>,
    on_then: impl FnOnce(&mut State<D>),
    on_else: impl FnOnce(&mut State<D>),
    out: &mut Vec<State<D>>,
) {
    match (fork.then, fork.otherwise) {
        (Some(t), Some(e)) => {
            let mut other = state.clone();
            other.path = e;
            on_else(&mut other);
            state.path = t;
            on_then(&mut state);
            out.push(state);
            out.push(other);
        }
        (Some(t), None) => {
            state.path = t;
            on_then(&mut state);
            out.push(state);
        }
        (None, Some(e)) => {
            state.path = e;
            on_else(&mut state);
            out.push(state);
        }
        (None, None) => {}
    }
}

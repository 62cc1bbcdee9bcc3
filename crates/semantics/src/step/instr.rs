//! One instruction: its checks, then the instruction itself. Each kind
//! computes its effect in a function of its own (the decisions here and
//! in `decide.rs`, calls and threads in `calls.rs`, the heap and locks in
//! `heap.rs`); this dispatch moves the state on.

use super::decide::{Failing, Guarded};
use super::Machine;
use crate::algebra::Algebra;
use crate::policy::Policy;
use crate::state::{State, Status};
use wiser_ir::{Check, Code, ErrorKind, Instr, Site};

impl<A: Algebra> Machine<'_, A> {
    /// One instruction of the running thread (see [`Machine::step`]).
    pub(super) fn step_instr<P: Policy<A>>(
        &mut self,
        alg: &mut A,
        pol: &mut P,
        mut state: State<A, P::Path>,
        out: &mut Vec<State<A, P::Path>>,
    ) {
        state.steps += 1;
        let loc = self.ir.at(state.pc);
        for (k, check) in loc.checks.iter().enumerate() {
            if self.options.checks(check.kind) {
                let Some(s) = self.check(alg, pol, state, k, check, out) else {
                    return;
                };
                state = s;
            }
        }
        let span = loc.span;
        let next = match &loc.instr {
            Instr::Assign { dst, value, next } => {
                let v = self.eval(alg, value, &state);
                state.store(*dst, v);
                *next
            }
            Instr::Havoc { dst, ty, next } => {
                let v = alg.read(state.reads, *ty);
                state.reads += 1;
                state.store(*dst, v);
                *next
            }
            Instr::Store {
                array,
                index,
                value,
                next,
            } => {
                self.store(alg, &mut state, *array, index, value);
                *next
            }
            Instr::Branch {
                cond,
                then_to,
                else_to,
            } => return self.branch(alg, pol, state, cond, (*then_to, *else_to), out),
            Instr::Assert { cond, next } => {
                let failing = Failing::Sought(ErrorKind::Assertion, span);
                let Some(s) = self.hold(alg, pol, state, cond, failing, out) else {
                    return;
                };
                state = s;
                *next
            }
            Instr::Assume { cond, next } => {
                let Some(s) = self.hold(alg, pol, state, cond, Failing::Vanishes, out) else {
                    return;
                };
                state = s;
                *next
            }
            Instr::Fail => return fail(state, ErrorKind::Fail, span, out),
            Instr::Call {
                proc,
                args,
                dst,
                next,
            } => {
                self.call(alg, &mut state, *proc, args, *dst, *next);
                out.push(state);
                return;
            }
            Instr::Return { value } => return self.ret(alg, state, value.as_ref(), out),
            Instr::Skip { next } => *next,
            Instr::Output {
                stream,
                parts,
                next,
            } => {
                self.write_output(alg, &state, *stream, parts);
                *next
            }
            Instr::Halt => return,
            Instr::New { dst, class, next } => {
                self.new_object(alg, &mut state, *dst, *class);
                *next
            }
            Instr::Spawn {
                proc,
                args,
                dst,
                next,
            } => {
                if !self.spawn(alg, &mut state, *proc, args, *dst) {
                    out.push(state);
                    return;
                }
                *next
            }
            // No thread was ever started: none can finish.
            Instr::Join { .. } if state.threads.is_none() => {
                return fail(state, ErrorKind::Deadlock, span, out)
            }
            // The scheduler ran this thread: the joined one is done.
            Instr::Join { next, .. } => *next,
            Instr::Lock { lock, obj, next } => {
                let Some(s) = self.lock(alg, pol, state, *lock, obj, out) else {
                    return;
                };
                state = s;
                *next
            }
            Instr::Unlock { lock, obj, next } => {
                self.unlock(alg, &mut state, *lock, obj);
                *next
            }
            Instr::Atomic { begin, next } => {
                atomic(&mut state, *begin);
                *next
            }
        };
        state.pc = next;
        out.push(state);
    }

    /// The `k`th check of the instruction: the state that goes on, if it
    /// may (its error state, where it may fault, goes to `out`).
    fn check<P: Policy<A>>(
        &mut self,
        alg: &mut A,
        pol: &mut P,
        state: State<A, P::Path>,
        k: usize,
        check: &Check,
        out: &mut Vec<State<A, P::Path>>,
    ) -> Option<State<A, P::Path>> {
        let mut fault = self.eval(alg, &check.cond, &state);
        if let Some(guard) = &check.guard {
            let guard = self.eval(alg, guard, &state);
            fault = alg.and(guard, fault);
        }
        let g = Guarded {
            site: Site {
                pc: state.pc,
                check: Some(k as u16),
            },
            cond: fault,
            fails_when: true,
            failing: Failing::Sought(check.kind, check.span),
        };
        self.decide(alg, pol, state, g, out)
    }

    /// An assertion or an assumption of `cond`: the state that goes on
    /// where it holds, if it may; `failing` where it does not.
    fn hold<P: Policy<A>>(
        &mut self,
        alg: &mut A,
        pol: &mut P,
        state: State<A, P::Path>,
        cond: &Code,
        failing: Failing,
        out: &mut Vec<State<A, P::Path>>,
    ) -> Option<State<A, P::Path>> {
        let g = Guarded {
            site: Site {
                pc: state.pc,
                check: None,
            },
            cond: self.eval(alg, cond, &state),
            fails_when: false,
            failing,
        };
        self.decide(alg, pol, state, g, out)
    }
}

/// `state` is stuck on an error of `kind` at `span`.
fn fail<A: Algebra, P>(
    mut state: State<A, P>,
    kind: ErrorKind,
    span: wiser_ir::Span,
    out: &mut Vec<State<A, P>>,
) {
    state.status = Status::Error { kind, span };
    out.push(state);
}

/// Enters (`begin`) or leaves an atomic section: the running thread is
/// not preempted inside one (sections nest).
fn atomic<A: Algebra, P>(state: &mut State<A, P>, begin: bool) {
    if let Some(th) = state.threads.as_mut() {
        let th = std::sync::Arc::make_mut(th);
        let me = th.current;
        th.atomic = match (th.atomic, begin) {
            (Some((t, depth)), true) if t == me => Some((t, depth + 1)),
            (_, true) => Some((me, 1)),
            (Some((t, depth)), false) if t == me && depth > 1 => Some((t, depth - 1)),
            (_, false) => None,
        };
    }
}

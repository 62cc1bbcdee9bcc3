//! Activations: calls and returns, and the start of threads.

use super::Machine;
use crate::algebra::Algebra;
use crate::state::{Bound, Frame, State, Status};
use crate::threads::{self, Thread, Threads, MAX_THREADS};
use std::sync::Arc;
use wiser_ir::{Code, Pc, Place, ProcId};

impl<A: Algebra> Machine<'_, A> {
    /// A call of `proc` on `args` whose result goes to `dst`: the callee's
    /// frame is pushed and the state goes to its entry (and back to
    /// `next` on return).
    pub(super) fn call<P>(
        &mut self,
        alg: &mut A,
        state: &mut State<A, P>,
        proc: ProcId,
        args: &[Code],
        dst: Option<Place>,
        next: Pc,
    ) {
        let routine = &self.ir.procs[proc.0 as usize];
        let locals = self.callee_locals(alg, routine, args, state);
        let callee = Frame {
            locals: crate::Locals::new(locals),
            proc: Some(proc),
            ret: next,
            dst,
            call_site: self.ir.at(state.pc).span,
        };
        let caller = std::mem::replace(&mut state.frame, callee);
        state.callers = state.callers.push(caller);
        state.pc = routine.entry;
    }

    /// A `return` of `value`: back to the caller, or, from the root of a
    /// thread, the thread's end.
    pub(super) fn ret<P>(
        &mut self,
        alg: &mut A,
        mut state: State<A, P>,
        value: Option<&Code>,
        out: &mut Vec<State<A, P>>,
    ) {
        let v = value.map(|code| self.eval(alg, code, &state));
        let callers = std::mem::take(&mut state.callers);
        let Some((caller, rest)) = callers.split() else {
            // The IR is validated: `return` only occurs in procedures,
            // so this frame is the root of a thread, which ends.
            if let Some(th) = state.threads.as_mut() {
                let th = Arc::make_mut(th);
                let cur = th.current as usize;
                th.all[cur].done = true;
                if th.atomic.is_some_and(|(t, _)| t == th.current) {
                    th.atomic = None;
                }
                out.push(state);
            }
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

    /// A `spawn` of `proc` on `args`, its thread id stored to `dst`:
    /// `false` when the thread would be one past the bound (the state is
    /// then cut with [`Bound::Threads`]).
    pub(super) fn spawn<P>(
        &mut self,
        alg: &mut A,
        state: &mut State<A, P>,
        proc: ProcId,
        args: &[Code],
        dst: Option<Place>,
    ) -> bool {
        let ir = self.ir;
        let routine = &ir.procs[proc.0 as usize];
        let locals = self.callee_locals(alg, routine, args, state);
        let limit = self
            .options
            .max_threads
            .unwrap_or(MAX_THREADS)
            .min(MAX_THREADS);
        let th = state
            .threads
            .get_or_insert_with(|| Arc::new(Threads::main(state.pc, &state.frame)));
        if th.all.len() as u32 >= limit {
            state.status = Status::Bounded(Bound::Threads);
            return false;
        }
        let th = Arc::make_mut(th);
        let id = th.all.len() as u32;
        th.all.push(Thread {
            pc: routine.entry,
            frame: Frame {
                locals: crate::Locals::new(locals),
                proc: Some(proc),
                ret: 0,
                dst: None,
                call_site: ir.at(state.pc).span,
            },
            callers: crate::stack::Stack::new(),
            done: false,
        });
        if let Some(d) = dst {
            let ty = state.place_ty(ir, d);
            let v = threads::thread_id(alg, ty, id);
            state.store(d, v);
        }
        true
    }

    /// The slots of a new activation of `routine` (a call, or the root of
    /// a thread): the arguments evaluated in `state`'s frame, left to
    /// right, then 0 for every other slot.
    fn callee_locals<P>(
        &mut self,
        alg: &mut A,
        routine: &wiser_ir::Routine,
        args: &[Code],
        state: &State<A, P>,
    ) -> Vec<A::Value> {
        let mut locals = Vec::with_capacity(routine.slots.len());
        for arg in args {
            let v = self.eval(alg, arg, state);
            locals.push(v);
        }
        for slot in &routine.slots[locals.len()..] {
            locals.push(alg.zero(slot.ty));
        }
        locals
    }
}

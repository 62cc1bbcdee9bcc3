//! The heap and locks: stores into arrays (fields are arrays indexed by
//! objects), new objects, and taking and releasing locks.

use super::decide::{Failing, Guarded};
use super::Machine;
use crate::algebra::Algebra;
use crate::policy::Policy;
use crate::state::State;
use crate::threads;
use std::sync::Arc;
use wiser_ir::{ArrayId, ClassId, Code, ErrorKind, IntTy, Place, Site};
use wiser_num::{CmpOp, Int};

impl<A: Algebra> Machine<'_, A> {
    /// `array[index] = value`.
    pub(super) fn store<P>(
        &mut self,
        alg: &mut A,
        state: &mut State<A, P>,
        array: ArrayId,
        index: &Code,
        value: &Code,
    ) {
        let i = self.eval(alg, index, state);
        let v = self.eval(alg, value, state);
        self.write(alg, state, array, i, v);
    }

    /// A new object of `class`, its fields 0, its reference stored to
    /// `dst`: objects the program makes are `-1, -2, …` (input objects
    /// are positive).
    pub(super) fn new_object<P>(
        &self,
        alg: &mut A,
        state: &mut State<A, P>,
        dst: Place,
        class: ClassId,
    ) {
        let ir = self.ir;
        state.heap.objects += 1;
        let id = alg.int(IntTy::INT, &Int::from(-i64::from(state.heap.objects)));
        let arrays = Arc::make_mut(&mut state.arrays);
        for f in &ir.classes[class.0 as usize].fields {
            let ty = ir.arrays[f.array.0 as usize].ty;
            let zero = alg.zero(ty.elem);
            let a = &mut arrays[f.array.0 as usize];
            alg.store_in(ty, a, id.clone(), zero);
        }
        state.store(dst, id);
    }

    /// Takes the lock of object `obj` (its holder goes to array `lock`):
    /// the state that holds it, if it may. Without threads nobody else
    /// holds a lock: taking one already held (by this very thread) never
    /// returns, a deadlock. With threads the scheduler ran this thread
    /// only if the lock was free.
    pub(super) fn lock<P: Policy<A>>(
        &mut self,
        alg: &mut A,
        pol: &mut P,
        mut state: State<A, P::Path>,
        lock: ArrayId,
        obj: &Code,
        out: &mut Vec<State<A, P::Path>>,
    ) -> Option<State<A, P::Path>> {
        let o = self.eval(alg, obj, &state);
        if state.threads.is_none() {
            let ty = self.ir.arrays[lock.0 as usize].ty;
            let holder = alg.select(ty, &state.arrays[lock.0 as usize], o.clone());
            let zero = alg.int(IntTy::INT, &Int::ZERO);
            let g = Guarded {
                site: Site {
                    pc: state.pc,
                    check: None,
                },
                cond: alg.compare(CmpOp::Eq, IntTy::INT, holder, zero),
                fails_when: false,
                failing: Failing::Always(ErrorKind::Deadlock, self.ir.at(state.pc).span),
            };
            state = self.decide(alg, pol, state, g, out)?;
        }
        let me = threads::holder(alg, state.thread());
        self.write(alg, &mut state, lock, o, me);
        Some(state)
    }

    /// Releases the lock of object `obj` (array `lock`).
    pub(super) fn unlock<P>(
        &mut self,
        alg: &mut A,
        state: &mut State<A, P>,
        lock: ArrayId,
        obj: &Code,
    ) {
        let o = self.eval(alg, obj, state);
        let zero = alg.int(IntTy::INT, &Int::ZERO);
        self.write(alg, state, lock, o, zero);
    }

    /// Writes `v` at index `i` of `array`.
    fn write<P>(
        &self,
        alg: &mut A,
        state: &mut State<A, P>,
        array: ArrayId,
        i: A::Value,
        v: A::Value,
    ) {
        let ty = self.ir.arrays[array.0 as usize].ty;
        let arrays = Arc::make_mut(&mut state.arrays);
        let a = &mut arrays[array.0 as usize];
        alg.store_in(ty, a, i, v);
    }
}

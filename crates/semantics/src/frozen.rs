//! A state as it waits in a frontier: the fields most waiting states leave
//! at their initial values move behind one pointer that is then null.
//!
//! A breadth-first search keeps millions of states waiting, and each one
//! is a [`State`] by value (184 bytes for the symbolic algebra) in its
//! frontier's arena. Most of them run the main program, are not stuck,
//! and made no object and started no thread, so the running frame's call
//! data (routine, return address, destination, call site), the status, the
//! heap's counts and reads and the other threads hold their initial values
//! there, and so do the callers' frames (a state in a routine's frame
//! keeps its box anyway). [`Frozen`] keeps the rest (112 bytes) and those
//! fields in a box that is made only when one of them differs
//! (`bench/programs/memory_bfs_21.imp`: 72 bytes less per waiting state).
//! A state that needs the box costs one allocation more while it waits,
//! and 8 bytes more than a [`State`].

use crate::algebra::Algebra;
use crate::locals::Locals;
use crate::stack::Stack;
use crate::state::{Frame, HeapCount, State, Status, Trail};
use crate::threads::Threads;
use std::sync::Arc;
use wiser_ir::{ArrayId, Pc, Place, ProcId, Span};

/// The fields of a [`State`] that [`Frozen`] keeps in a box, where one of
/// them differs from its initial value.
struct Rest<V> {
    proc: Option<ProcId>,
    ret: Pc,
    dst: Option<Place>,
    call_site: Span,
    callers: Stack<Frame<V>>,
    status: Status,
    heap: HeapCount,
    heap_reads: Stack<(ArrayId, V)>,
    threads: Option<Arc<Threads<V>>>,
}

/// A [`State`] while it waits: the same state in fewer bytes
/// ([`State::freeze`], [`Frozen::thaw`]).
pub struct Frozen<A: Algebra, P> {
    pc: Pc,
    reads: u32,
    steps: u64,
    locals: Locals<A::Value>,
    globals: Arc<Vec<A::Value>>,
    arrays: Arc<Vec<A::Array>>,
    path: P,
    trail: Trail<A::Value>,
    /// `None`: every field of [`Rest`] has its initial value.
    rest: Option<Box<Rest<A::Value>>>,
}

impl<A: Algebra, P> State<A, P> {
    /// The state in the form it waits in.
    pub fn freeze(self) -> Frozen<A, P> {
        let Frame {
            locals,
            proc,
            ret,
            dst,
            call_site,
        } = self.frame;
        let initial = proc.is_none()
            && ret == 0
            && dst.is_none()
            && call_site == Span::default()
            && self.callers.is_empty()
            && self.status == Status::Running
            && self.heap == HeapCount::default()
            && self.heap_reads.is_empty()
            && self.threads.is_none();
        let rest = (!initial).then(|| {
            Box::new(Rest {
                proc,
                ret,
                dst,
                call_site,
                callers: self.callers,
                status: self.status,
                heap: self.heap,
                heap_reads: self.heap_reads,
                threads: self.threads,
            })
        });
        Frozen {
            pc: self.pc,
            reads: self.reads,
            steps: self.steps,
            locals,
            globals: self.globals,
            arrays: self.arrays,
            path: self.path,
            trail: self.trail,
            rest,
        }
    }
}

impl<A: Algebra, P> Frozen<A, P> {
    /// The state again, as it was frozen.
    pub fn thaw(self) -> State<A, P> {
        let rest = match self.rest {
            Some(rest) => *rest,
            None => Rest {
                proc: None,
                ret: 0,
                dst: None,
                call_site: Span::default(),
                callers: Stack::new(),
                status: Status::Running,
                heap: HeapCount::default(),
                heap_reads: Stack::new(),
                threads: None,
            },
        };
        State {
            pc: self.pc,
            frame: Frame {
                locals: self.locals,
                proc: rest.proc,
                ret: rest.ret,
                dst: rest.dst,
                call_site: rest.call_site,
            },
            callers: rest.callers,
            globals: self.globals,
            arrays: self.arrays,
            path: self.path,
            reads: self.reads,
            steps: self.steps,
            status: rest.status,
            trail: self.trail,
            heap: rest.heap,
            heap_reads: rest.heap_reads,
            threads: rest.threads,
        }
    }

    /// The instruction the state executes next.
    pub fn pc(&self) -> Pc {
        self.pc
    }

    /// The number of decisions on its trail.
    pub fn decisions(&self) -> usize {
        self.trail.len()
    }
}

#[cfg(test)]
mod tests {
    use crate::concrete::{self, Concrete, Follow, Outcome};
    use crate::{Input, Machine, State};

    /// A run that freezes and thaws its state before every step ends as
    /// the plain run does: calls (the frame's call data), objects and
    /// threads (the heap's counts and the other threads), and the final
    /// error (the status) all come back.
    #[test]
    fn a_thawed_state_runs_on_as_the_state_that_froze() {
        let ir = wiser_imp::compile(
            "class Counter begin n: int end
             proc inc(k: Counter) begin lock k; k.n = k.n + 1; unlock k end
             proc sum(n) begin
               if n == 0 then return 0 else skip fi;
               r = sum(n - 1);
               return r + n
             end
             c = new Counter;
             t1 = spawn inc(c);
             t2 = spawn inc(c);
             join t1;
             join t2;
             s = sum(x);
             assert s + c.n != 23",
        )
        .unwrap();
        let input = Input {
            vars: vec![("x".into(), 6.into())],
            ..Input::default()
        };
        let want = concrete::run(&ir, &input, 10_000);
        assert!(
            matches!(want.outcome, Outcome::Error { .. }),
            "{:?}",
            want.outcome
        );
        let mut alg = Concrete::new(&input);
        let mut pol = Follow::default();
        let mut machine = Machine::new(&ir);
        let mut state: State<Concrete<'_>, ()> = State::initial(&ir, &mut alg, ());
        let (mut out, mut steps, mut boxed) = (Vec::new(), 0, 0);
        while state.error().is_none() && !state.is_final(&ir) {
            let frozen = state.freeze();
            boxed += usize::from(frozen.rest.is_some());
            assert_eq!(frozen.decisions(), 0);
            machine.step(&mut alg, &mut pol, frozen.thaw(), &mut out);
            state = out.pop().expect("one successor");
            steps += 1;
        }
        assert_eq!(steps, want.steps);
        assert_eq!(state.error(), want.state.error());
        assert_eq!(state.frame.locals, want.state.frame.locals);
        assert_eq!(state.globals, want.state.globals);
        assert!(boxed > 0 && boxed < steps as usize, "{boxed} of {steps}");
        let last = state.clone().freeze();
        assert!(last.rest.is_some(), "a stuck state keeps its status");
        assert_eq!(last.thaw().error(), state.error());
    }
}

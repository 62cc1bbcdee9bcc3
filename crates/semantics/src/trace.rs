//! Traces: what a concrete run did, step by step, in the terms of the
//! program the user wrote.
//!
//! A [`Recorder`] watches the concrete interpreter ([`crate::concrete`])
//! as it runs [`Machine::step`]: it looks at the instruction before each
//! step and at the successor after it, so the trace is the run itself, not
//! a second interpreter's idea of it. It records assignments to program
//! variables (temporaries of the front ends are left out), array stores,
//! nondeterministic reads, branches with the side taken, assertions and
//! assumptions, calls with their argument values, returns with their
//! value, and the error the run stopped at.
//!
//! A run of a million steps must not keep a million steps: the recorder
//! keeps the first [`TraceOptions::head`] and the last
//! [`TraceOptions::tail`] steps and counts the ones between
//! ([`Trace::elided`]).

use crate::concrete::Concrete;
use crate::state::State;
use crate::step::Machine;
use std::collections::VecDeque;
use std::sync::Arc;
use wiser_ir::{ErrorKind, Instr, Ir, Place, ScalarTy, Span};
use wiser_num::Int;

/// One step of a trace. Each names the span of the statement (or, for a
/// read, the expression) it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceStep {
    /// A program variable was written: `x = 5`.
    Assign {
        /// The statement.
        span: Span,
        /// The variable.
        name: Arc<str>,
        /// Its new value.
        value: Int,
        /// The variable's type (a float's value is its pattern).
        ty: ScalarTy,
    },
    /// An array element was written: `a[3] = 7`.
    Store {
        /// The statement.
        span: Span,
        /// The array.
        array: Arc<str>,
        /// The subscript.
        index: Int,
        /// The value stored.
        value: Int,
        /// The elements' type.
        ty: ScalarTy,
    },
    /// A nondeterministic read (IMP's `x = *`, a C call of
    /// `__VERIFIER_nondet_int()`, an uninitialised C local).
    Read {
        /// The read (for C, the call).
        span: Span,
        /// Which read of the run it was, from 0 (its place in the
        /// input's `reads`).
        index: u32,
        /// The program variable it was read into; `None` when the front
        /// end read it into a temporary (a C call's value).
        target: Option<Arc<str>>,
        /// The value read.
        value: Int,
        /// Its type.
        ty: ScalarTy,
    },
    /// A branch (`if`, a loop test, a `case`): the side taken.
    Branch {
        /// The branching statement.
        span: Span,
        /// Did the condition hold?
        taken: bool,
    },
    /// An assertion that held (one that fails ends the trace with
    /// [`TraceStep::Error`]).
    Assert {
        /// The assertion.
        span: Span,
    },
    /// An assumption: one that does not hold ends the run (the input is
    /// outside the program's domain).
    Assume {
        /// The assumption.
        span: Span,
        /// Did it hold?
        holds: bool,
    },
    /// A call of a routine, with the values of its arguments.
    Call {
        /// The call.
        span: Span,
        /// The routine called.
        routine: Arc<str>,
        /// The argument values, in order.
        args: Vec<Int>,
    },
    /// A return from a routine, with its value if it returns one.
    Return {
        /// The `return` (or the routine's end).
        span: Span,
        /// The routine returning.
        routine: Arc<str>,
        /// The value returned, and its type.
        value: Option<(Int, ScalarTy)>,
    },
    /// In a program with threads: a read of shared state (a global, an
    /// array element, a field) that is a step of its own, `c.n -> 0` (the
    /// front end reads it into a temporary, so that another thread may
    /// run between the read and the write that uses it).
    Load {
        /// The statement.
        span: Span,
        /// What was read: `g`, `a[3]`, `Counter.n[-1]`.
        what: Arc<str>,
        /// The value read.
        value: Int,
        /// Its type.
        ty: ScalarTy,
    },
    /// Another thread runs from here (a context switch): its next
    /// statement and its id.
    Thread {
        /// The statement the thread runs next.
        span: Span,
        /// The thread (0 is the main thread).
        thread: u32,
    },
    /// The runtime error the run stopped at.
    Error {
        /// Where (the statement, or the operator of a failed check).
        span: Span,
        /// What went wrong.
        kind: ErrorKind,
    },
}

impl TraceStep {
    /// The span the step came from.
    pub fn span(&self) -> Span {
        match self {
            TraceStep::Assign { span, .. }
            | TraceStep::Store { span, .. }
            | TraceStep::Read { span, .. }
            | TraceStep::Branch { span, .. }
            | TraceStep::Assert { span }
            | TraceStep::Assume { span, .. }
            | TraceStep::Call { span, .. }
            | TraceStep::Return { span, .. }
            | TraceStep::Thread { span, .. }
            | TraceStep::Load { span, .. }
            | TraceStep::Error { span, .. } => *span,
        }
    }
}

/// What to record and how much to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceOptions {
    /// Leave out the steps of the main routine: a C program's IR main
    /// routine is start-up code (global initialisers, then the call of
    /// C's `main`), which the user did not write. Its errors are kept.
    pub hide_main: bool,
    /// Keep this many steps from the start.
    pub head: usize,
    /// And this many from the end.
    pub tail: usize,
}

impl Default for TraceOptions {
    /// Everything visible; the first 500 and the last 500 steps.
    fn default() -> Self {
        TraceOptions {
            hide_main: false,
            head: 500,
            tail: 500,
        }
    }
}

/// A recorded trace: the first steps, how many were left out, the last
/// steps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The first steps.
    pub head: Vec<TraceStep>,
    /// How many steps between `head` and `tail` were left out.
    pub elided: u64,
    /// The last steps (empty when everything fit in `head`).
    pub tail: Vec<TraceStep>,
}

impl Trace {
    /// Every step kept, in order (the elided ones sit between `head` and
    /// `tail`).
    pub fn steps(&self) -> impl Iterator<Item = &TraceStep> {
        self.head.iter().chain(&self.tail)
    }

    /// The number of steps recorded, elided ones included.
    pub fn len(&self) -> u64 {
        self.head.len() as u64 + self.elided + self.tail.len() as u64
    }

    /// Is it empty?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What the recorder saw before a step, completed from the successor.
pub(crate) enum Pending {
    Nothing,
    Assign {
        span: Span,
        name: Arc<str>,
        place: Place,
    },
    Read {
        span: Span,
        index: u32,
        target: Option<Arc<str>>,
        place: Place,
    },
    Store {
        span: Span,
        array: usize,
        index: Int,
    },
    Step(TraceStep),
    Load {
        span: Span,
        what: Arc<str>,
        place: Place,
    },
    Call {
        span: Span,
        routine: Arc<str>,
        params: usize,
    },
    Assume {
        span: Span,
    },
    /// A return, and the caller's variable its value goes to (at the call).
    Return {
        step: TraceStep,
        assign: Option<(Span, Arc<str>, ScalarTy)>,
    },
}

/// Records a concrete run's trace; see the module documentation.
pub(crate) struct Recorder<'ir> {
    ir: &'ir Ir,
    options: TraceOptions,
    head: Vec<TraceStep>,
    tail: VecDeque<TraceStep>,
    elided: u64,
    /// The thread that ran the step under way.
    ran: u32,
}

type CState<'i> = State<Concrete<'i>, ()>;

impl<'ir> Recorder<'ir> {
    pub(crate) fn new(ir: &'ir Ir, options: TraceOptions) -> Self {
        Recorder {
            ir,
            options,
            head: Vec::new(),
            tail: VecDeque::new(),
            elided: 0,
            ran: 0,
        }
    }

    fn push(&mut self, step: TraceStep) {
        if self.head.len() < self.options.head {
            self.head.push(step);
            return;
        }
        if self.options.tail == 0 {
            self.elided += 1;
            return;
        }
        if self.tail.len() == self.options.tail {
            self.tail.pop_front();
            self.elided += 1;
        }
        self.tail.push_back(step);
    }

    /// The name of a place in `state`'s frame, unless it is a temporary.
    fn name(&self, state: &CState<'_>, place: Place) -> Option<Arc<str>> {
        self.name_in(state.frame.proc, place)
    }

    /// The name of a place of a frame of routine `proc`, unless it is a
    /// temporary.
    fn name_in(&self, proc: Option<wiser_ir::ProcId>, place: Place) -> Option<Arc<str>> {
        match place {
            Place::Local(i) => self
                .ir
                .routine(proc)
                .slots
                .get(i as usize)
                .filter(|s| !s.is_temporary())
                .map(|s| s.name.clone()),
            Place::Global(g) => self.ir.globals.get(g as usize).map(|g| g.name.clone()),
        }
    }

    /// Looks at the instruction `state` is about to run. Evaluating a
    /// condition or a subscript here runs the same total operations the
    /// step runs (they read no input), so it changes nothing.
    pub(crate) fn before<'i>(
        &mut self,
        machine: &mut Machine<'_, Concrete<'i>>,
        alg: &mut Concrete<'i>,
        state: &CState<'i>,
    ) -> Pending {
        self.ran = state.thread();
        if self.options.hide_main && state.frame.proc.is_none() {
            return Pending::Nothing;
        }
        let loc = self.ir.at(state.pc);
        let span = loc.span;
        match &loc.instr {
            Instr::Assign { dst, value, .. } => match self.name(state, *dst) {
                Some(name) => Pending::Assign {
                    span,
                    name,
                    place: *dst,
                },
                None if self.ir.threaded => match self.shared_read(machine, alg, state, value) {
                    Some(what) => Pending::Load {
                        span,
                        what,
                        place: *dst,
                    },
                    None => Pending::Nothing,
                },
                None => Pending::Nothing,
            },
            Instr::Havoc { dst, .. } => Pending::Read {
                span,
                index: state.reads,
                target: self.name(state, *dst),
                place: *dst,
            },
            Instr::Store { array, index, .. } => Pending::Store {
                span,
                array: array.0 as usize,
                index: machine.eval(alg, index, state),
            },
            Instr::Branch { cond, .. } => {
                let taken = !machine.eval(alg, cond, state).is_zero();
                Pending::Step(TraceStep::Branch { span, taken })
            }
            Instr::Assert { .. } => Pending::Step(TraceStep::Assert { span }),
            Instr::Assume { .. } => Pending::Assume { span },
            Instr::Call { proc, .. } => {
                let r = &self.ir.procs[proc.0 as usize];
                Pending::Call {
                    span,
                    routine: r.name.clone(),
                    params: r.params as usize,
                }
            }
            Instr::Return { value } => {
                let frame = &state.frame;
                // The caller's variable that receives the value: shown as
                // an assignment at the call (`y = f(x)`).
                let caller = state.callers.iter().next();
                let assign = match (frame.dst, caller) {
                    (Some(dst), Some(c)) if !(self.options.hide_main && c.proc.is_none()) => self
                        .name_in(c.proc, dst)
                        .map(|name| (frame.call_site, name, self.ir.place_ty(c.proc, dst))),
                    _ => None,
                };
                let routine = self.ir.routine(frame.proc);
                let ty = routine.ret.unwrap_or(ScalarTy::INT);
                let step = TraceStep::Return {
                    span,
                    routine: routine.name.clone(),
                    value: value.as_ref().map(|c| (machine.eval(alg, c, state), ty)),
                };
                Pending::Return { step, assign }
            }
            Instr::New { dst, .. } | Instr::Spawn { dst: Some(dst), .. } => {
                match self.name(state, *dst) {
                    Some(name) => Pending::Assign {
                        span,
                        name,
                        place: *dst,
                    },
                    None => Pending::Nothing,
                }
            }
            Instr::Fail
            | Instr::Halt
            | Instr::Skip { .. }
            | Instr::Output { .. }
            | Instr::Spawn { dst: None, .. }
            | Instr::Join { .. }
            | Instr::Lock { .. }
            | Instr::Unlock { .. }
            | Instr::Atomic { .. } => Pending::Nothing,
        }
    }

    /// What a temporary's assignment reads, when it is one read of shared
    /// state (`g`, or `a[i]` with `i` a local): its name.
    fn shared_read<'i>(
        &self,
        machine: &mut Machine<'_, Concrete<'i>>,
        alg: &mut Concrete<'i>,
        state: &CState<'i>,
        value: &wiser_ir::Code,
    ) -> Option<Arc<str>> {
        use wiser_ir::Op;
        match &value[..] {
            [Op::Load(Place::Global(g))] => Some(self.ir.globals[*g as usize].name.clone()),
            [index @ .., Op::Select(a)] if !index.is_empty() => {
                let code: wiser_ir::Code = index.to_vec().into_boxed_slice();
                let i = machine.eval(alg, &code, state);
                Some(format!("{}[{i}]", self.ir.arrays[a.0 as usize].name).into())
            }
            _ => None,
        }
    }

    /// The frame the step under way ran in, in its successor `next` (the
    /// scheduler may have switched to another thread since).
    fn ran_frame<'s>(&self, next: &'s CState<'_>) -> &'s crate::state::Frame<Int> {
        match &next.threads {
            Some(th) if th.current != self.ran => &th.all[self.ran as usize].frame,
            _ => &next.frame,
        }
    }

    /// The value of `place` in the frame the step ran in.
    fn ran_load(&self, next: &CState<'_>, place: Place) -> Int {
        match place {
            Place::Local(i) => self.ran_frame(next).locals[i as usize].clone(),
            Place::Global(g) => next.globals[g as usize].clone(),
        }
    }

    /// Completes what [`Recorder::before`] saw with the step's successor
    /// (`None`: the step had none, a failed `assume`). A successor stuck
    /// on an error records nothing here: the run records the error.
    pub(crate) fn after(&mut self, pending: Pending, next: Option<&CState<'_>>) {
        let Some(next) = next else {
            if let Pending::Assume { span } = pending {
                self.push(TraceStep::Assume { span, holds: false });
            }
            return;
        };
        if next.error().is_some() {
            return;
        }
        self.record(pending, next);
        if next.thread() != self.ran {
            self.push(TraceStep::Thread {
                span: self.ir.at(next.pc).span,
                thread: next.thread(),
            });
        }
    }

    fn record(&mut self, pending: Pending, next: &CState<'_>) {
        let step = match pending {
            Pending::Nothing => return,
            Pending::Assign { span, name, place } => TraceStep::Assign {
                span,
                name,
                value: self.ran_load(next, place),
                ty: self.ir.place_ty(self.ran_frame(next).proc, place),
            },
            Pending::Read {
                span,
                index,
                target,
                place,
            } => TraceStep::Read {
                span,
                index,
                target,
                value: self.ran_load(next, place),
                ty: self.ir.place_ty(self.ran_frame(next).proc, place),
            },
            Pending::Store { span, array, index } => {
                let a = &next.arrays[array];
                let value = a.elems.get(&index).unwrap_or(&a.default).clone();
                TraceStep::Store {
                    span,
                    array: self.ir.arrays[array].name.clone(),
                    index,
                    value,
                    ty: self.ir.arrays[array].ty.elem,
                }
            }
            Pending::Call {
                span,
                routine,
                params,
            } => TraceStep::Call {
                span,
                routine,
                args: self
                    .ran_frame(next)
                    .locals
                    .iter()
                    .take(params)
                    .cloned()
                    .collect(),
            },
            Pending::Assume { span } => TraceStep::Assume { span, holds: true },
            Pending::Load { span, what, place } => TraceStep::Load {
                span,
                what,
                value: self.ran_load(next, place),
                ty: self.ir.place_ty(self.ran_frame(next).proc, place),
            },
            Pending::Return { step, assign } => {
                let value = match &step {
                    TraceStep::Return { value, .. } => value.clone(),
                    _ => None,
                };
                self.push(step);
                match (assign, value) {
                    (Some((span, name, ty)), Some((value, _))) => TraceStep::Assign {
                        span,
                        name,
                        value,
                        ty,
                    },
                    _ => return,
                }
            }
            Pending::Step(s) => s,
        };
        self.push(step);
    }

    /// Records the error the run stopped at (always: even in hidden code,
    /// the error is what the trace leads to).
    pub(crate) fn error(&mut self, kind: ErrorKind, span: Span) {
        self.push(TraceStep::Error { span, kind });
    }

    pub(crate) fn finish(self) -> Trace {
        Trace {
            head: self.head,
            elided: self.elided,
            tail: self.tail.into(),
        }
    }
}

//! The concrete algebra and policy, and the interpreter built on them.
//!
//! The interpreter is [`Machine::step`] over [`Concrete`] and [`Follow`]:
//! every decision has exactly one side, so a run is a single path. It runs
//! programs for `wiser run` and replays every witness before a bug is
//! reported. Values are [`Int`]s holding the mathematical value of their
//! type (booleans are 0 and 1); every operation is `wiser_num`'s.

use crate::algebra::Algebra;
use crate::policy::{Fork, Policy};
use crate::state::{CallSite, State};
use crate::step::{Machine, Options, Output};
use crate::threads::Switch;
use crate::trace::{Recorder, Trace, TraceOptions};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use wiser_ir::{ArrayTy, ErrorKind, Instr, Ir, Pc, ScalarTy, Site, Span};
use wiser_num::{BinOp, CmpOp, FloatOp, Int, IntTy, UnOp};

/// The initial contents of an input array: `default` everywhere except at
/// the listed entries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArrayInput {
    /// The value of every element not listed.
    pub default: Int,
    /// `(index, value)` pairs.
    pub entries: Vec<(Int, Int)>,
}

/// A complete input of a program: values of input variables, the values
/// returned by the nondeterministic reads in order, and the initial
/// arrays. Anything not given is 0. Values are mathematical values of the
/// input's type; a value outside its type is wrapped into it and noted
/// (see [`Run::wrapped_inputs`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Input {
    /// Input variables and their values.
    pub vars: Vec<(Arc<str>, Int)>,
    /// Values of the successive reads.
    pub reads: Vec<Int>,
    /// Initial array contents (for a program with objects, the fields of
    /// the input heap's objects too: the array `Node.next` at index 1 is
    /// field `next` of object 1).
    pub arrays: Vec<(Arc<str>, ArrayInput)>,
    /// For a program with threads: the scheduling points where a thread
    /// other than the default one runs (see [`crate::threads`]).
    pub schedule: Vec<Switch>,
}

/// A concrete array: a map over a default value, shared between the
/// states that hold it and copied on the first write to a shared one.
/// (A concrete run never shares it, so a write is an in-place `BTreeMap`
/// insert: a persistent tree allocated and reference-counted nodes on
/// every write and every read's path.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    /// The value of elements not in `elems`.
    pub default: Int,
    /// Elements that differ from the default (or were written).
    pub elems: Arc<BTreeMap<Int, Int>>,
}

/// The concrete algebra over one [`Input`].
pub struct Concrete<'i> {
    input: &'i Input,
    /// How many reads asked for a value beyond the end of `input.reads`
    /// (those read 0).
    pub missing_reads: u32,
    /// Inputs whose given value was outside their type, with the value
    /// they were wrapped to.
    pub wrapped: Vec<(String, Int, Int)>,
    /// The type of each read made, in order.
    pub read_types: Vec<ScalarTy>,
}

impl<'i> Concrete<'i> {
    /// The algebra that takes its inputs from `input`.
    pub fn new(input: &'i Input) -> Self {
        Concrete {
            input,
            missing_reads: 0,
            wrapped: Vec::new(),
            read_types: Vec::new(),
        }
    }

    fn typed(&mut self, what: impl FnOnce() -> String, v: &Int, ty: ScalarTy) -> Int {
        let w = ty.wrap(v);
        if w != *v {
            self.wrapped.push((what(), v.clone(), w.clone()));
        }
        w
    }
}

fn truth(b: bool) -> Int {
    if b {
        Int::ONE
    } else {
        Int::ZERO
    }
}

impl Algebra for Concrete<'_> {
    type Value = Int;
    type Array = Array;

    fn int(&mut self, _ty: IntTy, v: &Int) -> Int {
        v.clone()
    }

    fn bool(&mut self, b: bool) -> Int {
        truth(b)
    }

    fn unary(&mut self, op: UnOp, ty: IntTy, a: Int) -> Int {
        ty.unary(op, &a)
    }

    fn binary(&mut self, op: BinOp, ty: IntTy, a: Int, b: Int) -> Int {
        ty.binary(op, &a, &b)
    }

    fn compare(&mut self, op: CmpOp, ty: IntTy, a: Int, b: Int) -> Int {
        truth(ty.compare(op, &a, &b))
    }

    fn cast(&mut self, from: IntTy, to: IntTy, a: Int) -> Int {
        from.cast(to, &a)
    }

    fn float(&mut self, op: FloatOp, args: &[Int]) -> Int {
        op.apply(args)
    }

    fn overflows(&mut self, op: BinOp, ty: IntTy, a: Int, b: Int) -> Int {
        truth(ty.overflows(op, &a, &b))
    }

    fn neg_overflows(&mut self, ty: IntTy, a: Int) -> Int {
        truth(ty.neg_overflows(&a))
    }

    fn not(&mut self, a: Int) -> Int {
        truth(a.is_zero())
    }

    fn and(&mut self, a: Int, b: Int) -> Int {
        truth(!a.is_zero() && !b.is_zero())
    }

    fn or(&mut self, a: Int, b: Int) -> Int {
        truth(!a.is_zero() || !b.is_zero())
    }

    fn ite(&mut self, _ty: ScalarTy, c: Int, a: Int, b: Int) -> Int {
        if c.is_zero() {
            b
        } else {
            a
        }
    }

    fn select(&mut self, _ty: ArrayTy, array: &Array, index: Int) -> Int {
        array
            .elems
            .get(&index)
            .cloned()
            .unwrap_or_else(|| array.default.clone())
    }

    fn store(&mut self, _ty: ArrayTy, array: &Array, index: Int, value: Int) -> Array {
        let mut a = array.clone();
        Arc::make_mut(&mut a.elems).insert(index, value);
        a
    }

    // A concrete run owns its arrays (a state is cloned only to keep it
    // for a report), so this copies nothing.
    fn store_in(&mut self, _ty: ArrayTy, array: &mut Array, index: Int, value: Int) {
        Arc::make_mut(&mut array.elems).insert(index, value);
    }

    fn const_array(&mut self, _ty: ArrayTy, v: &Int) -> Array {
        Array {
            default: v.clone(),
            elems: Arc::new(BTreeMap::new()),
        }
    }

    fn input(&mut self, name: &str, ty: ScalarTy) -> Int {
        let given = self.input.vars.iter().find(|(n, _)| &**n == name);
        match given {
            Some((_, v)) => {
                let v = v.clone();
                self.typed(|| name.to_string(), &v, ty)
            }
            None => Int::ZERO,
        }
    }

    fn input_array(&mut self, name: &str, ty: ArrayTy) -> Array {
        let given = self.input.arrays.iter().find(|(n, _)| &**n == name);
        let Some((_, a)) = given.cloned() else {
            return self.const_array(ty, &Int::ZERO);
        };
        let index_ty = ScalarTy::Int(ty.index);
        let mut elems = BTreeMap::new();
        for (i, v) in &a.entries {
            let i = self.typed(|| format!("{name}[{i}] (index)"), i, index_ty);
            let v = self.typed(|| format!("{name}[{i}]"), v, ty.elem);
            elems.insert(i, v);
        }
        Array {
            default: self.typed(|| format!("{name} (default)"), &a.default, ty.elem),
            elems: Arc::new(elems),
        }
    }

    fn read(&mut self, index: u32, ty: ScalarTy) -> Int {
        self.read_types.push(ty);
        match self.input.reads.get(index as usize).cloned() {
            Some(v) => self.typed(|| format!("read {}", index + 1), &v, ty),
            None => {
                self.missing_reads += 1;
                Int::ZERO
            }
        }
    }

    fn as_bool(&self, v: &Int) -> Option<bool> {
        Some(!v.is_zero())
    }

    fn as_int(&self, v: &Int) -> Option<Int> {
        Some(v.clone())
    }

    fn array_may_hold(&self, array: &Array, v: &Int) -> bool {
        array.default == *v || array.elems.values().any(|e| e == v)
    }
}

/// The concrete policy: follow the side the value says, and the thread
/// the schedule names.
#[derive(Clone, Debug, Default)]
pub struct Follow {
    /// Record the trail of decisions (for traces): off by default, since
    /// it costs an allocation per decision.
    pub record: bool,
    /// The schedule to follow (sorted by point); the default thread runs
    /// at every other point.
    pub schedule: Vec<Switch>,
}

impl Policy<Concrete<'_>> for Follow {
    type Path = ();

    fn branch(&mut self, _path: &(), _site: Site, cond: &Int) -> Fork<()> {
        Fork::one(!cond.is_zero(), ())
    }

    fn records_trail(&self) -> bool {
        self.record
    }

    fn schedule(&mut self, point: u32, candidates: &[u32], default: u32) -> Vec<u32> {
        vec![crate::threads::follow(
            &self.schedule,
            point,
            candidates,
            default,
        )]
    }
}

/// How a concrete run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The program ended normally.
    Halted,
    /// A runtime error (a bug).
    Error {
        /// What went wrong.
        kind: ErrorKind,
        /// Where.
        span: Span,
        /// The call stack at the error, innermost first.
        stack: Vec<CallSite>,
    },
    /// An `assume` did not hold: the input is outside the program's domain.
    AssumeFailed {
        /// The `assume` statement.
        span: Span,
    },
    /// The step limit was reached first.
    OutOfSteps,
    /// The run was stopped from outside ([`Watch::stop`]: Ctrl-C, SIGTERM)
    /// before it ended.
    Interrupted,
}

/// A concrete state (values are owned: nothing borrows the input).
pub type ConcreteState = State<Concrete<'static>, ()>;

/// The result of a concrete run.
pub struct Run {
    /// How it ended.
    pub outcome: Outcome,
    /// The last state (the final state when it halted).
    pub state: ConcreteState,
    /// Steps taken.
    pub steps: u64,
    /// Reads past the end of the given read values (they read 0).
    pub missing_reads: u32,
    /// Inputs given outside their type: (which, given, wrapped to).
    pub wrapped_inputs: Vec<(String, Int, Int)>,
    /// The type of each read the run made, in order.
    pub read_types: Vec<ScalarTy>,
    /// Where each read was made, in order: the `pc` of its
    /// [`Instr::Havoc`] (whose span tells a front end which source
    /// construct read it, e.g. which C call of `__VERIFIER_nondet_int`).
    pub read_pcs: Vec<Pc>,
    /// The run's trace, when [`Watch::trace`] asked for one.
    pub trace: Option<Trace>,
    /// What the program wrote (C's `printf`), up to the end of the run.
    pub output: Output,
}

/// What watches a run besides its step limit: a trace recorder, a switch
/// that stops it, a counter of its steps (for a progress display).
#[derive(Clone, Copy, Debug, Default)]
pub struct Watch<'a> {
    /// Record a trace with these options.
    pub trace: Option<TraceOptions>,
    /// Stop (with [`Outcome::Interrupted`]) once this is set; looked at
    /// every [`WATCH_EVERY`] steps.
    pub stop: Option<&'a AtomicBool>,
    /// Kept up to date with the number of steps taken, every
    /// [`WATCH_EVERY`] steps.
    pub steps: Option<&'a AtomicU64>,
}

/// How many steps a watched run takes between looks at its stop switch
/// and updates of its step counter (an atomic per step would cost more
/// than the step).
pub const WATCH_EVERY: u64 = 4096;

impl Run {
    /// The main program's variables and their final values, in slot order
    /// (meaningful when the run halted); temporaries are left out, and a
    /// variable whose address is taken shows the value in its cell.
    pub fn final_store(&self, ir: &Ir) -> Vec<(Arc<str>, Int)> {
        let frame = self.state.main_frame();
        ir.main
            .slots
            .iter()
            .zip(frame.locals.iter())
            .filter(|(s, _)| !s.is_temporary())
            .map(|(s, v)| (s.name.clone(), self.shown(ir, s.refers, v)))
            .collect()
    }

    /// What a variable referring to `refers` holding `v` shows: for a
    /// cell (a variable whose address is taken), the value in the cell;
    /// else `v`.
    fn shown(&self, ir: &Ir, refers: Option<wiser_ir::ClassId>, v: &Int) -> Int {
        let cell = refers.and_then(|c| ir.classes.get(c.0 as usize)?.cell);
        match cell.and_then(|a| self.state.arrays.get(a.0 as usize)) {
            Some(array) => array.elems.get(v).unwrap_or(&array.default).clone(),
            None => v.clone(),
        }
    }

    /// The routine running when the run stopped (on an error, where the
    /// error is) and its variables' values, in slot order; temporaries
    /// are left out.
    pub fn current_store(&self, ir: &Ir) -> (Arc<str>, Vec<(Arc<str>, Int)>) {
        let frame = &self.state.frame;
        let routine = ir.routine(frame.proc);
        let values = routine
            .slots
            .iter()
            .zip(frame.locals.iter())
            .filter(|(s, _)| !s.is_temporary())
            .map(|(s, v)| (s.name.clone(), self.shown(ir, s.refers, v)))
            .collect();
        (routine.name.clone(), values)
    }

    /// The globals' final values.
    pub fn final_globals(&self, ir: &Ir) -> Vec<(Arc<str>, Int)> {
        ir.globals
            .iter()
            .zip(self.state.globals.iter())
            .map(|(g, v)| (g.name.clone(), self.shown(ir, g.refers, v)))
            .collect()
    }

    /// The arrays' final contents.
    pub fn final_arrays(&self, ir: &Ir) -> Vec<(Arc<str>, Array)> {
        ir.arrays
            .iter()
            .map(|a| a.name.clone())
            .zip(self.state.arrays.iter().cloned())
            .collect()
    }
}

/// Runs `ir` on `input` for at most `max_steps` steps with default options.
pub fn run(ir: &Ir, input: &Input, max_steps: u64) -> Run {
    run_with(ir, input, max_steps, Options::default())
}

/// Runs `ir` on `input` for at most `max_steps` steps.
pub fn run_with(ir: &Ir, input: &Input, max_steps: u64, options: Options) -> Run {
    run_watched(ir, input, max_steps, options, Watch::default())
}

/// Runs `ir` on `input` for at most `max_steps` steps, recording a trace,
/// looking at a stop switch or counting steps as `watch` asks.
pub fn run_watched(
    ir: &Ir,
    input: &Input,
    max_steps: u64,
    options: Options,
    watch: Watch<'_>,
) -> Run {
    // The algebra borrows the input only while stepping; states own their
    // values, so the result can outlive the borrow.
    let mut alg = Concrete::new(input);
    let mut schedule = input.schedule.clone();
    schedule.sort();
    let mut pol = Follow {
        record: false,
        schedule,
    };
    // The input heap's bound is a bound of the symbolic search, which
    // must name the objects it considers; a concrete run is given its
    // heap, whatever its size, and is never cut by it (a cut state would
    // have no successor, which only a failed `assume` may leave).
    let options = Options {
        max_objects: None,
        ..options
    };
    let mut machine = Machine::with_options(ir, options);
    machine.collect_output();
    let mut state: State<Concrete<'_>, ()> = State::initial(ir, &mut alg, ());
    let mut out = Vec::with_capacity(2);
    let mut steps = 0u64;
    let mut read_pcs = Vec::new();
    let mut recorder = watch.trace.map(|o| Recorder::new(ir, o));
    let watched = watch.stop.is_some() || watch.steps.is_some();
    let outcome = loop {
        if let Some((kind, span)) = state.error() {
            if ir.undecided_at(kind, span).is_some() {
                // Not an error but where the model stops deciding
                // (`Ir::undecided`): the run ends as the `exit` there does.
                break Outcome::AssumeFailed { span };
            }
            if let Some(r) = &mut recorder {
                r.error(kind, span);
            }
            let stack = state.call_stack(ir);
            break Outcome::Error { kind, span, stack };
        }
        if state.is_final(ir) {
            break Outcome::Halted;
        }
        if steps >= max_steps {
            break Outcome::OutOfSteps;
        }
        if watched && steps.is_multiple_of(WATCH_EVERY) {
            if let Some(n) = watch.steps {
                n.store(steps, Ordering::Relaxed);
            }
            if watch.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                break Outcome::Interrupted;
            }
        }
        let loc = ir.at(state.pc);
        let pending = recorder
            .as_mut()
            .map(|r| r.before(&mut machine, &mut alg, &state));
        // Keep the state for the report only where an `assume` may end the
        // run: a clone elsewhere would make every later write copy locals.
        let before = matches!(loc.instr, Instr::Assume { .. }).then(|| state.clone());
        let (pc, reads) = (state.pc, alg.read_types.len());
        machine.step(&mut alg, &mut pol, state, &mut out);
        if alg.read_types.len() > reads {
            read_pcs.push(pc);
        }
        steps += 1;
        if let (Some(r), Some(p)) = (&mut recorder, pending) {
            r.after(p, out.last());
        }
        match out.pop() {
            Some(next) => {
                drop(before);
                debug_assert!(out.is_empty(), "a concrete step has one successor");
                out.clear();
                state = next;
            }
            None => match before {
                Some(b) => {
                    state = b;
                    break Outcome::AssumeFailed { span: loc.span };
                }
                // Only an `assume` ends a concrete path without a successor.
                None => unreachable!("a concrete step without a successor"),
            },
        }
    };
    Run {
        outcome,
        state: detach(state),
        steps,
        missing_reads: alg.missing_reads,
        wrapped_inputs: alg.wrapped,
        read_types: alg.read_types,
        read_pcs,
        trace: recorder.map(Recorder::finish),
        output: machine.take_output().unwrap_or_default(),
    }
}

/// Re-types a concrete state so it no longer borrows the input: concrete
/// states own all their values, only the algebra borrows.
fn detach(s: State<Concrete<'_>, ()>) -> ConcreteState {
    State {
        pc: s.pc,
        frame: s.frame,
        callers: s.callers,
        globals: s.globals,
        arrays: s.arrays,
        path: s.path,
        reads: s.reads,
        steps: s.steps,
        status: s.status,
        trail: s.trail,
        heap: s.heap,
        heap_reads: s.heap_reads,
        threads: s.threads,
    }
}

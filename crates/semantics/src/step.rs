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
use crate::state::{Bound, Decision, Frame, State, Status};
use crate::threads::{self, Thread, Threads, MAX_THREADS};
use std::sync::Arc;
use wiser_ir::{ArrayId, Code, ErrorKind, Instr, IntTy, Ir, Op, Site, Span};
use wiser_num::{CmpOp, Int};

/// Semantic options that every domain of one run must share (the
/// interpreter that replays a witness must use the same as the search).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Signed `+ - *`, unary `-` and `<<` wrap instead of being
    /// `signed_overflow` errors (gcc's `-fwrapv`). `MIN / -1` stays an
    /// error: it traps on common hardware.
    pub wrap_signed: bool,
    /// The most references a path may read from the input heap
    /// (`--max-objects`): input references range over `null` and objects
    /// `1..=N`, and a path that reads more is cut with
    /// [`Bound::Heap`]. `None`: no input heap bound (the interpreter,
    /// which is given its heap).
    pub max_objects: Option<u32>,
    /// The most threads (the main thread included) a path may start
    /// (`--max-threads`); one more is cut with [`Bound::Threads`].
    pub max_threads: Option<u32>,
    /// The most preemptive context switches a path may take
    /// (`--max-switches`); one more is cut with [`Bound::Switches`].
    pub max_switches: Option<u32>,
    /// Explore every interleaving (`--por off`) instead of reducing
    /// interleavings of independent steps with sleep sets.
    pub por_off: bool,
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
    pub(crate) ir: &'ir Ir,
    pub(crate) options: Options,
    stack: Vec<A::Value>,
    /// Per array: is it a reference field (whose reads from input
    /// objects count toward [`Options::max_objects`])?
    ref_field: Vec<bool>,
    /// References read from possible input objects during this step:
    /// (field, object) pairs, each counted once however often the step's
    /// code and checks read it (`x.next.f` reads `x.next` for its null
    /// check and for the access).
    ref_reads: Vec<(ArrayId, A::Value)>,
    /// When set, evaluation records the (array, index) of every select.
    pub(crate) capture: Option<Vec<(ArrayId, A::Value)>>,
    /// Per instruction: is it on a cycle of its routine's control flow?
    pub(crate) cyclic: Vec<bool>,
}

impl<'ir, A: Algebra> Machine<'ir, A> {
    /// A machine for `ir` with the default options.
    pub fn new(ir: &'ir Ir) -> Self {
        Machine::with_options(ir, Options::default())
    }

    /// A machine for `ir` with `options`.
    pub fn with_options(ir: &'ir Ir, options: Options) -> Self {
        let mut ref_field = vec![false; ir.arrays.len()];
        for class in &ir.classes {
            for f in &class.fields {
                if f.refers.is_some() {
                    ref_field[f.array.0 as usize] = true;
                }
            }
        }
        Machine {
            ir,
            options,
            stack: Vec::new(),
            ref_field,
            ref_reads: Vec::new(),
            capture: None,
            cyclic: if ir.threaded {
                wiser_ir::cfg::on_cycles(ir)
            } else {
                Vec::new()
            },
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
    /// has none; so has a state whose `assume` cannot hold. In a program
    /// that starts threads, each successor then goes through the
    /// scheduler ([`crate::threads`]).
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
        if state.steps == 0 && !self.assume_input_heap(alg, pol, &mut state) {
            state.status = Status::Bounded(Bound::Heap);
            out.push(state);
            return;
        }
        self.ref_reads.clear();
        let start = out.len();
        self.step_instr(alg, pol, state, out);
        if !self.ref_reads.is_empty() {
            for s in &mut out[start..] {
                for (a, v) in &self.ref_reads {
                    if !s.heap_reads.iter().any(|(b, w)| b == a && w == v) {
                        s.heap_reads = s.heap_reads.push((*a, v.clone()));
                        s.heap.input_refs += 1;
                    }
                }
                if s.status == Status::Running && self.past_heap_bound(&s.heap) {
                    s.status = Status::Bounded(Bound::Heap);
                }
            }
        }
        if self.ir.threaded {
            let produced: Vec<_> = out.drain(start..).collect();
            for s in produced {
                if s.status == Status::Running {
                    self.reschedule(alg, pol, s, out);
                } else {
                    out.push(s);
                }
            }
        }
    }

    /// Has a path that read `heap` read more references from the input
    /// heap than [`Options::max_objects`] allows?
    fn past_heap_bound(&self, heap: &crate::state::HeapCount) -> bool {
        self.options
            .max_objects
            .is_some_and(|m| heap.input_refs > m)
    }

    /// The input heap's bounds, assumed before the first step when
    /// [`Options::max_objects`] is set and the program has input
    /// references: each input reference and each reference field of an
    /// input object is `null` or one of the objects `1..=N`.
    ///
    /// The restriction loses no input only for a path that reads at most
    /// `N` references from the input heap (it sees at most `N` input
    /// objects, which can be renamed `1..=N`); the input references are
    /// read from the start. So `false` (the path must be cut with
    /// [`Bound::Heap`]) when there are more input references than `N`
    /// (with `N = 0`, any), and when the policy finds the restriction
    /// false (a concrete input beyond it, under concolic execution).
    fn assume_input_heap<P: Policy<A>>(
        &mut self,
        alg: &mut A,
        pol: &mut P,
        state: &mut State<A, P::Path>,
    ) -> bool {
        let Some(n) = self.options.max_objects else {
            return true;
        };
        if self.past_heap_bound(&state.heap) {
            return false;
        }
        let ir = self.ir;
        let mut refs: Vec<A::Value> = Vec::new();
        for input in ir.inputs.iter().filter(|i| i.refers.is_some()) {
            refs.push(state.frame.locals[input.slot as usize].clone());
        }
        for (g, decl) in ir.globals.iter().enumerate() {
            if decl.init.is_none() && decl.refers.is_some() {
                refs.push(state.globals[g].clone());
            }
        }
        let fields: Vec<ArrayId> = ir
            .classes
            .iter()
            .flat_map(|c| {
                c.fields
                    .iter()
                    .filter(|f| f.refers.is_some())
                    .map(|f| f.array)
            })
            .collect();
        if refs.is_empty() && fields.is_empty() {
            return true;
        }
        for a in fields {
            let ty = ir.arrays[a.0 as usize].ty;
            for id in 1..=n {
                let i = alg.int(IntTy::INT, &Int::from(i64::from(id)));
                refs.push(alg.select(ty, &state.arrays[a.0 as usize], i));
            }
        }
        let zero = alg.int(IntTy::INT, &Int::ZERO);
        let top = alg.int(IntTy::INT, &Int::from(i64::from(n)));
        let mut all = alg.bool(true);
        for r in refs {
            let lo = alg.compare(CmpOp::Le, IntTy::INT, zero.clone(), r.clone());
            let hi = alg.compare(CmpOp::Le, IntTy::INT, r, top.clone());
            let both = alg.and(lo, hi);
            all = alg.and(all, both);
        }
        if alg.as_bool(&all) == Some(true) {
            return true;
        }
        let site = Site {
            pc: ir.main.entry,
            check: Some(Site::INPUT_HEAP),
        };
        match pol.assume(&state.path, site, &all) {
            Some(path) => {
                state.path = path;
                true
            }
            None => false,
        }
    }

    /// One instruction of the running thread (see [`Machine::step`]).
    fn step_instr<P: Policy<A>>(
        &mut self,
        alg: &mut A,
        pol: &mut P,
        mut state: State<A, P::Path>,
        out: &mut Vec<State<A, P::Path>>,
    ) {
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
                let locals = self.callee_locals(alg, routine, args, &state);
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
            Instr::Skip { next } => {
                state.pc = *next;
                out.push(state);
            }
            Instr::Halt => {}
            Instr::New { dst, class, next } => {
                state.heap.objects += 1;
                let id = alg.int(IntTy::INT, &Int::from(-i64::from(state.heap.objects)));
                let arrays = Arc::make_mut(&mut state.arrays);
                for f in &ir.classes[class.0 as usize].fields {
                    let ty = ir.arrays[f.array.0 as usize].ty;
                    let zero = alg.zero(ty.elem);
                    let a = &mut arrays[f.array.0 as usize];
                    *a = alg.store(ty, a, id.clone(), zero);
                }
                state.store(*dst, id);
                state.pc = *next;
                out.push(state);
            }
            Instr::Spawn {
                proc,
                args,
                dst,
                next,
            } => {
                let routine = &ir.procs[proc.0 as usize];
                let locals = self.callee_locals(alg, routine, args, &state);
                let limit = self
                    .options
                    .max_threads
                    .unwrap_or(MAX_THREADS)
                    .min(MAX_THREADS);
                let th = state
                    .threads
                    .get_or_insert_with(|| Arc::new(Threads::main(pc, &state.frame)));
                if th.all.len() as u32 >= limit {
                    state.status = Status::Bounded(Bound::Threads);
                    out.push(state);
                    return;
                }
                let th = Arc::make_mut(th);
                let id = th.all.len() as u32;
                th.all.push(Thread {
                    pc: routine.entry,
                    frame: Frame {
                        locals: Arc::new(locals),
                        proc: Some(*proc),
                        ret: 0,
                        dst: None,
                        call_site: loc.span,
                    },
                    callers: crate::stack::Stack::new(),
                    done: false,
                });
                if let Some(d) = dst {
                    let ty = state.place_ty(ir, *d);
                    let v = threads::thread_id(alg, ty, id);
                    state.store(*d, v);
                }
                state.pc = *next;
                out.push(state);
            }
            Instr::Join { next, .. } => {
                if state.threads.is_some() {
                    // The scheduler ran this thread: the joined one is done.
                    state.pc = *next;
                } else {
                    // No thread was ever started: none can finish.
                    state.status = Status::Error {
                        kind: ErrorKind::Deadlock,
                        span: loc.span,
                    };
                }
                out.push(state);
            }
            Instr::Lock { lock, obj, next } => {
                let o = self.eval(alg, obj, &state);
                let ty = ir.arrays[lock.0 as usize].ty;
                if state.threads.is_none() {
                    // Without threads nobody else holds a lock: taking one
                    // already held (by this very thread) never returns.
                    let holder = alg.select(ty, &state.arrays[lock.0 as usize], o.clone());
                    let zero = alg.int(IntTy::INT, &Int::ZERO);
                    let free = alg.compare(CmpOp::Eq, IntTy::INT, holder, zero);
                    let fork = match alg.as_bool(&free) {
                        Some(holds) => {
                            pol.folded(site, holds);
                            Fork::one(holds, state.path.clone())
                        }
                        None => pol.branch(&state.path, site, &free),
                    };
                    if let Some(path) = fork.otherwise {
                        let mut err = error_state(&state, path, ErrorKind::Deadlock, loc.span);
                        if pol.records_trail() && alg.as_bool(&free).is_none() {
                            push_decision(&mut err, site, false, free.clone());
                        }
                        out.push(err);
                    }
                    let Some(path) = fork.then else { return };
                    state.path = path;
                    if pol.records_trail() && alg.as_bool(&free).is_none() {
                        push_decision(&mut state, site, true, free);
                    }
                }
                let me = threads::holder(alg, state.thread());
                let arrays = Arc::make_mut(&mut state.arrays);
                let a = &mut arrays[lock.0 as usize];
                *a = alg.store(ty, a, o, me);
                state.pc = *next;
                out.push(state);
            }
            Instr::Unlock { lock, obj, next } => {
                let o = self.eval(alg, obj, &state);
                let ty = ir.arrays[lock.0 as usize].ty;
                let zero = alg.int(IntTy::INT, &Int::ZERO);
                let arrays = Arc::make_mut(&mut state.arrays);
                let a = &mut arrays[lock.0 as usize];
                *a = alg.store(ty, a, o, zero);
                state.pc = *next;
                out.push(state);
            }
            Instr::Atomic { begin, next } => {
                if let Some(th) = state.threads.as_mut() {
                    let th = Arc::make_mut(th);
                    let me = th.current;
                    th.atomic = match (th.atomic, *begin) {
                        (Some((t, depth)), true) if t == me => Some((t, depth + 1)),
                        (_, true) => Some((me, 1)),
                        (Some((t, depth)), false) if t == me && depth > 1 => Some((t, depth - 1)),
                        (_, false) => None,
                    };
                }
                state.pc = *next;
                out.push(state);
            }
        }
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

    /// Evaluates code in `state`'s current frame.
    pub fn eval<P>(&mut self, alg: &mut A, code: &Code, state: &State<A, P>) -> A::Value {
        self.eval_in(alg, code, &state.frame.locals, state)
    }

    /// Evaluates code over the locals `locals` (of some thread's frame)
    /// and `state`'s globals and arrays.
    pub(crate) fn eval_in<P>(
        &mut self,
        alg: &mut A,
        code: &Code,
        locals: &[A::Value],
        state: &State<A, P>,
    ) -> A::Value {
        let stack = &mut self.stack;
        let base = stack.len();
        for op in code.iter() {
            let v = match op {
                Op::Int(t, n) => alg.int(*t, n),
                Op::Bool(b) => alg.bool(*b),
                Op::Load(wiser_ir::Place::Local(i)) => locals[*i as usize].clone(),
                Op::Load(wiser_ir::Place::Global(g)) => state.globals[*g as usize].clone(),
                Op::Select(a) => {
                    let i = pop(stack);
                    let ty = self.ir.arrays[a.0 as usize].ty;
                    if self.ref_field[a.0 as usize]
                        && alg.as_int(&i).is_none_or(|k| k >= Int::ZERO)
                        && !self.ref_reads.iter().any(|(b, j)| b == a && *j == i)
                    {
                        self.ref_reads.push((*a, i.clone()));
                    }
                    if let Some(c) = &mut self.capture {
                        c.push((*a, i.clone()));
                    }
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

//! Machine states: where a path is, its frames, globals and arrays, what
//! its policy keeps about it, and the trail of its decisions.
//!
//! Forking a state copies nothing but reference counts: globals sit behind
//! an `Arc` that is copied on the first write after a fork (and written in
//! place while unshared), locals are [`Locals`] (a write after a fork adds
//! one node), callers and the trail are persistent
//! [`Stack`]s, and the algebra's arrays and the policy's paths are
//! persistent values themselves (the concrete algebra's arrays are
//! copied on a write to a shared one: its runs never share them).

use crate::algebra::Algebra;
use crate::locals::Locals;
use crate::stack::Stack;
use std::sync::Arc;
use wiser_ir::{ErrorKind, Instr, Ir, Pc, Place, ProcId, Site, Span};

/// The activation of a routine.
#[derive(Debug)]
pub struct Frame<V> {
    /// The routine's slots (parameters first).
    pub locals: Locals<V>,
    /// The routine: `None` for the main program.
    pub proc: Option<ProcId>,
    /// Where the caller resumes.
    pub ret: Pc,
    /// Where the caller stores the result.
    pub dst: Option<Place>,
    /// The call statement (the dummy span for the main program).
    pub call_site: Span,
}

impl<V> Clone for Frame<V> {
    fn clone(&self) -> Self {
        Frame {
            locals: self.locals.clone(),
            proc: self.proc,
            ret: self.ret,
            dst: self.dst,
            call_site: self.call_site,
        }
    }
}

/// A bound of the search that a path went past (the path is then cut:
/// a run that cut one cannot say `safe`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bound {
    /// More references were read from the input heap than
    /// [`crate::Options::max_objects`] (`heap_bound`).
    Heap,
    /// A thread beyond [`crate::Options::max_threads`] was started
    /// (`thread_bound`).
    Threads,
    /// A context switch beyond [`crate::Options::max_switches`] was taken
    /// (`switch_bound`).
    Switches,
}

impl Bound {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Bound::Heap => "heap_bound",
            Bound::Threads => "thread_bound",
            Bound::Switches => "switch_bound",
        }
    }
}

/// How a state stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It can take a step (or is final: see [`State::is_final`]).
    Running,
    /// Its next step would go past a bound of the search: the path ends
    /// here, neither a bug nor a normal end.
    Bounded(Bound),
    /// It is stuck on a runtime error at `span`.
    Error {
        /// What went wrong.
        kind: ErrorKind,
        /// Where (the statement, or the operator of a failed check).
        span: Span,
    },
}

/// One entry of a call stack, innermost first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CallSite {
    /// The routine that was running.
    pub routine: Arc<str>,
    /// Where it was called from (the dummy span for `main`).
    pub call_site: Span,
}

/// One decision of a path: at `site`, on condition `cond`, the side
/// `taken` (true: the condition held; for a check, true means the check
/// faulted).
#[derive(Clone, Debug)]
pub struct Decision<V> {
    /// Where.
    pub site: Site,
    /// Which side.
    pub taken: bool,
    /// The condition, as the algebra built it.
    pub cond: V,
}

/// The decisions of a path, newest on top (only decisions whose condition
/// was not a constant, and only when the policy records them).
pub type Trail<V> = Stack<Decision<V>>;

/// What a state knows about the heap besides the field arrays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HeapCount {
    /// Objects made by `new` so far (the next one is `-(objects + 1)`).
    pub objects: u32,
    /// References read from the input heap so far (input reference
    /// variables, and distinct reads of reference fields of objects that
    /// may be input objects): the path has seen at most this many input
    /// objects.
    pub input_refs: u32,
}

/// A machine state over algebra `A` with per-path information `P`.
pub struct State<A: Algebra, P> {
    /// The next instruction.
    pub pc: Pc,
    /// The running routine's frame.
    pub frame: Frame<A::Value>,
    /// The callers' frames, innermost on top.
    pub callers: Stack<Frame<A::Value>>,
    /// Global variables.
    pub globals: Arc<Vec<A::Value>>,
    /// The arrays, indexed by array number.
    pub arrays: Arc<Vec<A::Array>>,
    /// What the policy keeps about the path.
    pub path: P,
    /// How many nondeterministic reads (`x = *`) this path has made.
    pub reads: u32,
    /// How many steps led here from the initial state (a replay of the
    /// path takes exactly as many).
    pub steps: u64,
    /// Running or stuck on an error.
    pub status: Status,
    /// The path's decisions, newest on top.
    pub trail: Trail<A::Value>,
    /// Objects made and input references read.
    pub heap: HeapCount,
    /// The reference fields read from possible input objects so far, as
    /// (field, object) pairs: a pair read again is not counted again.
    pub heap_reads: Stack<(wiser_ir::ArrayId, A::Value)>,
    /// The other threads, for a program that starts threads (`None`
    /// until the first `spawn`): the running thread's context is `pc`,
    /// `frame` and `callers` above.
    pub threads: Option<Arc<crate::threads::Threads<A::Value>>>,
}

impl<A: Algebra, P: Clone> Clone for State<A, P> {
    fn clone(&self) -> Self {
        State {
            pc: self.pc,
            frame: self.frame.clone(),
            callers: self.callers.clone(),
            globals: self.globals.clone(),
            arrays: self.arrays.clone(),
            path: self.path.clone(),
            reads: self.reads,
            steps: self.steps,
            status: self.status,
            trail: self.trail.clone(),
            heap: self.heap,
            heap_reads: self.heap_reads.clone(),
            threads: self.threads.clone(),
        }
    }
}

impl<A: Algebra, P> State<A, P> {
    /// The initial state of `ir` with path information `path`: inputs map
    /// to the algebra's input values (in the symbolic algebra, symbols of
    /// their own names), every other slot to 0.
    pub fn initial(ir: &Ir, alg: &mut A, path: P) -> Self {
        let mut locals: Vec<A::Value> = ir.main.slots.iter().map(|s| alg.zero(s.ty)).collect();
        let mut input_refs = 0;
        for input in &ir.inputs {
            locals[input.slot as usize] = alg.input(&input.name, input.ty);
            input_refs += u32::from(input.refers.is_some());
        }
        input_refs += ir
            .globals
            .iter()
            .filter(|g| g.init.is_none() && g.refers.is_some())
            .count() as u32;
        let globals = ir
            .globals
            .iter()
            .map(|g| match (&g.init, g.ty) {
                (None, ty) => alg.input(&g.name, ty),
                (Some(v), ty) => alg.scalar(ty, v),
            })
            .collect();
        let arrays = ir
            .arrays
            .iter()
            .map(|a| match &a.init {
                None => alg.input_array(&a.name, a.ty),
                Some(v) => alg.const_array(a.ty, v),
            })
            .collect();
        State {
            pc: ir.main.entry,
            frame: Frame {
                locals: Locals::new(locals),
                proc: None,
                ret: 0,
                dst: None,
                call_site: Span::default(),
            },
            callers: Stack::new(),
            globals: Arc::new(globals),
            arrays: Arc::new(arrays),
            path,
            reads: 0,
            steps: 0,
            status: Status::Running,
            trail: Stack::new(),
            heap: HeapCount {
                objects: 0,
                input_refs,
            },
            heap_reads: Stack::new(),
            threads: None,
        }
    }

    /// Has the program ended normally? (The main thread has reached its
    /// end: with it, every thread ends.)
    pub fn is_final(&self, ir: &Ir) -> bool {
        self.status == Status::Running
            && matches!(ir.at(self.pc).instr, Instr::Halt)
            && self.thread() == 0
    }

    /// The runtime error this state is stuck on, if any.
    pub fn error(&self) -> Option<(ErrorKind, Span)> {
        match self.status {
            Status::Error { kind, span } => Some((kind, span)),
            Status::Running | Status::Bounded(_) => None,
        }
    }

    /// The bound this path went past, if it did.
    pub fn bounded(&self) -> Option<Bound> {
        match self.status {
            Status::Bounded(b) => Some(b),
            _ => None,
        }
    }

    /// The running thread's id (0, the main thread, in a program without
    /// threads).
    pub fn thread(&self) -> u32 {
        self.threads.as_ref().map_or(0, |t| t.current)
    }

    /// The context switches of the path: at which scheduling point which
    /// thread was chosen, where the choice was not the default one (see
    /// [`crate::threads`]). Empty without threads.
    pub fn schedule(&self) -> Vec<crate::threads::Switch> {
        self.threads.as_ref().map_or_else(Vec::new, |t| {
            let mut v: Vec<_> = t.schedule.iter().copied().collect();
            v.reverse();
            v
        })
    }

    /// The call stack, innermost routine first.
    pub fn call_stack(&self, ir: &Ir) -> Vec<CallSite> {
        std::iter::once(&self.frame)
            .chain(self.callers.iter())
            .map(|f| CallSite {
                routine: ir.routine(f.proc).name.clone(),
                call_site: f.call_site,
            })
            .collect()
    }

    /// The main program's frame (the bottom of the call stack).
    pub fn main_frame(&self) -> &Frame<A::Value> {
        self.callers.iter().last().unwrap_or(&self.frame)
    }

    /// The value of a place in the current frame.
    pub fn load(&self, place: Place) -> &A::Value {
        match place {
            Place::Local(i) => &self.frame.locals[i as usize],
            Place::Global(g) => &self.globals[g as usize],
        }
    }

    /// The type of a place of the current frame.
    pub fn place_ty(&self, ir: &Ir, place: Place) -> wiser_ir::ScalarTy {
        ir.place_ty(self.frame.proc, place)
    }

    /// Writes a place of the current frame (copying the globals first if
    /// they are shared).
    pub fn store(&mut self, place: Place, v: A::Value) {
        match place {
            Place::Local(i) => self.frame.locals.set(i as usize, v),
            Place::Global(g) => Arc::make_mut(&mut self.globals)[g as usize] = v,
        }
    }
}

//! The small-step semantics, written once for every algebra and policy.
//!
//! [`Machine::step`] takes a state by value and pushes its successors: one
//! for most instructions, up to two for a branch, plus an error state for
//! each check that may fault. Every decision (a check, a branch, an
//! assertion, an assumption) goes to the policy with its [`Site`]; runtime
//! errors are just decisions whose one side is an error state. Nothing
//! here recurses: expressions run on an explicit stack.

mod calls;
mod decide;
mod eval;
mod heap;
mod instr;
mod output;

pub use output::{Output, MAX_OUTPUT};

use crate::algebra::Algebra;
use crate::policy::Policy;
use crate::state::{Bound, State, Status};
use wiser_ir::{ArrayId, ErrorKind, IntTy, Ir, Site};
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
    /// The program's output, when collected ([`Machine::collect_output`]).
    output: Option<Output>,
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
            output: None,
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
}
